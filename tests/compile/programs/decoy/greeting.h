#error "decoy/greeting.h was included instead of the greeting.h next to the source"
/* SPDX-License-Identifier: BSD-3-Clause */
