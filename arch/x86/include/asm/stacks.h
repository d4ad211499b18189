/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU stacks, each with an unmapped guard page below it. */
#ifndef ASM_STACKS_H
#define ASM_STACKS_H

#include <kfront/types.h>

#define STACK_SIZE	16384
#define PAGE_SIZE	4096

enum stack_kind {
	STACK_BOOT,		/* the CPU's normal kernel stack */
	STACK_DOUBLE_FAULT,
	STACK_NMI,
	STACK_MCE,
	NR_STACK_KINDS,
};

/* Only the boot CPU runs; the layout is per CPU so more can follow. */
#define NR_CPUS		1

u64 stack_top(enum stack_kind kind);
/* True if the page at virtual address va is a stack guard page. */
bool stack_is_guard_page(u64 va);
/* Name of the stack whose guard page holds va, or NULL. */
const char *stack_guard_owner(u64 va);

#endif
