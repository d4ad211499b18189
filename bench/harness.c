/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The harness: warm-up, then counted runs interleaved across variants
 * (run 1 of every variant, then run 2, ...) so drift hits all alike,
 * once per counter group; statistics and one record per result.
 *
 * Every measured region is bracketed by fesim markers, so a run under the
 * front-end simulator attributes exactly the same instructions. */
#include <kfront/compiler.h>
#include <kfront/counters.h>
#include <kfront/errno.h>
#include <kfront/fesim_marker.h>
#include <kfront/harness.h>
#include <kfront/printk.h>
#include <kfront/record.h>
#include <kfront/stats.h>
#include <kfront/string.h>
#include <kfront/watchdog.h>
#include <kfront/wire.h>

#define FESIM_SLOT_BENCH	1
#define FESIM_SLOT_CALIB	2
#define CALIB_ROUNDS		101

struct variant_state {
	struct bench_ctx ctx;
	bool set_up;
	bool failed;
	u64 iters;
};

static u64 samples[HARNESS_MAX_VARIANTS][COUNTERS_MAX][HARNESS_MAX_RUNS];
static u64 regions[HARNESS_MAX_VARIANTS][HARNESS_MAX_RUNS];
static u64 scratch[HARNESS_MAX_RUNS > CALIB_ROUNDS ? HARNESS_MAX_RUNS : CALIB_ROUNDS];
static u64 overhead[COUNTERS_MAX];
static u64 region_seq;		/* regions begun: the next one's fesim seq */
static u64 calib_first;		/* seq of the first calibration region */
static struct variant_state vstate[HARNESS_MAX_VARIANTS];
static struct record rec;
static struct arch_jmp_buf watchdog_jmp;

u64 harness_region_count(void)
{
	return region_seq;
}

/* One measured region: deltas of every slot into out[]. */
static __noinline int measure(const struct bench_desc *b, struct bench_ctx *ctx,
			      u64 iters, int nslots, u64 *out)
{
	u64 begin[COUNTERS_MAX], end[COUNTERS_MAX];
	int ret;

	region_seq++;
	fesim_region_begin(FESIM_SLOT_BENCH);
	counters_read_begin(begin);
	ret = b->run(ctx, iters);
	counters_read_end(end);
	fesim_region_end(FESIM_SLOT_BENCH);
	for (int i = 0; i < nslots; i++)
		out[i] = counters_delta(i, begin[i], end[i]);
	return ret;
}

static int noop_run(struct bench_ctx *ctx, u64 iters)
{
	return 0;
}

static const struct bench_desc noop_bench = { .name = "empty", .run = noop_run };

void harness_calibrate(int nslots)
{
	static u64 vals[COUNTERS_MAX][CALIB_ROUNDS];
	struct bench_ctx ctx = { 0 };
	u64 d[COUNTERS_MAX];
	struct stats st;

	calib_first = region_seq;
	for (int r = 0; r < CALIB_ROUNDS; r++) {
		measure(&noop_bench, &ctx, 0, nslots, d);
		for (int i = 0; i < nslots; i++)
			vals[i][r] = d[i];
	}
	for (int i = 0; i < nslots; i++) {
		stats_compute(vals[i], CALIB_ROUNDS, scratch, &st);
		overhead[i] = st.min;	/* the floor: never over-subtract */
	}
}

static void emit_error(const char *type, const struct harness_job *job, int v,
		       const char *msg, const struct harness_config *cfg)
{
	rec_begin(&rec, type);
	rec_str(&rec, "bench", job->bench[v]->name);
	rec_str(&rec, "variant", job->variant[v]->name);
	if (cfg->has_footprint)
		rec_u64(&rec, "footprint", cfg->footprint);
	if (!strcmp(type, "timeout"))
		rec_u64(&rec, "budget_ms", cfg->budget_ms);
	else
		rec_str(&rec, "msg", msg);
	rec_emit(&rec);
	printk("kfront: %s: %s/%s: %s\n", type, job->variant[v]->name,
	       job->bench[v]->name, msg);
}

