/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test of the harness's run order (bench/harness/harness.c) with fake
 * counters that record every benchmark call and whether it was inside a
 * measured region: in the warm state an unmeasured call of the same
 * variant precedes every counted run, the rotation puts every variant in
 * every position and (three variants) covers all six orders, and the cold
 * state has no such call. Also: the "state" parameter's choices are in the
 * order of enum harness_state. */
#include <stdio.h>
#include <string.h>
#include <kfront/bench.h>
#include <kfront/counters.h>
#include <kfront/harness.h>
#include <kfront/params.h>
#include <kfront/variant.h>
#include <kfront/watchdog.h>
#include "check.h"

#define NV	3
#define MAXLOG	512

struct call {
	int v;
	bool measured;
	u64 iters;
};

static struct call calls[MAXLOG];
static int ncalls;
static bool in_region;
static u64 fake_tsc;
static char out[1 << 16];
static size_t outlen;

/* --- the services the harness uses, faked --------------------------- */

int counters_num_groups(void) { return 1; }
int counters_group_names(int g, const char *names[], int max)
{
	(void)g;
	names[0] = "tsc";
	return max > 0;
}
int counters_start_group(int g, char *err, size_t errlen)
{
	(void)g; (void)err; (void)errlen;
	return 0;
}
void counters_stop(void) {}
void counters_quiet_begin(void) {}
void counters_quiet_end(void) {}
u64 counters_tsc_hz(void) { return 0; }	/* budget never runs out */
u64 counters_tsc(void) { return fake_tsc; }
void counters_read_begin(u64 *vals) { in_region = true; vals[0] = fake_tsc; }
void counters_read_end(u64 *vals) { in_region = false; vals[0] = ++fake_tsc; }
u64 counters_delta(int i, u64 begin, u64 end) { (void)i; return end - begin; }
int arch_setjmp(struct arch_jmp_buf *buf) { (void)buf; return 0; }
void watchdog_arm(struct arch_jmp_buf *buf, u64 ms) { (void)buf; (void)ms; }
void watchdog_disarm(void) {}
int printk(const char *fmt, ...) { (void)fmt; return 0; }
void console_write(const char *s, size_t n)
{
	if (outlen + n < sizeof(out)) {
		memcpy(out + outlen, s, n);
		outlen += n;
	}
}

/* --- three variants of one benchmark that log their calls ------------ */

static void log_call(int v, u64 iters)
{
	fake_tsc += 10;
	if (ncalls < MAXLOG)
		calls[ncalls++] = (struct call){ v, in_region, iters };
}

static int run0(struct bench_ctx *c, u64 n) { (void)c; log_call(0, n); return 0; }
static int run1(struct bench_ctx *c, u64 n) { (void)c; log_call(1, n); return 0; }
static int run2(struct bench_ctx *c, u64 n) { (void)c; log_call(2, n); return 0; }

static const struct bench_desc benches[NV] = {
	{ .name = "t.b", .op = "op", .default_iters = 5, .run = run0 },
	{ .name = "t.b", .op = "op", .default_iters = 5, .run = run1 },
	{ .name = "t.b", .op = "op", .default_iters = 5, .run = run2 },
};
static const struct variant_desc variants[NV] = {
	{ .name = "A" }, { .name = "B" }, { .name = "C" },
};

static void run_harness(enum harness_state state, u32 runs)
{
	struct harness_job job = { .nvariants = NV };
	struct harness_config cfg = { .runs = runs, .warmup = 1,
				      .state = state, .budget_ms = 1000 };

	for (int v = 0; v < NV; v++) {
		job.bench[v] = &benches[v];
		job.variant[v] = &variants[v];
	}
	ncalls = 0;
	outlen = 0;
	CHECK_EQ_U64(harness_run(&job, &cfg), 0);
}

static void test_warm_call_precedes_every_counted_run(void)
{
	u32 runs = 6;
	int i = NV;	/* after the one warm-up pass of every variant */
	bool seen[NV][NV][NV] = { { { false } } };

	run_harness(STATE_WARM, runs);
	for (int k = 0; k < NV; k++)
		CHECK(!calls[k].measured);
	CHECK_EQ_U64(ncalls, NV + runs * NV * 2);
	for (u32 r = 0; r < runs; r++) {
		int order[NV];

		for (int pos = 0; pos < NV; pos++, i += 2) {
			int v = harness_run_order(NV, r, pos);

			order[pos] = v;
			CHECK_EQ_U64(calls[i].v, v);		/* its own call */
			CHECK(!calls[i].measured);
			CHECK_EQ_U64(calls[i].iters, 5);	/* same iterations */
			CHECK_EQ_U64(calls[i + 1].v, v);	/* then counted */
			CHECK(calls[i + 1].measured);
		}
		seen[order[0]][order[1]][order[2]] = true;
	}
	/* Six runs of three variants: every one of the 3! orders. */
	for (int a = 0; a < NV; a++)
		for (int b = 0; b < NV; b++)
			for (int c = 0; c < NV; c++)
				if (a != b && b != c && a != c)
					CHECK(seen[a][b][c]);
	CHECK(strstr(out, "\"state\":\"warm\"") != NULL);
	CHECK(strstr(out, "\"positions\":[0,2,1,2,0,1]") != NULL);
}

static void test_every_position_for_more_variants(void)
{
	for (int nv = 2; nv <= HARNESS_MAX_VARIANTS; nv++) {
		int count[HARNESS_MAX_VARIANTS][HARNESS_MAX_VARIANTS] = { { 0 } };

		for (u32 r = 0; r < (u32)(2 * nv); r++) {
			int used = 0;

			for (int pos = 0; pos < nv; pos++) {
				int v = harness_run_order(nv, r, pos);

				used |= 1 << v;
				count[v][pos]++;
			}
			CHECK_EQ_U64(used, (1u << nv) - 1);	/* a permutation */
		}
		for (int v = 0; v < nv; v++)
			for (int pos = 0; pos < nv; pos++)
				CHECK_EQ_U64(count[v][pos], 2);
	}
}

static void test_cold_has_no_preceding_call(void)
{
	run_harness(STATE_COLD, 3);
	CHECK_EQ_U64(ncalls, NV + 3 * NV);
	for (int i = NV; i < ncalls; i++)
		CHECK(calls[i].measured);
	CHECK(strstr(out, "\"state\":\"cold\"") != NULL);
}

static void test_both_runs_warm_then_cold(void)
{
	run_harness(STATE_BOTH, 2);
	/* warm: warm-up + 2 x (call + run); cold: warm-up + 2 x run */
	CHECK_EQ_U64(ncalls, (NV + 2 * NV * 2) + (NV + 2 * NV));
	CHECK(strstr(out, "\"state\":\"warm\"") != NULL);
	CHECK(strstr(out, "\"state\":\"cold\"") != NULL);
}

static void test_state_choices_match_the_enum(void)
{
	const struct param_spec *p = NULL;

	for (size_t i = 0; i < kfront_nparams; i++)
		if (!strcmp(kfront_params[i].key, "state"))
			p = &kfront_params[i];
	CHECK(p != NULL);
	if (p)
		CHECK(p->choices == harness_state_names);
	CHECK_STR(harness_state_names[STATE_WARM], "warm");
	CHECK_STR(harness_state_names[STATE_COLD], "cold");
	CHECK_STR(harness_state_names[STATE_BOTH], "both");
}

int main(void)
{
	test_warm_call_precedes_every_counted_run();
	test_every_position_for_more_variants();
	test_cold_has_no_preceding_call();
	test_both_runs_warm_then_cold();
	test_state_choices_match_the_enum();
	return check_report("test_harness_order");
}
