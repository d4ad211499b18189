/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The harness: warm-up, then counted runs interleaved across variants
 * (run 1 of every variant, then run 2, ...) so drift hits all alike,
 * once per counter group; statistics and one record per result.
 *
 * Warm runs (the default): every counted run is preceded by one unmeasured
 * call of the same variant with the same iteration count, so the sample
 * measures that variant's code in a warm front end (L1i, uop cache, iTLB,
 * BTB) and not the refill after the previous variant's code. The variant
 * order is rotated from run to run (run_order) and recorded. state=cold
 * drops the preceding call to measure the cold case deliberately; both
 * runs the counted runs twice, warm then cold.
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
	u32 clamped[COUNTERS_MAX];	/* samples that would have gone below 0 */
};

static u64 samples[HARNESS_MAX_VARIANTS][COUNTERS_MAX][HARNESS_MAX_RUNS];
static u64 regions[HARNESS_MAX_VARIANTS][HARNESS_MAX_RUNS];
static u8 positions[HARNESS_MAX_VARIANTS][HARNESS_MAX_RUNS];
static u64 scratch[HARNESS_MAX_RUNS > CALIB_ROUNDS ? HARNESS_MAX_RUNS : CALIB_ROUNDS];
/* The empty region's cost per slot: its median (what is subtracted), and
 * its spread and floor (reported). */
static struct stats overhead[COUNTERS_MAX];
static u64 region_seq;		/* regions begun: the next one's fesim seq */
static u64 calib_first;		/* seq of the first calibration region */
static struct variant_state vstate[HARNESS_MAX_VARIANTS];
static struct record rec;
static struct arch_jmp_buf watchdog_jmp;

__measured_path u64 harness_region_count(void)
{
	return region_seq;
}

/* One measured region: deltas of every slot into out[]. */
static __noinline __measured_path int measure(const struct bench_desc *b,
					      struct bench_ctx *ctx, u64 iters,
					      int nslots, u64 *out)
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

static __measured_path int noop_run(struct bench_ctx *ctx, u64 iters)
{
	return 0;
}

static const struct bench_desc noop_bench = { .name = "empty", .run = noop_run };

/*
 * The cost of an empty region (a call of a no-op through the same measure()
 * path), 101 times back to back. Its median is subtracted: like from like,
 * since the harness's own code, the only code in an empty region, runs
 * between every two counted runs and is as warm there as here, in warm and
 * cold state alike (cold state makes the *variant's* code cold, which an
 * empty region does not contain). The MAD and minimum are reported beside
 * it, so the overhead's own spread is visible.
 */
