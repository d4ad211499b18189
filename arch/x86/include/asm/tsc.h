/* SPDX-License-Identifier: GPL-2.0-or-later */
/* TSC frequency: from CPUID when it says (cpu_tsc.c), else calibrated
 * against PIT channel 2 (tsc.c) or the HPET (hpet.c), kernel only. The
 * TSC is a reference clock, not a core-cycle counter: core cycles come
 * from the PMU. */
#ifndef ASM_TSC_H
#define ASM_TSC_H

#include <kfront/types.h>
#include <asm/cpu.h>

/* Measure the TSC over ms milliseconds (1..50) of PIT channel 2; the
 * best of three tries. Returns Hz, or 0 when the PIT does not count. */
u64 tsc_calibrate_pit(u32 ms);

/* Measure the TSC over ms milliseconds of the HPET whose registers are at
 * physical address base (from ACPI); the median of three tries. Returns
 * Hz, or 0 when no HPET answers there. */
u64 tsc_calibrate_hpet(u64 base, u32 ms);

/* Ensure ci->tsc_hz: keep the CPUID figure, else calibrate against the
 * PIT ("pit"), else the HPET ("hpet"), else leave 0 with tsc_source
 * "none". After a PIT calibration the HPET, where there is one, gives a
 * second figure (tsc_check_hz, tsc_check_source "hpet") to check it by. */
void tsc_init(struct cpu_info *ci);

#endif
