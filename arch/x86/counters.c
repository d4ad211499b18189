/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arch/x86 side of include/kfront/counters.h: TSC plus the PMU groups.
 *
 * Serialisation (documented in docs/measurement.md): rdtsc and rdpmc are
 * not serialising, so
 *   begin: rdpmc...; lfence; rdtsc; lfence   (the fences keep the
 *          measured code from starting before the reads complete)
 *   end:   lfence; rdtsc; rdpmc...           (the fence waits for the
 *          measured code to complete before reading)
 * lfence is enough on Intel, and on AMD once DE_CFG[1] makes it dispatch
 * serialising: counters_init sets that bit (arch/x86/lfence.c) and the
 * machine record says whether it could. */
#include <asm/apic.h>
#include <asm/cpu.h>
#include <asm/lfence.h>
#include <asm/msr.h>
#include <asm/paging.h>
#include <asm/pmu.h>
#include <asm/tsc.h>
#include <asm/x86.h>
#include <kfront/compiler.h>
#include <kfront/counters.h>
#include <kfront/printk.h>
#include <kfront/string.h>

static struct cpu_info cpu;
static struct pmu pmu;
/* Shared with watchdog.c (the timer). */
struct apic x86_lapic;
static struct lvt_save lvt_saved;
static struct lfence_state lfence_cfg;
static u32 active_ecx[PMU_MAX_SLOTS];
static int active_n;
static int active_group = -1;

void counters_init(void)
{
	u64 base;
	volatile u32 *mmio = NULL;

	cpu_detect_boot(&cpu);
	rep_string_init(&cpu);
	lfence_make_serialising(&cpu, &msr_native_ops, &lfence_cfg);
	printk("kfront: lfence %s: %s\n", lfence_cfg.serialising ?
	       "serialising" : "NOT serialising", lfence_cfg.how);
	tsc_init(&cpu);
	pmu_init(&pmu, &cpu, &msr_native_ops);
	if (cpu_has(&cpu, X86_FEATURE_APIC) &&
	    !msr_native_ops.rdmsr(msr_native_ops.ctx, MSR_IA32_APIC_BASE, &base) &&
	    !(base & APIC_BASE_EXTD))
		mmio = ioremap(base & ~0xfffULL, 4096);
	apic_init(&x86_lapic, mmio, &cpu, &msr_native_ops);
}

int counters_num_groups(void)
{
	int n = pmu_num_groups(&pmu);

	return n > 0 ? n : 1;
}

int counters_group_names(int g, const char *names[], int max)
{
	if (max < 1)
		return 0;
	names[0] = "tsc";
	if (!pmu.available)
		return 1;
	return 1 + pmu_group_counters(&pmu, g, names + 1, max - 1);
}

int counters_start_group(int g, char *err, size_t errlen)
{
	int ret;

	active_group = g;
	active_n = 0;
	if (!pmu.available)
		return 0;
	ret = pmu_start_group(&pmu, g);
	if (ret) {
		snprintf(err, errlen, "%s", pmu.error);
		return ret;
	}
	active_n = pmu_group_rdpmc(&pmu, g, active_ecx, PMU_MAX_SLOTS);
	return 0;
}

void counters_stop(void)
{
	pmu_stop(&pmu);
	active_n = 0;
}

static inline u64 read_pmc(u32 ecx)
{
	u32 lo, hi;

	/* The group was probed by pmu_init: rdpmc works on this machine. */
	__asm__ __volatile__("rdpmc" : "=a"(lo), "=d"(hi) : "c"(ecx));
	return ((u64)hi << 32) | lo;
}

__noinline __measured_path void counters_read_begin(u64 *vals)
{
	for (int i = 0; i < active_n; i++)
		vals[1 + i] = read_pmc(active_ecx[i]);
	lfence();
	vals[0] = rdtsc();
	lfence();
}

__noinline __measured_path void counters_read_end(u64 *vals)
{
	lfence();
	vals[0] = rdtsc();
	for (int i = 0; i < active_n; i++)
		vals[1 + i] = read_pmc(active_ecx[i]);
}

__measured_path u64 counters_delta(int i, u64 begin, u64 end)
{
	if (i == 0)
		return end - begin;
	return pmu_delta(&pmu, active_group, i - 1, begin, end);
}

__measured_path u64 counters_tsc_hz(void)
{
	return cpu.tsc_hz;
}

__measured_path u64 counters_tsc(void)
{
	return rdtsc();
}