static int setup_all(const struct harness_job *job, const struct harness_config *cfg)
{
	int failed = 0;

	for (int v = 0; v < job->nvariants; v++) {
		struct variant_state *vs = &vstate[v];
		const struct bench_desc *b = job->bench[v];
		int ret = 0;

		memset(vs, 0, sizeof(*vs));
		vs->ctx.footprint = cfg->has_footprint ? cfg->footprint : 0;
		if (b->flags & BENCH_F_WIRE)
			vs->ctx.wire = cfg->wire;
		vs->iters = cfg->iters ? cfg->iters :
			    cfg->quick ? b->quick_iters : b->default_iters;
		if (b->setup)
			ret = b->setup(&vs->ctx);
		if (ret) {
			emit_error("error", job, v, vs->ctx.err[0] ? vs->ctx.err :
				   "setup failed", cfg);
			vs->failed = true;
			failed++;
			continue;
		}
		vs->set_up = true;
	}
	return failed;
}

static void teardown_all(const struct harness_job *job)
{
	for (int v = 0; v < job->nvariants; v++) {
		if (vstate[v].set_up && job->bench[v]->teardown)
			job->bench[v]->teardown(&vstate[v].ctx);
		vstate[v].set_up = false;
	}
}

/* One run of variant v; the sample is the cost of iters operations. */
static int run_once(const struct harness_job *job, const struct harness_config *cfg,
		    int v, int nslots, u64 *out)
{
	struct variant_state *vs = &vstate[v];
	const struct bench_desc *b = job->bench[v];
	u64 a[COUNTERS_MAX];
	int ret;

	if (cfg->method == METHOD_DIFF) {
		/* 2N minus N: fixed costs cancel exactly. */
		ret = measure(b, &vs->ctx, vs->iters, nslots, a);
		if (!ret)
			ret = measure(b, &vs->ctx, 2 * vs->iters, nslots, out);
		for (int i = 0; !ret && i < nslots; i++)
			out[i] = out[i] > a[i] ? out[i] - a[i] : 0;
		return ret;
	}
	ret = measure(b, &vs->ctx, vs->iters, nslots, out);
	for (int i = 0; i < nslots; i++)
		out[i] = out[i] > overhead[i] ? out[i] - overhead[i] : 0;
	return ret;
}

/* Milliseconds of the budget left since start; 0 = spent. Without a
 * known TSC rate the budget cannot be measured: a full one is granted. */
static u64 budget_left(u64 start, const struct harness_config *cfg)
{
	u64 hz = counters_tsc_hz(), used_ms;

	if (!hz || !cfg->budget_ms)
		return cfg->budget_ms;
	used_ms = (counters_tsc() - start) / (hz / 1000);
	return used_ms >= cfg->budget_ms ? 0 : cfg->budget_ms - used_ms;
}

/* One call under the watchdog: a warm-up run, or a counted run_once().
 * If the timer fires, the benchmark is abandoned mid-flight and this
 * returns -ETIMEDOUT (nothing after arch_setjmp reads a local). */
static __noinline int guarded(const struct harness_job *job,
			      const struct harness_config *cfg, int v, int nslots,
			      u64 *out, u64 left_ms)
{
	int ret;

	if (arch_setjmp(&watchdog_jmp))
		return -ETIMEDOUT;
	watchdog_arm(&watchdog_jmp, left_ms);
	if (out)
		ret = run_once(job, cfg, v, nslots, out);
	else
		ret = job->bench[v]->run(&vstate[v].ctx, vstate[v].iters);
	watchdog_disarm();
	return ret;
}

static void check_run(const struct harness_job *job, const struct harness_config *cfg,
		      int v, int ret, int *failed)
{
	if (!ret)
		return;
	if (ret == -ETIMEDOUT) {
		emit_error("timeout", job, v, "the watchdog ended the run", cfg);
		/* Its state is mid-operation: never call its teardown. */
		vstate[v].set_up = false;
	} else {
		emit_error("error", job, v, vstate[v].ctx.err[0] ? vstate[v].ctx.err :
			   "run failed", cfg);
	}
	vstate[v].failed = true;
	(*failed)++;
}

/* Warm-up and counted runs of one group; returns the runs completed. */
static u32 run_group(const struct harness_job *job, const struct harness_config *cfg,
		     int nslots, int *failed)
{
	u64 out[COUNTERS_MAX], start = counters_tsc();
	u32 r;

	for (u32 w = 0; w < cfg->warmup; w++)
		for (int v = 0; v < job->nvariants; v++)
			if (!vstate[v].failed)
				check_run(job, cfg, v, guarded(job, cfg, v, nslots, NULL,
					  budget_left(start, cfg)), failed);
	for (r = 0; r < cfg->runs; r++) {
		if (!budget_left(start, cfg)) {
			for (int v = 0; v < job->nvariants; v++)
				if (!vstate[v].failed) {
					emit_error("timeout", job, v, "budget exceeded", cfg);
					vstate[v].failed = true;
					(*failed)++;
				}
			break;
		}
		for (int v = 0; v < job->nvariants; v++) {
			if (vstate[v].failed)
				continue;
			regions[v][r] = region_seq;
			check_run(job, cfg, v, guarded(job, cfg, v, nslots, out,
				  budget_left(start, cfg)), failed);
			for (int i = 0; i < nslots; i++)
				samples[v][i][r] = out[i];
		}
	}
	return r;
}

