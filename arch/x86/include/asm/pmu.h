/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Core performance counters (Intel architectural perfmon, AMD core PMCs):
 * event groups per microarchitecture, programmed through struct msr_ops
 * and read with rdpmc. A machine without usable counters gets a reason
 * string instead, and every call stays safe. */
#ifndef ASM_PMU_H
#define ASM_PMU_H

#include <kfront/types.h>
#include <asm/cpu.h>
#include <asm/msr.h>

/* Counters by the names the result records use, in record order. */
enum pmu_counter_id {
	PMU_CYCLES,		/* "cycles": core clock, unhalted */
	PMU_INSTRUCTIONS,	/* "instructions": retired */
	PMU_L1I_MISSES,		/* "l1i_misses" */
	PMU_ITLB_MISSES,	/* "itlb_misses": misses that walk the tables */
	PMU_BRANCH_MISSES,	/* "branch_misses": retired mispredicts */
	PMU_UOPS_DSB,		/* "uops_dsb": from the decoded-uop/op cache */
	PMU_UOPS_MITE,		/* "uops_mite": from the legacy decoders */
	PMU_FE_STALLS,		/* "fe_stalls": cycles front end gave nothing */
	PMU_L2_CODE_READS,	/* "l2_code_reads": L1i line fills asked of L2
				 * (Golden Cove only, where l1i_misses counts
				 * retired instructions, not lines) */
	PMU_NR_COUNTERS,
};

#define PMU_MAX_GP	8	/* general-purpose counters we drive */
#define PMU_MAX_SLOTS	(PMU_MAX_GP + 2)	/* + fixed cycles, instr. */
#define PMU_MAX_GROUPS	8

/* IA32_PERFEVTSELx (Intel SDM vol. 3B) and AMD PERF_CTLx (APM vol. 2). */
#define EVTSEL_EVENT(e)		((u64)(e) & 0xff)
#define EVTSEL_UMASK(u)		((u64)((u) & 0xff) << 8)
#define EVTSEL_USR		(1ULL << 16)	/* count in ring 3 */
#define EVTSEL_OS		(1ULL << 17)	/* count in ring 0 */
#define EVTSEL_EDGE		(1ULL << 18)
#define EVTSEL_INT		(1ULL << 20)	/* PMI on overflow */
#define EVTSEL_ANY		(1ULL << 21)	/* Intel AnyThread */
#define EVTSEL_EN		(1ULL << 22)
#define EVTSEL_INV		(1ULL << 23)
#define EVTSEL_CMASK(c)		((u64)((c) & 0xff) << 24)
#define AMD_EVTSEL_EVENT_HI(e)	((u64)(((e) >> 8) & 0xf) << 32)
#define AMD_EVTSEL_GUESTONLY	(1ULL << 40)
#define AMD_EVTSEL_HOSTONLY	(1ULL << 41)

/* IA32_FIXED_CTR_CTRL: a 4-bit field per fixed counter. */
#define FIXED_CTRL_OS		0x1ULL
#define FIXED_CTRL_USR		0x2ULL
#define FIXED_CTRL_ANY		0x4ULL
#define FIXED_CTRL_PMI		0x8ULL
#define FIXED_CTRL_FIELD(i, v)	((u64)(v) << (4 * (i)))
#define INTEL_FIXED_INSTRUCTIONS	0	/* IA32_FIXED_CTR0 */
#define INTEL_FIXED_CYCLES		1	/* IA32_FIXED_CTR1 */
#define GLOBAL_CTRL_FIXED(i)	(1ULL << (32 + (i)))

/* rdpmc: ECX bit 30 selects Intel's fixed-function counters. */
#define RDPMC_FIXED		(1U << 30)

/* One entry of a microarchitecture's event table (pmu_events.c). */
struct pmu_event {
	u8 id;			/* enum pmu_counter_id */
	u16 event;		/* event select (AMD: 12 bits) */
	u8 umask;
	u8 cmask;		/* counter mask: count cycles with >= cmask */
	u8 gp_mask;		/* GP counters that can count it, 0 = any */
	u32 frontend;		/* MSR_PEBS_FRONTEND value, 0 = none */
	const char *hw_name;	/* the vendor's event name */
};

struct pmu_event_table {
	enum cpu_uarch uarch;
	const char *source;	/* where the encodings come from */
	const struct pmu_event *events;
	u8 nr;
};

