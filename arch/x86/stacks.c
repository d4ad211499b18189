/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU stacks with guard pages. paging.c leaves every guard page
 * unmapped, so an overflow faults instead of corrupting memory. */
#include <asm/stacks.h>
#include <kfront/compiler.h>

struct guarded_stack {
	u8 guard[PAGE_SIZE];
	u8 stack[STACK_SIZE];
} __aligned(PAGE_SIZE);

/* Not static: entry64.asm starts on x86_cpu_stacks[0][STACK_BOOT]. */
struct guarded_stack x86_cpu_stacks[NR_CPUS][NR_STACK_KINDS]
	__section(".bss.page_aligned");
BUILD_BUG_ON(STACK_BOOT != 0);

static const char *const stack_names[NR_STACK_KINDS] = {
	"kernel", "double-fault", "nmi", "machine-check",
};

u64 stack_top(enum stack_kind kind)
{
	return (u64)&x86_cpu_stacks[0][kind].stack[STACK_SIZE];
}

const char *stack_guard_owner(u64 va)
{
	for (int c = 0; c < NR_CPUS; c++) {
		for (int k = 0; k < NR_STACK_KINDS; k++) {
			u64 g = (u64)x86_cpu_stacks[c][k].guard;

			if (va >= g && va < g + PAGE_SIZE)
				return stack_names[k];
		}
	}
	return NULL;
}

bool stack_is_guard_page(u64 va)
{
	return stack_guard_owner(va) != NULL;
}
