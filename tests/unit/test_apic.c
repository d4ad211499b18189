/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of local-APIC LVT masking: an array stands in for the xAPIC
 * page, the recording backend for x2APIC MSRs and the TSC deadline. */
#include <stdio.h>
#include <string.h>
#include <asm/apic.h>
#include "check.h"
#include "x86_fakes.h"

static u32 page[1024];
static struct cpu_info ci;
static struct rec_msr rec;
static struct msr_ops ops;
static struct apic apic;

#define REG(off)	page[(off) / 4]

static void fake_apic(u64 apic_base)
{
	memset(page, 0, sizeof(page));
	memset(&rec, 0, sizeof(rec));
	rec.rd_msr[0] = MSR_IA32_APIC_BASE;
	rec.rd_val[0] = apic_base;
	rec.nrd = 1;
	ops = rec_ops(&rec);
	cpu_detect(&ci, fake_cpuid, (void *)&cpu_skylake);
	REG(APIC_VERSION) = 0x00060015;		/* max LVT 6 */
	REG(APIC_LVT_TIMER) = 0x000400ec;	/* TSC-deadline, vector 0xec */
	REG(APIC_LVT_THERMAL) = 0x00010000;	/* already masked */
	REG(APIC_LVT_PERF) = 0x00000400;	/* NMI */
	REG(APIC_LVT_LINT0) = 0x00000700;	/* ExtINT (8259) */
	REG(APIC_LVT_LINT1) = 0x00000400;
	REG(APIC_LVT_ERROR) = 0x000000fe;
	REG(APIC_LVT_CMCI) = 0x000000f9;
}

static void test_xapic_mask_restore(void)
{
	struct lvt_save s;

	fake_apic(0xfee00000 | APIC_BASE_EN);
	CHECK_EQ_U64(apic_init(&apic, page, &ci, &ops), 0);
	CHECK(apic.present && !apic.x2apic);
	CHECK_EQ_U64(apic.max_lvt, 6);
	rec.rd_msr[1] = MSR_IA32_TSC_DEADLINE;
	rec.rd_val[1] = 123456789;
	rec.nrd = 2;

	apic_mask_lvts(&apic, &s, 0);
	CHECK(s.valid);
	CHECK_EQ_U64(REG(APIC_LVT_TIMER), 0x000500ec);
	CHECK_EQ_U64(REG(APIC_LVT_THERMAL), 0x00010000);
	CHECK_EQ_U64(REG(APIC_LVT_PERF), 0x00010400);
	CHECK_EQ_U64(REG(APIC_LVT_LINT0), 0x00010700);
	CHECK_EQ_U64(REG(APIC_LVT_LINT1), 0x00010400);
	CHECK_EQ_U64(REG(APIC_LVT_ERROR), 0x000100fe);
	CHECK_EQ_U64(REG(APIC_LVT_CMCI), 0x000100f9);
	CHECK_EQ_U64(rec.nw, 1);			/* deadline disarmed */
	CHECK_EQ_U64(rec.w[0].msr, MSR_IA32_TSC_DEADLINE);
	CHECK_EQ_U64(rec.w[0].val, 0);
	CHECK_EQ_U64(s.tsc_deadline, 123456789);

	apic_restore_lvts(&apic, &s);
	CHECK_EQ_U64(REG(APIC_LVT_TIMER), 0x000400ec);
	CHECK_EQ_U64(REG(APIC_LVT_THERMAL), 0x00010000);	/* stays */
	CHECK_EQ_U64(REG(APIC_LVT_LINT0), 0x00000700);
	CHECK_EQ_U64(REG(APIC_LVT_CMCI), 0x000000f9);
	CHECK_EQ_U64(rec.nw, 2);			/* deadline re-armed */
	CHECK_EQ_U64(rec.w[1].val, 123456789);
}

/* Keeping the timer (a watchdog) leaves its LVT and deadline alone; an
 * older APIC (max LVT 4) has no thermal or CMCI entry to touch. */
static void test_keep_timer_and_small_lvt(void)
{
	struct lvt_save s;

	fake_apic(0xfee00000 | APIC_BASE_EN);
	REG(APIC_VERSION) = 0x00040014;
	apic_init(&apic, page, &ci, &ops);
	apic_mask_lvts(&apic, &s, APIC_KEEP(LVT_TIMER));
	CHECK_EQ_U64(REG(APIC_LVT_TIMER), 0x000400ec);
	CHECK_EQ_U64(REG(APIC_LVT_CMCI), 0x000000f9);
	CHECK_EQ_U64(REG(APIC_LVT_PERF), 0x00010400);
	CHECK_EQ_U64(rec.nw, 0);
	apic_restore_lvts(&apic, &s);
	CHECK_EQ_U64(REG(APIC_LVT_PERF), 0x00000400);
}

static void test_x2apic(void)
{
	struct lvt_save s;

	fake_apic(0xfee00000 | APIC_BASE_EN | APIC_BASE_EXTD);
	rec.rd_msr[1] = MSR_X2APIC_BASE + (APIC_VERSION >> 4);
	rec.rd_val[1] = 0x00050015;
	rec.rd_msr[2] = MSR_X2APIC_BASE + (APIC_LVT_TIMER >> 4);
	rec.rd_val[2] = 0x000200ec;	/* periodic: no deadline to disarm */
	rec.nrd = 3;			/* other LVTs read as #GP -> 0 */
	CHECK_EQ_U64(apic_init(&apic, NULL, &ci, &ops), 0);
	CHECK(apic.x2apic);
	CHECK_EQ_U64(apic.max_lvt, 5);
	apic_mask_lvts(&apic, &s, 0);
	/* timer, thermal, perf, LINT0, LINT1, error; no CMCI (max LVT 5) */
	CHECK_EQ_U64(rec.nw, 6);
	CHECK_EQ_U64(rec.w[0].msr, 0x832);
	CHECK_EQ_U64(rec.w[0].val, 0x000300ec);
	CHECK_EQ_U64(rec.w[5].msr, 0x837);
	CHECK_EQ_U64(rec.w[5].val, APIC_LVT_MASKED);
}

static void test_no_apic(void)
{
	struct lvt_save s;

	fake_apic(0);			/* globally disabled */
	CHECK_EQ_U64(apic_init(&apic, page, &ci, &ops), -ENODEV);
	apic_mask_lvts(&apic, &s, 0);
	apic_restore_lvts(&apic, &s);
	CHECK(!s.valid);
	CHECK_EQ_U64(REG(APIC_LVT_TIMER), 0x000400ec);
	CHECK_EQ_U64(apic_read(&apic, APIC_VERSION), 0);

	fake_apic(0xfee00000 | APIC_BASE_EN);	/* xAPIC, nothing mapped */
	CHECK_EQ_U64(apic_init(&apic, NULL, &ci, &ops), -ENODEV);
	apic_mask_lvts(&apic, &s, 0);
	CHECK_EQ_U64(rec.nw, 0);

	fake_apic(0xfee00000 | APIC_BASE_EN);
	rec.nrd = 0;				/* rdmsr of APIC_BASE #GPs */
	CHECK_EQ_U64(apic_init(&apic, page, &ci, &ops), -ENODEV);
}

int main(void)
{
	test_xapic_mask_restore();
	test_keep_timer_and_small_lvt();
	test_x2apic();
	test_no_apic();
	return check_report("test_apic");
}