/* One programmed counter of a group. */
struct pmu_slot {
	u8 id;			/* enum pmu_counter_id */
	bool fixed;		/* Intel fixed-function counter */
	u8 index;		/* fixed or GP counter number */
	u8 width;		/* counter bits, for wrap-around deltas */
	u32 rdpmc_ecx;
	u64 evtsel;		/* GP: control register value */
	const char *hw_name;
};

struct pmu_group {
	u8 nr;
	u8 gp_used;		/* bitmap of GP counters */
	u8 fixed_used;		/* bitmap of fixed counters */
	u32 frontend;		/* MSR_PEBS_FRONTEND value, 0 = untouched */
	struct pmu_slot slot[PMU_MAX_SLOTS];
};

/* A counter the machine cannot give, and why (for the suite record). */
struct pmu_missing {
	u8 id;
	const char *why;
};

/* Counter MSR layout shared by both vendors' drivers. */
struct pmu_regs {
	u32 ctl_base, ctl_stride;	/* event select of GP counter 0, step */
	u32 ctr_base, ctr_stride;	/* count of GP counter 0, step */
	u32 global_ctl;			/* global enable MSR, 0 = none */
};

struct pmu;

struct pmu_driver {
	const char *name;
	int (*quiesce)(struct pmu *p);	/* all counters off (init) */
	int (*start)(struct pmu *p, const struct pmu_group *g);
	int (*stop)(struct pmu *p, const struct pmu_group *g);
	u64 (*encode)(const struct pmu_event *e);
};

struct pmu {
	const struct cpu_info *ci;
	const struct msr_ops *ops;
	const struct pmu_driver *drv;
	const struct pmu_event_table *table;	/* NULL: architectural only */
	struct pmu_regs regs;
	bool available;
	char reason[160];	/* why !available */
	char error[160];	/* last failure of start/read/stop */
	u8 num_gp;		/* GP counters we may use */
	u8 gp_width;
	u8 fixed_width;
	u32 fixed_mask;		/* usable fixed counters */
	int nr_groups;
	int active;		/* group now counting, -1 = none */
	struct pmu_group groups[PMU_MAX_GROUPS];
	int nr_missing;
	struct pmu_missing missing[PMU_NR_COUNTERS];
};

/*
 * Detect, reset and probe the PMU. Returns 0, or -ENODEV with p->reason
 * saying why no counter is usable (the suite then runs on rdtsc alone).
 * Writes every event-select (and global/fixed) control register to 0,
 * then reads one counter with rdpmc to prove the instruction works.
 */
int pmu_init(struct pmu *p, const struct cpu_info *ci,
	     const struct msr_ops *ops);

/* Number of event groups: the suite runs each benchmark once per group.
 * 0 when the PMU is unavailable. */
int pmu_num_groups(const struct pmu *p);

/* Record names of group g's counters, in pmu_read() order; returns the
 * count (at most max), 0 for a bad group. */
int pmu_group_counters(const struct pmu *p, int g, const char *names[],
		       int max);

/* Program and enable group g (stopping any other). 0, -ENODEV, -EINVAL,
 * or -EFAULT with p->error naming the register that faulted. */
int pmu_start_group(struct pmu *p, int g);

/* rdpmc every counter of the active group into vals[] (pmu_group_counters
 * order). Returns the count, or -ENODEV/-EFAULT. */
int pmu_read(struct pmu *p, u64 *vals);

/* Disable the active group; safe to call at any time. */
void pmu_stop(struct pmu *p);

/* end - start for counter i of group g, modulo the counter's width. */
u64 pmu_delta(const struct pmu *p, int g, int i, u64 start, u64 end);

/* The rdpmc ECX values of group g, for a harness that issues rdpmc
 * itself without an indirect call. The reads are not fenced one by one:
 * arch/x86/counters.c fences once between the rdpmc reads and the measured
 * code on each side (see the order there). */
int pmu_group_rdpmc(const struct pmu *p, int g, u32 *ecx, int max);

/* "cycles", "instructions", ... */
const char *pmu_counter_name(int id);

/* Event table for a microarchitecture, NULL if there is none. */
const struct pmu_event_table *pmu_event_table(enum cpu_uarch u);

#endif
