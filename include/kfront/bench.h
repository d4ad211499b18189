/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The interface between the harness (built once, never measured) and the
 * benchmark drivers (measured code, built once per compiler variant).
 *
 * The harness calls setup() once, then run() repeatedly between region
 * begin/end marks, then teardown(). run() is a real call across the
 * variant boundary, so no harness code is ever inlined into measured code.
 */
#ifndef KFRONT_BENCH_H
#define KFRONT_BENCH_H

#include <kfront/types.h>

struct wire_ops;

struct bench_ctx {
	void *priv;		/* the benchmark's own state */
	u64 digest;		/* verification digest, folded by run() */
	u32 footprint;		/* packet-filter rules (footprint=K), 0 = none */
	u32 param;		/* benchmark-specific size knob, 0 = default */
	/* The real NIC and host peer (<kfront/wire.h>), NULL when none. */
	const struct wire_ops *wire;
	char err[120];		/* first verification failure, NUL-terminated */
};

struct bench_desc {
	const char *name;	/* "net.tcp_rr": group.name, matched by bench= */
	const char *op;		/* what one operation is: "transaction" */
	u32 flags;		/* BENCH_F_* */
	u32 default_iters;	/* operations per run for a full suite */
	u32 quick_iters;	/* operations per run for --quick */
	/* Allocate state, connect sockets, start threads. 0 or -errno. */
	int (*setup)(struct bench_ctx *ctx);
	/* Run iters operations and verify them; 0, or -errno with ctx->err
	 * filled on a verification failure. */
	int (*run)(struct bench_ctx *ctx, u64 iters);
	void (*teardown)(struct bench_ctx *ctx);
};

/* The benchmark honours ctx->footprint: the suite sweeps footprint=. */
#define BENCH_F_FOOTPRINT	(1u << 0)
/* The largest footprint: the filter rules the measured network stack is
 * built with (kernel/net/meson.build; its generated table asserts the
 * same number), so the suite refuses a larger one before any run. */
#define BENCH_FOOTPRINT_MAX	1024
/* Runs only when named exactly in bench= (never through a glob): for
 * benchmarks that exist to test the harness itself. */
#define BENCH_F_EXPLICIT	(1u << 1)

/* Runs over a real NIC against a host peer (ctx->wire): selected by a
 * glob only when the boot has a wire (peer=); its times include the
 * emulator or the real network, and its records say so. */
#define BENCH_F_WIRE		(1u << 2)

/* Fold a value into a verification digest (FNV-1a over 64-bit words). */
static inline u64 bench_digest_fold(u64 digest, u64 v)
{
	int i;

	if (!digest)
		digest = 0xcbf29ce484222325ULL;
	for (i = 0; i < 8; i++) {
		digest ^= (v >> (i * 8)) & 0xff;
		digest *= 0x100000001b3ULL;
	}
	return digest;
}

#endif
