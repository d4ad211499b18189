/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The measurement clock and counters, as the harness sees them. This is
 * the narrow header through which bench/ reaches arch/x86: CPU identity,
 * the TSC, and the PMU's event groups. Slot 0 of every read is the TSC;
 * slots 1.. are the active group's PMU counters. */
#ifndef KFRONT_COUNTERS_H
#define KFRONT_COUNTERS_H

#include <kfront/record.h>
#include <kfront/types.h>

#define COUNTERS_MAX	12	/* TSC + PMU counters of one group */

/* Detect the CPU and PMU, calibrate the TSC, find the local APIC. */
void counters_init(void);
/* Event groups to run each benchmark under; at least 1 (TSC only). */
int counters_num_groups(void);
/* Names of group g's slots ("tsc", "cycles", ...); returns the count. */
int counters_group_names(int g, const char *names[], int max);
/* Program group g. 0, or -errno (the suite reports and carries on). */
int counters_start_group(int g, char *err, size_t errlen);
void counters_stop(void);
/* Read every slot of the active group. _begin reads the PMU counters
 * then the TSC and fences; _end fences then reads the TSC then the PMU:
 * the measured code is bracketed tightly on both sides. Never inlined. */
void counters_read_begin(u64 *vals);
void counters_read_end(u64 *vals);
/* end - begin for slot i, modulo the counter's width. */
u64 counters_delta(int i, u64 begin, u64 end);
/* TSC ticks per second (0 if unknown) and a raw TSC read. */
u64 counters_tsc_hz(void);
u64 counters_tsc(void);
/* Mask local interrupt sources around a measurement (not cli: see
 * arch/x86/apic.c) and put them back. */
void counters_quiet_begin(void);
void counters_quiet_end(void);
/* Write the "machine" object of the suite_begin record. */
void counters_describe(struct record *r);

#endif
