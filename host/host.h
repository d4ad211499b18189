/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the host harness's own files share: the pinned CPU, the perf_event
 * counters (perf.c) and the callgrind region marks (vg.c). */
#ifndef KFRONT_HOST_H
#define KFRONT_HOST_H

#include <kfront/record.h>
#include <kfront/types.h>

#define HOST_PERF_MAX	6	/* hardware events tried per group */
#define HOST_PERF_GROUPS	2	/* generic events; the table's front end */

struct cpu_info;
struct pmu_event;
enum cpu_vendor;

/* The CPU the process is pinned to (main.c), -1 if none. */
extern int host_cpu;

/* Open the hardware events of CPU @ci as groups (perf.c); those that fail
 * are listed with their reason by perf_describe_unavailable(). Returns
 * how many group 0 opened. */
int perf_init(const struct cpu_info *ci, bool disabled);
/* Groups opened: 0 without a PMU. */
int perf_num_groups(void);
/* Names of group g's opened events, in read order; returns the count. */
int perf_group_names(int g, const char *names[], int max);
/* Every counter any group opened, once each. */
int perf_counter_names(const char *names[], int max);
int perf_enable(int g, char *err, size_t errlen);
void perf_disable(void);
/* Current values of the active group's events, in perf_group_names()
 * order. */
void perf_read(u64 *vals);
/* Why the PMU is unavailable ("" when it is available). */
const char *perf_reason(void);
/* Add "name": "reason" for every event that could not be opened. */
void perf_describe_unavailable(struct record *r);
/* machine.pmu.encodings: counter name -> {event, encoding}. */
void perf_describe_encodings(struct record *r);

/* perf_raw.c: the raw perf_event config of a kernel table event for
 * vendor @v's core PMU (0), or -1 if it needs more than config. */
int perf_raw_config(enum cpu_vendor v, const struct pmu_event *e, u64 *config);
/* The table events of CPU @ci that perf has no generic event for, in
 * record order; 0 and the reason in @why when it has no table. */
int perf_frontend_events(const struct cpu_info *ci,
			 const struct pmu_event **out, int max,
			 char *why, size_t whylen);

/* Under callgrind, every measured region becomes one dump of its own
 * (zeroed at the start, dumped at the end), named after its region
 * number, which the results then map back to runs. */
bool vg_init(void);
bool vg_active(void);
void vg_region_begin(u64 seq);
void vg_region_end(void);

/* --huge-text (text_pages.c): move the program's code onto 2 MiB pages;
 * 0, or -1 with the reason in err. */
int text_pages_huge(char *err, size_t errlen);
/* suite_begin's config.text_pages: what was asked and what the kernel
 * gave. */
void text_pages_describe(struct record *rec);

#endif
