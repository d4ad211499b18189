/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The assembly memcpy and memset of a -DKFRONT_ASM_STRING variant
 * (arch/x86/string_asm.c), on both of their bodies: the rep movsb/stosb
 * one (FSRM, FSRS) and the loop of moves with its overlapping tail. Every
 * length from 0 to 300 and a few long ones, at every source and
 * destination offset within a quadword: the bytes copied or set, the
 * bytes around left alone, and the destination returned. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* The file under test, its functions renamed so they do not replace the
 * C library's memcpy and memset in this program. */
#define KFRONT_ASM_STRING 1
#define memcpy asm_memcpy
#define memset asm_memset
#include "../../arch/x86/string_asm.c"
#undef memcpy
#undef memset

#include <asm/cpu.h>
#include <kfront/string_helpers.h>

#define GUARD	64
#define MAXLEN	4200

static uint8_t src_buf[MAXLEN + 2 * GUARD];
static uint8_t dst_buf[MAXLEN + 2 * GUARD];
static uint8_t want[MAXLEN + 2 * GUARD];

static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 8));
}

static int copy_ok(size_t len, size_t soff, size_t doff)
{
	fill(src_buf, sizeof(src_buf), 1);
	fill(dst_buf, sizeof(dst_buf), 2);
	memcpy(want, dst_buf, sizeof(want));
	memcpy(want + GUARD + doff, src_buf + GUARD + soff, len);
	void *ret = asm_memcpy(dst_buf + GUARD + doff, src_buf + GUARD + soff, len);
	return ret == dst_buf + GUARD + doff && !memcmp(dst_buf, want, sizeof(want));
}

static int set_ok(size_t len, size_t doff, int c)
{
	fill(dst_buf, sizeof(dst_buf), 3);
	memcpy(want, dst_buf, sizeof(want));
	memset(want + GUARD + doff, c, len);
	void *ret = asm_memset(dst_buf + GUARD + doff, c, len);
	return ret == dst_buf + GUARD + doff && !memcmp(dst_buf, want, sizeof(want));
}

static void run_all(void)
{
	static const size_t longer[] = { 511, 512, 1460, 1461, 4095, 4096, MAXLEN - 7 };
	static const int values[] = { 0, 0x5a, 0xff, 0x180, -1 };
	int bad_copy = 0, bad_set = 0;

	for (size_t len = 0; len <= 300 + sizeof(longer) / sizeof(longer[0]); len++) {
		size_t n = len <= 300 ? len : longer[len - 301];

		for (size_t soff = 0; soff < 8; soff++)
			for (size_t doff = 0; doff < 8; doff++)
				bad_copy += !copy_ok(n, soff, doff);
		for (size_t doff = 0; doff < 8; doff++)
			for (size_t v = 0; v < sizeof(values) / sizeof(values[0]); v++)
				bad_set += !set_ok(n, doff, values[v]);
	}
	CHECK_EQ_U64(bad_copy, 0);
	CHECK_EQ_U64(bad_set, 0);
}

static void init_expect(struct cpu_info *ci, u64 features, u8 movsb, u8 stosb)
{
	ci->features = features;
	rep_string_init(ci);
	CHECK_EQ_U64(x86_fast_rep_movsb, movsb);
	CHECK_EQ_U64(x86_fast_rep_stosb, stosb);
}

int main(void)
{
	struct cpu_info ci = { 0 };

	/* rep_string_init(): memcpy follows FSRM, memset FSRS, ERMS neither */
	init_expect(&ci, 0, 0, 0);
	init_expect(&ci, 1ULL << X86_FEATURE_FSRM, 1, 0);
	init_expect(&ci, 1ULL << X86_FEATURE_FSRS, 0, 1);
	init_expect(&ci, 1ULL << X86_FEATURE_ERMS, 0, 0);

	/* rep_string= forces a body whatever CPUID says, in either order */
	ci.features = 1ULL << X86_FEATURE_FSRM;
	rep_string_select(REP_STRING_LOOP);
	rep_string_init(&ci);
	CHECK_EQ_U64(x86_fast_rep_movsb, 0);
	rep_string_select(REP_STRING_REP);
	CHECK_EQ_U64(x86_fast_rep_movsb, 1);
	CHECK_EQ_U64(x86_fast_rep_stosb, 1);
	CHECK_EQ_U64(rep_string_selected(), REP_STRING_REP);
	rep_string_select(REP_STRING_CPUID);
	CHECK_EQ_U64(x86_fast_rep_movsb, 1);
	CHECK_EQ_U64(x86_fast_rep_stosb, 0);
	rep_string_select(REP_STRING_COUNT);	/* out of range: CPUID's */
	CHECK_EQ_U64(rep_string_selected(), REP_STRING_CPUID);

	for (int fast = 0; fast <= 1; fast++) {
		x86_fast_rep_movsb = (u8)fast;
		x86_fast_rep_stosb = (u8)fast;
		run_all();
	}
	return check_report("string_asm");
}
