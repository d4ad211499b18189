/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Generic sorting (lib/sort.c), for the statistics of the harness and
 * for calibrations in arch/ alike. */
#ifndef KFRONT_SORT_H
#define KFRONT_SORT_H

#include <kfront/types.h>

/* Ascending, in place. */
void sort_u64(u64 *v, u64 n);

/* Sorts @v in place; its median (of an even count the lower middle
 * value), 0 if @n is 0. */
u64 median_u64(u64 *v, u64 n);

#endif
