/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the host harness's own files share: the pinned CPU, the perf_event
 * counters (perf.c) and the callgrind region marks (vg.c). */
#ifndef KFRONT_HOST_H
#define KFRONT_HOST_H

#include <kfront/record.h>
#include <kfront/types.h>

#define HOST_PERF_MAX	5	/* hardware events tried, one group */

/* The CPU the process is pinned to (main.c), -1 if none. */
extern int host_cpu;

/* Open the hardware events as one group; those that fail are listed
 * with their reason by perf_describe_unavailable(). Returns how many. */
int perf_init(bool disabled);
const char *perf_name(int i);
int perf_enable(char *err, size_t errlen);
void perf_disable(void);
/* Current values of the opened events, in perf_name() order. */
void perf_read(u64 *vals);
/* Why the PMU is unavailable ("" when it is available). */
const char *perf_reason(void);
/* Add "name": "reason" for every event that could not be opened. */
void perf_describe_unavailable(struct record *r);
/* machine.pmu.encodings: counter name -> {event, encoding}. */
void perf_describe_encodings(struct record *r);

/* Under callgrind, every measured region becomes one dump of its own
 * (zeroed at the start, dumped at the end), named after its region
 * number, which the results then map back to runs. */
bool vg_init(void);
bool vg_active(void);
void vg_region_begin(u64 seq);
void vg_region_end(void);

#endif
