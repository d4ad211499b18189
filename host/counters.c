/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measurement clock and counters in user space (kfront/counters.h):
 * slot 0 is the TSC read with rdtsc between lfences, as in the kernel;
 * further slots are hardware events through perf_event_open when the
 * machine exposes a PMU (perf.c). CPU identity comes from the kernel's
 * own CPUID decoding (arch/x86/cpu_detect.c) fed by the instruction. */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include <asm/cpu.h>
#include <asm/x86.h>
#include <kfront/compiler.h>
#include <kfront/counters.h>
#include <kfront/harness.h>
#include "host.h"

#define TSC_CALIB_NS	100000000ULL	/* 0.1 s against CLOCK_MONOTONIC_RAW */

static struct cpu_info cpu;
static int nperf;

static void native_cpuid(void *ctx, u32 leaf, u32 sub, u32 out[4])
{
	cpuid_count(leaf, sub, &out[0], &out[1], &out[2], &out[3]);
}

static u64 mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

/* TSC ticks per second against the kernel's raw monotonic clock. */
static u64 calibrate_tsc(void)
{
	u64 t0 = mono_ns(), c0 = rdtsc(), t1, c1;

	do {
		t1 = mono_ns();
	} while (t1 - t0 < TSC_CALIB_NS);
	c1 = rdtsc();
	return (u64)((double)(c1 - c0) * 1e9 / (double)(t1 - t0));
}

void counters_init(void)
{
	cpu_detect(&cpu, native_cpuid, NULL);
	rep_string_init(&cpu);
	if (!cpu.tsc_hz) {
		cpu.tsc_hz = calibrate_tsc();
		cpu.tsc_source = "clock_gettime";
	}
	/* Under valgrind the hardware counts would be valgrind's own. */
	nperf = perf_init(&cpu, vg_active());
}

/* With a PMU, one group per perf group; without, the TSC alone. */
int counters_num_groups(void)
{
	return nperf ? perf_num_groups() : 1;
}

int counters_group_names(int g, const char *names[], int max)
{
	if (max <= 0)
		return 0;
	names[0] = "tsc";
	return 1 + (nperf ? perf_group_names(g, names + 1, max - 1) : 0);
}

int counters_start_group(int g, char *err, size_t errlen)
{
	return nperf ? perf_enable(g, err, errlen) : 0;
}

void counters_stop(void)
{
	if (nperf)
		perf_disable();
}

/* The harness has just numbered this region (harness_region_count()). */
__noinline __measured_path void counters_read_begin(u64 *vals)
{
	if (nperf)
		perf_read(vals + 1);
	if (unlikely(vg_active()))
		vg_region_begin(harness_region_count() - 1);
	lfence();
	vals[0] = rdtsc();
	lfence();
}

__noinline __measured_path void counters_read_end(u64 *vals)
{
	lfence();
	vals[0] = rdtsc();
	if (unlikely(vg_active()))
		vg_region_end();
	if (nperf)
		perf_read(vals + 1);
}

__measured_path u64 counters_delta(int i, u64 begin, u64 end)
{
	return end - begin;
}

__measured_path u64 counters_tsc_hz(void)
{
	return cpu.tsc_hz;
}

__measured_path u64 counters_tsc(void)
{
	return rdtsc();
}

/* User space cannot mask interrupts: other tasks and interrupts on the
 * pinned CPU remain, and the statistics (medians) carry that noise. */
void counters_quiet_begin(void)
{
}

void counters_quiet_end(void)
{
}

static void describe_pmu(struct record *r)
{
	const char *names[HOST_PERF_MAX * HOST_PERF_GROUPS];

	rec_obj_begin(r, "pmu");
	rec_bool(r, "available", nperf > 0);
	rec_str(r, "reason", perf_reason());
	rec_u64(r, "version", 0);
	rec_u64(r, "gp", (u64)perf_counter_names(names, HOST_PERF_MAX *
							 HOST_PERF_GROUPS));
	rec_u64(r, "gp_width", nperf ? 64 : 0);
	rec_u64(r, "fixed", 0);
	rec_str(r, "events", "perf_event_open (user space only)");
	rec_obj_begin(r, "encodings");
	if (nperf)
		perf_describe_encodings(r);
	rec_obj_end(r);
	rec_obj_end(r);
}

static void describe_host(struct record *r)
{
	struct utsname u;

	rec_obj_begin(r, "host");
	if (!uname(&u)) {
		rec_str(r, "os", u.sysname);
		rec_str(r, "release", u.release);
	}
	rec_s64(r, "cpu", host_cpu);
	rec_bool(r, "valgrind", vg_active());
	rec_obj_end(r);
}

/* User space cannot program DE_CFG: the host kernel decides. Linux sets
 * it on AMD and then lists "lfence_rdtsc" among the CPU flags. */
static bool host_lfence_rdtsc(void)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, "flags", 5) && strstr(line, " lfence_rdtsc");
	if (f)
		fclose(f);
	return found;
}

static void describe_lfence(struct record *r)
{
	bool intel = cpu.vendor == CPU_VENDOR_INTEL;
	bool flag = !intel && host_lfence_rdtsc();

	rec_obj_begin(r, "lfence");
	rec_bool(r, "serialising", intel || flag);
	rec_str(r, "how", intel ? "Intel: dispatch-serialising by definition"
		: flag ? "the host kernel made it serialising (lfence_rdtsc)"
		: "the host kernel does not say LFENCE serialises: timing "
		  "fences may be weak");
	rec_obj_end(r);
}

void counters_describe(struct record *r)
{
	const char *names[HOST_PERF_MAX * HOST_PERF_GROUPS];
	int n = perf_counter_names(names, HOST_PERF_MAX * HOST_PERF_GROUPS);

	rec_obj_begin(r, "machine");
	cpu_record_identity(r, &cpu);
	rec_bool(r, "apic", false);
	describe_lfence(r);
	describe_pmu(r);
	describe_host(r);
	rec_arr_begin(r, "counters");
	rec_arr_str(r, "tsc");
	for (int i = 0; i < n; i++)
		rec_arr_str(r, names[i]);
	rec_arr_end(r);
	rec_obj_begin(r, "unavailable");
	perf_describe_unavailable(r);
	rec_obj_end(r);
	rec_obj_end(r);
}
