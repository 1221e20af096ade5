#define DEPENDS_N 10
/* SPDX-License-Identifier: BSD-3-Clause */