void counters_quiet_begin(void)
{
	/* The timer stays: it is the watchdog (arch/x86/watchdog.c). */
	apic_mask_lvts(&x86_lapic, &lvt_saved, APIC_KEEP(LVT_TIMER));
}

void counters_quiet_end(void)
{
	apic_restore_lvts(&x86_lapic, &lvt_saved);
}

/* No libgcc in the kernel: __builtin_popcount would need it. */
static u32 bit_count(u32 v)
{
	u32 n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* One counter's hardware event: its vendor name and what is programmed. */
static void describe_slot(struct record *r, const struct pmu_group *g,
			  const struct pmu_slot *s)
{
	char enc[64];

	if (s->fixed)
		snprintf(enc, sizeof(enc), "fixed counter %u", s->index);
	else if (g->frontend && s->hw_name &&
		 !strncmp(s->hw_name, "FRONTEND_RETIRED.", 17))
		snprintf(enc, sizeof(enc), "evtsel 0x%llx, MSR_PEBS_FRONTEND "
			 "0x%x", (unsigned long long)s->evtsel, g->frontend);
	else
		snprintf(enc, sizeof(enc), "evtsel 0x%llx",
			 (unsigned long long)s->evtsel);
	rec_obj_begin(r, pmu_counter_name(s->id));
	rec_str(r, "event", s->hw_name ? s->hw_name : "");
	rec_str(r, "encoding", enc);
	rec_obj_end(r);
}

/* machine.pmu.encodings: each counter's event, once (the first group that
 * has it: every group programs a counter the same way). */
static void describe_encodings(struct record *r)
{
	u32 seen = 0;

	rec_obj_begin(r, "encodings");
	for (int g = 0; pmu.available && g < pmu.nr_groups; g++) {
		const struct pmu_group *grp = &pmu.groups[g];

		for (int i = 0; i < grp->nr; i++) {
			if (seen & (1U << grp->slot[i].id))
				continue;
			seen |= 1U << grp->slot[i].id;
			describe_slot(r, grp, &grp->slot[i]);
		}
	}
	rec_obj_end(r);
}

static void describe_pmu(struct record *r)
{
	const char *names[COUNTERS_MAX];

	rec_obj_begin(r, "pmu");
	rec_bool(r, "available", pmu.available);
	rec_str(r, "reason", pmu.available ? "" : pmu.reason);
	rec_u64(r, "version", cpu.pmu.version);
	rec_u64(r, "gp", pmu.num_gp);
	rec_u64(r, "gp_width", pmu.gp_width);
	rec_u64(r, "fixed", bit_count(pmu.fixed_mask));
	rec_str(r, "events", pmu.table ? pmu.table->source : "architectural only");
	rec_arr_begin(r, "groups");
	for (int g = 0; g < pmu_num_groups(&pmu); g++) {
		int n = pmu_group_counters(&pmu, g, names, COUNTERS_MAX);

		rec_arr_begin(r, NULL);
		for (int i = 0; i < n; i++)
			rec_arr_str(r, names[i]);
		rec_arr_end(r);
	}
	rec_arr_end(r);
	describe_encodings(r);
	rec_obj_end(r);
}

static void describe_unavailable(struct record *r)
{
	rec_obj_begin(r, "unavailable");
	if (!pmu.available) {
		for (int id = 0; id < PMU_NR_COUNTERS; id++)
			rec_str(r, pmu_counter_name(id), pmu.reason);
	} else {
		for (int i = 0; i < pmu.nr_missing; i++)
			rec_str(r, pmu_counter_name(pmu.missing[i].id),
				pmu.missing[i].why);
	}
	rec_obj_end(r);
}

void counters_describe(struct record *r)
{
	rec_obj_begin(r, "machine");
	cpu_record_identity(r, &cpu);
	rec_bool(r, "apic", x86_lapic.present);
	rec_obj_begin(r, "lfence");
	rec_bool(r, "serialising", lfence_cfg.serialising);
	rec_str(r, "how", lfence_cfg.how);
	rec_obj_end(r);
	describe_pmu(r);
	rec_arr_begin(r, "counters");
	rec_arr_str(r, "tsc");
	for (int id = 0; pmu.available && id < PMU_NR_COUNTERS; id++) {
		bool missing = false;

		for (int i = 0; i < pmu.nr_missing; i++)
			missing |= pmu.missing[i].id == id;
		if (!missing)
			rec_arr_str(r, pmu_counter_name(id));
	}
	rec_arr_end(r);
	describe_unavailable(r);
	rec_obj_end(r);
}
