/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host test: every net.* benchmark through setup, a few hundred runs with
 * verification, and teardown; digests must repeat for identical inputs
 * and the footprint knob must not change what is delivered. */
#include <string.h>
#include <kfront/bench.h>
#include "check.h"

extern const struct bench_desc bench_net_tcp_rr;
extern const struct bench_desc bench_net_tcp_stream;
extern const struct bench_desc bench_net_udp_rr;
extern const struct bench_desc bench_net_udp_stream;

static u64 run_bench(const struct bench_desc *d, u32 footprint, u32 runs,
		     u64 iters)
{
	struct bench_ctx ctx;
	u32 i;
	int err;

	memset(&ctx, 0, sizeof(ctx));
	ctx.footprint = footprint;
	err = d->setup(&ctx);
	CHECK(err == 0);
	if (err) {
		fprintf(stderr, "%s setup: %d %s\n", d->name, err, ctx.err);
		return 0;
	}
	for (i = 0; i < runs; i++) {
		err = d->run(&ctx, iters);
		CHECK(err == 0);
		if (err) {
			fprintf(stderr, "%s run %u: %d %s\n", d->name, i, err,
				ctx.err);
			break;
		}
	}
	d->teardown(&ctx);
	CHECK(ctx.priv == NULL);
	return ctx.digest;
}

static void test_bench(const struct bench_desc *d, u32 runs, u64 iters)
{
	u64 a = run_bench(d, 0, runs, iters);
	u64 b = run_bench(d, 0, runs, iters);
	u64 c = run_bench(d, 64, 3, iters);

	CHECK(a != 0);
	CHECK_EQ_U64(a, b);	/* same inputs, same digest */
	CHECK(c != 0);
	printf("%-16s digest %016llx (footprint=64: %016llx)\n", d->name,
	       (unsigned long long)a, (unsigned long long)c);
}

int main(void)
{
	test_bench(&bench_net_tcp_rr, 300, 20);
	test_bench(&bench_net_udp_rr, 300, 20);
	test_bench(&bench_net_tcp_stream, 200, 4);
	test_bench(&bench_net_udp_stream, 200, 40);
	return check_report("test_net_bench");
}
