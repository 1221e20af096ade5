/* Found next to include.c / include.cpp; decoy/greeting.h must never be. */
#define GREETING "hello from weft compile"
/* SPDX-License-Identifier: BSD-3-Clause */