void harness_calibrate(int nslots)
{
	static u64 vals[COUNTERS_MAX][CALIB_ROUNDS];
	struct bench_ctx ctx = { 0 };
	u64 d[COUNTERS_MAX];

	calib_first = region_seq;
	for (int r = 0; r < CALIB_ROUNDS; r++) {
		measure(&noop_bench, &ctx, 0, nslots, d);
		for (int i = 0; i < nslots; i++)
			vals[i][r] = d[i];
	}
	for (int i = 0; i < nslots; i++)
		stats_compute(vals[i], CALIB_ROUNDS, scratch, &overhead[i]);
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

/*
 * A benchmark's own operation count, shortened at footprint points: every
 * filter rule adds about 230 instructions to an operation of about 4600
 * (docs/hybrid.md), so without this a sweep point at 128 rules would run
 * seven times longer than footprint 0 (and far longer under the front-end
 * simulator). Scaling by 20 / (20 + rules) keeps each point's run time
 * about level. The record states the count used (iters); per-operation
 * figures divide by it. An iters= given by the user is used as given.
 */
static u32 footprint_iters(u32 iters, u32 footprint)
{
	u64 scaled = (u64)iters * 20 / (20 + (u64)footprint);

	return scaled ? (u32)scaled : 1;
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
			    footprint_iters(cfg->quick ? b->quick_iters : b->default_iters,
					    vs->ctx.footprint);
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

/* Subtract, counting the samples that would go below zero (diff runs
 * where 2N came out cheaper than N, a region cheaper than the median empty
 * one): they are reported, never silently hidden. */
static __measured_path u64 sub_clamped(u64 a, u64 b, u32 *clamped)
{
	if (a >= b)
		return a - b;
	(*clamped)++;
	return 0;
}

/* One run of variant v; the sample is the cost of iters operations. */
static __measured_path int run_once(const struct harness_job *job,
				     const struct harness_config *cfg,
				     int v, int nslots, u64 *out)
{
	struct variant_state *vs = &vstate[v];
	const struct bench_desc *b = job->bench[v];
	u64 a[COUNTERS_MAX];
	int ret;

	if (cfg->method == METHOD_DIFF) {
		/* 2N minus N: the fixed costs cancel when both runs start in
		 * the same state, which the preceding warm call ensures. */
		ret = measure(b, &vs->ctx, vs->iters, nslots, a);
		if (!ret)
			ret = measure(b, &vs->ctx, 2 * vs->iters, nslots, out);
		for (int i = 0; !ret && i < nslots; i++)
			out[i] = sub_clamped(out[i], a[i], &vs->clamped[i]);
		return ret;
	}
	ret = measure(b, &vs->ctx, vs->iters, nslots, out);
	for (int i = 0; i < nslots; i++)
		out[i] = sub_clamped(out[i], overhead[i].median, &vs->clamped[i]);
	return ret;
}

/* Milliseconds of the budget left since start; 0 = spent. Without a
 * known TSC rate the budget cannot be measured: a full one is granted. */
static __measured_path u64 budget_left(u64 start,
					const struct harness_config *cfg)
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
static __noinline __measured_path int guarded(const struct harness_job *job,
					      const struct harness_config *cfg,
					      int v, int nslots, u64 *out,
					      u64 left_ms)
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

static __measured_path void check_run(const struct harness_job *job,
				       const struct harness_config *cfg,
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

/*
 * The variant at position pos of counted run r: a cyclic shift by r,
 * reversed on every other pass through the shifts. Every variant takes
 * every position equally often, and with up to three variants all orders
 * occur (six runs cover the 3! orders).
 */
__measured_path int harness_run_order(int nvariants, u32 r, int pos)
{
	u32 shift = r % (u32)nvariants;
	bool reverse = (r / (u32)nvariants) & 1;
	u32 p = reverse ? (u32)(nvariants - 1 - pos) : (u32)pos;

	return (int)((p + shift) % (u32)nvariants);
}

static __measured_path bool budget_spent(const struct harness_job *job,
					  const struct harness_config *cfg,
					  u64 start, int *failed)
{
	if (budget_left(start, cfg))
		return false;
	for (int v = 0; v < job->nvariants; v++)
		if (!vstate[v].failed) {
			emit_error("timeout", job, v, "budget exceeded", cfg);
			vstate[v].failed = true;
			(*failed)++;
		}
	return true;
}

/* Counted run r of variant v: in the warm state, after one unmeasured
 * call of its own. */
static __measured_path void counted_run(const struct harness_job *job,
					 const struct harness_config *cfg,
					 int v, u32 r, bool warm, int nslots,
					 u64 start, int *failed)
{
	u64 out[COUNTERS_MAX];

	if (warm) {
		check_run(job, cfg, v, guarded(job, cfg, v, nslots, NULL,
			  budget_left(start, cfg)), failed);
		if (vstate[v].failed)
			return;
	}
	regions[v][r] = region_seq;
	check_run(job, cfg, v, guarded(job, cfg, v, nslots, out,
		  budget_left(start, cfg)), failed);
	for (int i = 0; i < nslots; i++)
		samples[v][i][r] = out[i];
}

/* Warm-up and counted runs of one group; returns the runs completed.
 * Not inlined: the loop runs between the point's regions, so it must stay
 * in the measured path's section, not move into its caller's. */
static __noinline __measured_path u32 run_group(const struct harness_job *job,
						const struct harness_config *cfg,
						int nslots, bool warm,
						int *failed)
{
	u64 start = counters_tsc();
	u32 r;

	for (u32 w = 0; w < cfg->warmup; w++)
		for (int v = 0; v < job->nvariants; v++)
			if (!vstate[v].failed)
				check_run(job, cfg, v, guarded(job, cfg, v, nslots, NULL,
					  budget_left(start, cfg)), failed);
	for (r = 0; r < cfg->runs; r++) {
		if (budget_spent(job, cfg, start, failed))
			break;
		for (int pos = 0; pos < job->nvariants; pos++) {
			int v = harness_run_order(job->nvariants, r, pos);

			positions[v][r] = (u8)pos;
			if (!vstate[v].failed)
				counted_run(job, cfg, v, r, warm, nslots, start,
					    failed);
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

static void emit_overhead(const struct harness_config *cfg,
			  const char **names, int nslots)
{
	bool diff = cfg->method == METHOD_DIFF;

	rec_obj_begin(&rec, "overhead");
	for (int i = 0; i < nslots; i++)
		rec_u64(&rec, names[i], diff ? 0 : overhead[i].median);
	rec_obj_end(&rec);
	if (diff)
		return;
	rec_obj_begin(&rec, "overhead_spread");
	for (int i = 0; i < nslots; i++) {
		rec_obj_begin(&rec, names[i]);
		rec_u64(&rec, "mad", overhead[i].mad);
		rec_u64(&rec, "min", overhead[i].min);
		rec_u64(&rec, "n", overhead[i].n);
		rec_obj_end(&rec);
	}
	rec_obj_end(&rec);
}

static void emit_clamped(const struct variant_state *vs, const char **names,
			 int nslots)
{
	rec_obj_begin(&rec, "clamped");
	for (int i = 0; i < nslots; i++)
		if (vs->clamped[i])
			rec_u64(&rec, names[i], vs->clamped[i]);
	rec_obj_end(&rec);
}

static void emit_result(const struct harness_job *job, const struct harness_config *cfg,
			int v, int g, const char **names, int nslots, u32 runs,
			bool warm)
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
	rec_str(&rec, "method", harness_method_names[cfg->method]);
	rec_str(&rec, "state", harness_state_names[warm ? STATE_WARM : STATE_COLD]);
	emit_overhead(cfg, names, nslots);
	emit_clamped(vs, names, nslots);
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
	/* Where this variant ran in each counted run (0 = first). */
	rec_arr_begin(&rec, "positions");
	for (u32 r = 0; r < runs; r++)
		rec_arr_u64(&rec, positions[v][r]);
	rec_arr_end(&rec);
	rec_hex(&rec, "digest", vs->ctx.digest);
	rec_emit(&rec);
}

/* One counter group in one state (warm or cold): calibrate, run, emit. */
static void measure_state(const struct harness_job *job,
			  const struct harness_config *cfg, int g,
			  const char **names, int nslots, bool warm,
			  int *failed)
{
	u32 runs;

	for (int v = 0; v < job->nvariants; v++)
		memset(vstate[v].clamped, 0, sizeof(vstate[v].clamped));
	counters_quiet_begin();
	harness_calibrate(nslots);
	/*
	 * Again under the simulator: sorting the calibration's TSC samples
	 * (stats_compute) takes a path that follows their values, so it
	 * reaches the simulated caches differently from boot to boot; a
	 * random replacement policy then draws other victims from there on.
	 * The warm-up starts from empty caches instead (docs/fesim.md,
	 * "Markers").
	 */
	fesim_flush();
	runs = run_group(job, cfg, nslots, warm, failed);
	counters_quiet_end();
	for (int v = 0; v < job->nvariants; v++)
		if (!vstate[v].failed)
			emit_result(job, cfg, v, g, names, nslots, runs, warm);
}

int harness_run(const struct harness_job *job, const struct harness_config *cfg)
{
	const char *names[COUNTERS_MAX];
	char err[160];
	int failed = setup_all(job, cfg);

	/*
	 * Under the front-end simulator, every benchmark point starts from
	 * empty simulated caches (a NOP on hardware): its calibration and
	 * warm-up calls then fill them from its own code alone. Without it a
	 * cache thrashed by the point's code can settle into a different
	 * repeating state depending on what earlier points left in it
	 * (docs/fesim.md, "Markers"), and a point's figures would depend on
	 * the suite's order.
	 */
	fesim_flush();
	for (int g = 0; g < counters_num_groups() && failed < job->nvariants; g++) {
		int nslots = counters_group_names(g, names, COUNTERS_MAX);

		if (counters_start_group(g, err, sizeof(err))) {
			printk("kfront: counter group %d failed: %s\n", g, err);
			continue;
		}
		if (cfg->state != STATE_COLD)
			measure_state(job, cfg, g, names, nslots, true, &failed);
		if (cfg->state != STATE_WARM)
			measure_state(job, cfg, g, names, nslots, false, &failed);
		counters_stop();
	}
	teardown_all(job);
	return failed;
}
