/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A compiler variant of the measured code, as the runtime sees it. Each
 * variant's objects are linked into one relocatable blob whose symbols
 * are all local except its descriptor (tools/build/build_variant.py). */
#ifndef KFRONT_VARIANT_H
#define KFRONT_VARIANT_H

#include <kfront/bench.h>

struct variant_desc {
	const char *name;	/* "O2" */
	const char *cc;		/* compiler and its version */
	const char *flags;	/* the exact optimisation flags */
	const struct bench_desc *const *benches;
	u32 nbenches;
	/* Where this variant's code lies in the image. */
	const void *text_start, *text_end;
	/* Bytes of padding before text_start in its page (the variant
	 * table's shift =; 0 for most). */
	u32 shift;
};

extern const struct variant_desc *const kfront_variants[];
extern const u32 kfront_nvariants;

#endif
