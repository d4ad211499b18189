/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Order statistics of per-run counter values (integer only: no FPU in
 * the kernel). The host recomputes everything from the raw samples too. */
#ifndef KFRONT_STATS_H
#define KFRONT_STATS_H

#include <kfront/types.h>

struct stats {
	u64 n;
	u64 median;	/* lower median for even n */
	u64 min, max;
	u64 mad;	/* median absolute deviation from the median */
};

/* vals is left unchanged; scratch must hold n values. */
void stats_compute(const u64 *vals, u64 n, u64 *scratch, struct stats *st);

#endif
