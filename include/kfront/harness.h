/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measurement harness: runs one benchmark across the selected
 * variants, interleaved, and emits one result record per variant and
 * event group (bench/harness/harness.c). Built once, never per variant. */
#ifndef KFRONT_HARNESS_H
#define KFRONT_HARNESS_H

#include <kfront/variant.h>

#define HARNESS_MAX_VARIANTS	8
#define HARNESS_MAX_RUNS	256	/* also the runs= limit (kernel/params.c) */

enum harness_method {
	METHOD_OVERHEAD,	/* subtract the calibrated empty region */
	METHOD_DIFF,		/* runs of N and 2N iterations, difference */
	METHOD_COUNT,		/* names: harness_method_names (kernel/params.c) */
};

/* Front-end state of a counted run (bench/harness/harness.c). */
enum harness_state {
	STATE_WARM,	/* one unmeasured call of the same variant first */
	STATE_COLD,	/* straight after the previous variant's run */
	STATE_BOTH,	/* warm runs, then cold runs, both reported */
	STATE_COUNT,	/* names: harness_state_names (kernel/params.c) */
};

/* The method= and state= choices, indexed by the enums (kernel/params.c);
 * the records print the same names. */
extern const char *const harness_method_names[METHOD_COUNT];
extern const char *const harness_state_names[STATE_COUNT];

struct harness_config {
	u32 runs;
	u32 warmup;
	u32 iters;		/* 0: the benchmark's own default */
	bool quick;
	enum harness_method method;
	enum harness_state state;
	u64 budget_ms;
	u32 footprint;		/* for BENCH_F_FOOTPRINT benchmarks */
	bool has_footprint;
	const struct wire_ops *wire;	/* for BENCH_F_WIRE benchmarks */
};

struct harness_job {
	const struct bench_desc *bench[HARNESS_MAX_VARIANTS];
	const struct variant_desc *variant[HARNESS_MAX_VARIANTS];
	int nvariants;
};

/* Returns 0, or the number of variants that failed (error/timeout). */
int harness_run(const struct harness_job *job, const struct harness_config *cfg);
/* Calibrate the cost of an empty region for the active counter group. */
void harness_calibrate(int nslots);
/* Variant at position pos of counted run r (the rotation rule). */
int harness_run_order(int nvariants, u32 r, int pos);
/* Regions begun so far (the fesim plugin numbers them the same way). */
u64 harness_region_count(void);

#endif
