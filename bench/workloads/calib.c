/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Calibration benchmarks: tiny loops that exercise the harness and show
 * the compiler's choices in isolation. calib.memcpy20 is Linus's 2011
 * example: a 20-byte constant copy, which -Os turns into rep movsl. */
#include <kfront/bench.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/printk.h>
#include <kfront/string.h>

/* calib.empty: the loop alone. */
static int empty_run(struct bench_ctx *ctx, u64 iters)
{
	for (u64 i = 0; i < iters; i++)
		barrier();
	ctx->digest = bench_digest_fold(ctx->digest, iters);
	return 0;
}

const struct bench_desc bench_calib_empty = {
	.name = "calib.empty", .op = "iteration",
	.default_iters = 100000, .quick_iters = 10000,
	.run = empty_run,
};

/* calib.memcpy20: a 20-byte header copied the way kernel code copies
 * small structs, through memcpy with a constant size. */
struct hdr20 {
	u32 w[5];
};

#define MEMCPY_SLOTS 16

struct memcpy_state {
	struct hdr20 src[MEMCPY_SLOTS];
	struct hdr20 dst[MEMCPY_SLOTS];
};

static struct memcpy_state memcpy_state;

static int memcpy_setup(struct bench_ctx *ctx)
{
	for (int i = 0; i < MEMCPY_SLOTS; i++)
		for (int j = 0; j < 5; j++)
			memcpy_state.src[i].w[j] = (u32)(i * 5 + j + 1);
	ctx->priv = &memcpy_state;
	return 0;
}

static __noinline void copy_hdr(struct hdr20 *dst, const struct hdr20 *src)
{
	memcpy(dst, src, sizeof(*dst));
}

static int memcpy_run(struct bench_ctx *ctx, u64 iters)
{
	struct memcpy_state *s = ctx->priv;
	u64 sum = 0;

	for (u64 i = 0; i < iters; i++) {
		unsigned k = i % MEMCPY_SLOTS;

		copy_hdr(&s->dst[k], &s->src[(k + 1) % MEMCPY_SLOTS]);
	}
	for (int i = 0; i < MEMCPY_SLOTS; i++) {
		if (unlikely(memcmp(&s->dst[i], &s->src[(i + 1) % MEMCPY_SLOTS],
				    sizeof(struct hdr20)) && iters >= MEMCPY_SLOTS)) {
			snprintf(ctx->err, sizeof(ctx->err),
				 "slot %d differs after copy", i);
			return -EPROTO;
		}
		sum += s->dst[i].w[0] + s->dst[i].w[4];
	}
	ctx->digest = bench_digest_fold(ctx->digest, sum);
	return 0;
}

const struct bench_desc bench_calib_memcpy20 = {
	.name = "calib.memcpy20", .op = "copy",
	.default_iters = 100000, .quick_iters = 10000,
	.setup = memcpy_setup, .run = memcpy_run,
};

/* calib.unlikely: the shape of every kernel input check: a fast path,
 * and an error path marked unlikely() that calls out to report. -O2
 * tests first and returns early, with the error path out of line; -Os
 * sets up the frame first and lays the error path in the way. */
static __noinline void report_bad_hdr(struct bench_ctx *ctx, const struct hdr20 *h)
{
	snprintf(ctx->err, sizeof(ctx->err), "bad header %08x %08x",
		 h->w[0], h->w[1]);
}

static __noinline int check_hdr(struct bench_ctx *ctx, const struct hdr20 *h)
{
	if (unlikely(h->w[0] == 0xdeadbeef || h->w[4] > 0x10000)) {
		report_bad_hdr(ctx, h);
		report_bad_hdr(ctx, h + 1);
		return -EPROTO;
	}
	return (int)(h->w[1] & 1);
}

static int unlikely_run(struct bench_ctx *ctx, u64 iters)
{
	const struct hdr20 *src = memcpy_state.src;
	u64 odd = 0;

	for (u64 i = 0; i < iters; i++) {
		int ret = check_hdr(ctx, &src[i % MEMCPY_SLOTS]);

		if (unlikely(ret < 0))
			return ret;
		odd += (u64)ret;
	}
	ctx->digest = bench_digest_fold(ctx->digest, odd);
	return 0;
}

const struct bench_desc bench_calib_unlikely = {
	.name = "calib.unlikely", .op = "check",
	.default_iters = 100000, .quick_iters = 10000,
	.setup = memcpy_setup, .run = unlikely_run,
};

/* calib.calls: a chain of small non-inlined calls through a table of
 * function pointers, the shape of protocol dispatch. */
typedef u64 (*step_fn)(u64);

static __noinline u64 step_add(u64 x) { return x + 0x9e3779b9; }
static __noinline u64 step_xor(u64 x) { return x ^ (x >> 13); }
static __noinline u64 step_mul(u64 x) { return x * 0x100000001b3ULL; }
static __noinline u64 step_rot(u64 x) { return (x << 7) | (x >> 57); }

static const step_fn steps[4] = { step_add, step_xor, step_mul, step_rot };

static int calls_run(struct bench_ctx *ctx, u64 iters)
{
	u64 x = 1;

	for (u64 i = 0; i < iters; i++)
		x = steps[i & 3](x);
	ctx->digest = bench_digest_fold(ctx->digest, x);
	return 0;
}

const struct bench_desc bench_calib_calls = {
	.name = "calib.calls", .op = "call",
	.default_iters = 100000, .quick_iters = 10000,
	.run = calls_run,
};

/* calib.hang: never returns. It exists so the tests can prove that the
 * watchdog ends an overrunning benchmark and the suite carries on; it
 * runs only when named exactly (bench=calib.hang). */
static int hang_run(struct bench_ctx *ctx, u64 iters)
{
	for (;;)
		barrier();
	return 0;
}

const struct bench_desc bench_calib_hang = {
	.name = "calib.hang", .op = "nothing", .flags = BENCH_F_EXPLICIT,
	.default_iters = 1, .quick_iters = 1,
	.run = hang_run,
};
