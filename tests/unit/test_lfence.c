/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of making LFENCE dispatch-serialising (arch/x86/lfence.c):
 * the exact DE_CFG accesses for success, an already-set bit, #GP on read
 * and on write, and a bit that does not stick; Intel and the AMD families
 * without the bit are left alone. */
#include <string.h>
#include <asm/lfence.h>
#include "check.h"
#include "x86_fakes.h"

static struct rec_msr rec;
static bool reads_see_writes;	/* a real register; else writes vanish */

static int de_cfg_rdmsr(void *ctx, u32 msr, u64 *v)
{
	struct rec_msr *r = ctx;

	for (int i = r->nw - 1; reads_see_writes && i >= 0; i--) {
		if (r->w[i].msr == msr) {
			*v = r->w[i].val;
			return 0;
		}
	}
	return rec_rdmsr(ctx, msr, v);
}

static struct msr_ops setup(const struct fake_cpu *fc, struct cpu_info *ci,
			    bool readable, u64 de_cfg)
{
	struct msr_ops ops;

	memset(&rec, 0, sizeof(rec));
	if (readable) {
		rec.rd_msr[0] = MSR_AMD64_DE_CFG;
		rec.rd_val[0] = de_cfg;
		rec.nrd = 1;
	}
	reads_see_writes = true;
	cpu_detect(ci, fake_cpuid, (void *)fc);
	ops = rec_ops(&rec);
	ops.rdmsr = de_cfg_rdmsr;
	return ops;
}

static void test_amd_sets_the_bit(void)
{
	struct cpu_info ci;
	struct lfence_state st;
	struct msr_ops ops = setup(&cpu_zen4, &ci, true, 0x1000);
	const struct msr_write want[] = { { MSR_AMD64_DE_CFG, 0x1002 } };

	lfence_make_serialising(&ci, &ops, &st);
	CHECK_WRITES(&rec, want);
	CHECK(st.serialising);
	CHECK_STR(st.how, "DE_CFG[1] set by kfront");
}

static void test_amd_bit_already_set(void)
{
	struct cpu_info ci;
	struct lfence_state st;
	struct msr_ops ops = setup(&cpu_zen2, &ci, true, 0x2);

	lfence_make_serialising(&ci, &ops, &st);
	CHECK_EQ_U64(rec.nw, 0);	/* nothing written */
	CHECK(st.serialising);
	CHECK_STR(st.how, "DE_CFG[1] already set");
}

static void test_amd_read_faults(void)
{
	struct cpu_info ci;
	struct lfence_state st;
	struct msr_ops ops = setup(&cpu_zen3, &ci, false, 0);

	lfence_make_serialising(&ci, &ops, &st);
	CHECK_EQ_U64(rec.nw, 0);
	CHECK(!st.serialising);
	CHECK_STR(st.how, "DE_CFG unreadable (#GP): timing fences are weak");
}

static void test_amd_write_faults(void)
{
	struct cpu_info ci;
	struct lfence_state st;
	struct msr_ops ops = setup(&cpu_zen3, &ci, true, 0);

	rec.gp_on_write = MSR_AMD64_DE_CFG;
	lfence_make_serialising(&ci, &ops, &st);
	CHECK_EQ_U64(rec.nw, 0);
	CHECK(!st.serialising);
	CHECK_STR(st.how, "DE_CFG[1] not settable (#GP): timing fences are "
		  "weak");
}

static void test_amd_bit_does_not_stick(void)
{
	struct cpu_info ci;
	struct lfence_state st;
	struct msr_ops ops = setup(&cpu_zen3, &ci, true, 0x10);
	const struct msr_write want[] = { { MSR_AMD64_DE_CFG, 0x12 } };

	reads_see_writes = false;	/* a hypervisor that ignores it */
	lfence_make_serialising(&ci, &ops, &st);
	CHECK_WRITES(&rec, want);
	CHECK(!st.serialising);
	CHECK_STR(st.how, "DE_CFG[1] did not stick (read back 0x10): timing "
		  "fences are weak");
}

static void test_intel_and_old_amd_untouched(void)
{
	struct cpu_info ci;
	struct lfence_state st;
	struct msr_ops ops = setup(&cpu_skylake, &ci, false, 0);

	lfence_make_serialising(&ci, &ops, &st);
	CHECK(st.serialising);
	CHECK_STR(st.how, "Intel: dispatch-serialising by definition");
	/* QEMU's qemu64 model is AMD family 0Fh: serialising, no MSR. */
	ops = setup(&cpu_qemu64_tcg, &ci, false, 0);
	lfence_make_serialising(&ci, &ops, &st);
	CHECK_EQ_U64(rec.nw, 0);
	CHECK(st.serialising);
	CHECK_STR(st.how, "AMD family 0fh: always dispatch-serialising");
}

int main(void)
{
	test_amd_sets_the_bit();
	test_amd_bit_already_set();
	test_amd_read_faults();
	test_amd_write_faults();
	test_amd_bit_does_not_stick();
	test_intel_and_old_amd_untouched();
	return check_report("test_lfence");
}