static void emit_counter(const char *name, const u64 *vals, u32 n, u64 iters)
{
	struct stats st;

	stats_compute(vals, n, scratch, &st);
	rec_obj_begin(&rec, name);
	rec_u64(&rec, "median", st.median);
	rec_u64(&rec, "min", st.min);
	rec_u64(&rec, "max", st.max);
	rec_u64(&rec, "mad", st.mad);
	rec_u64(&rec, "n", st.n);
	rec_ratio3(&rec, "median_per_op", st.median, iters);
	rec_ratio3(&rec, "mad_per_op", st.mad, iters);
	rec_obj_end(&rec);
}

static void emit_result(const struct harness_job *job, const struct harness_config *cfg,
			int v, int g, const char **names, int nslots, u32 runs)
{
	struct variant_state *vs = &vstate[v];

	rec_begin(&rec, "result");
	rec_str(&rec, "bench", job->bench[v]->name);
	rec_str(&rec, "variant", job->variant[v]->name);
	rec_str(&rec, "op", job->bench[v]->op);
	if (cfg->has_footprint)
		rec_u64(&rec, "footprint", cfg->footprint);
	rec_u64(&rec, "group", (u64)g);
	if (job->bench[v]->flags & BENCH_F_WIRE)
		rec_str(&rec, "wire", cfg->wire ? cfg->wire->desc : "none");
	rec_u64(&rec, "iters", vs->iters);
	rec_u64(&rec, "runs", runs);
	rec_u64(&rec, "warmup", cfg->warmup);
	rec_str(&rec, "method", cfg->method == METHOD_DIFF ? "diff" : "overhead");
	rec_obj_begin(&rec, "overhead");
	for (int i = 0; i < nslots; i++)
		rec_u64(&rec, names[i], cfg->method == METHOD_DIFF ? 0 : overhead[i]);
	rec_obj_end(&rec);
	rec_obj_begin(&rec, "counters");
	for (int i = 0; i < nslots; i++)
		emit_counter(names[i], samples[v][i], runs, vs->iters);
	rec_obj_end(&rec);
	rec_obj_begin(&rec, "samples");
	for (int i = 0; i < nslots; i++) {
		rec_arr_begin(&rec, names[i]);
		for (u32 r = 0; r < runs; r++)
			rec_arr_u64(&rec, samples[v][i][r]);
		rec_arr_end(&rec);
	}
	rec_obj_end(&rec);
	/* fesim region numbers: the empty regions measured for the overhead,
	 * and the first region of each run (diff: runs use two, N then 2N). */
	rec_u64(&rec, "calib_region", calib_first);
	rec_u64(&rec, "calib_regions", CALIB_ROUNDS);
	rec_arr_begin(&rec, "regions");
	for (u32 r = 0; r < runs; r++)
		rec_arr_u64(&rec, regions[v][r]);
	rec_arr_end(&rec);
	rec_hex(&rec, "digest", vs->ctx.digest);
	rec_emit(&rec);
}

int harness_run(const struct harness_job *job, const struct harness_config *cfg)
{
	const char *names[COUNTERS_MAX];
	char err[160];
	int failed = setup_all(job, cfg);

	for (int g = 0; g < counters_num_groups() && failed < job->nvariants; g++) {
		int nslots = counters_group_names(g, names, COUNTERS_MAX);
		u32 runs;

		if (counters_start_group(g, err, sizeof(err))) {
			printk("kfront: counter group %d failed: %s\n", g, err);
			continue;
		}
		counters_quiet_begin();
		harness_calibrate(nslots);
		runs = run_group(job, cfg, nslots, &failed);
		counters_quiet_end();
		counters_stop();
		for (int v = 0; v < job->nvariants; v++)
			if (!vstate[v].failed)
				emit_result(job, cfg, v, g, names, nslots, runs);
	}
	teardown_all(job);
	return failed;
}
