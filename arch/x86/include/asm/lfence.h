/* SPDX-License-Identifier: GPL-2.0-or-later */
/* LFENCE as a dispatch-serialising instruction. The fences around rdtsc and
 * rdpmc (arch/x86/counters.c) only hold the measured code back if LFENCE
 * waits for every older instruction to complete before later ones start.
 * Intel defines it so. AMD does only with DE_CFG (MSR C001_1029) bit 1
 * set, which an operating system sets at boot; kfront is that operating
 * system, so it sets the bit itself and records whether it could. */
#ifndef ASM_LFENCE_H
#define ASM_LFENCE_H

#include <asm/cpu.h>
#include <asm/msr.h>

#define MSR_AMD64_DE_CFG		0xc0011029
#define DE_CFG_LFENCE_SERIALIZE		(1ULL << 1)

struct lfence_state {
	bool serialising;	/* the timing fences are dispatch-serialising */
	char how[96];		/* why we believe so, or why not */
};

/* Make LFENCE dispatch-serialising where the CPU needs it (AMD families
 * other than 0Fh and 11h), through `ops` so that host tests see every
 * access. Never faults; the result says what happened. */
void lfence_make_serialising(const struct cpu_info *ci,
			     const struct msr_ops *ops,
			     struct lfence_state *st);

#endif
