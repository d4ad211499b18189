/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which body the assembly memcpy and memset take (arch/x86/string_asm.c):
 * set once from CPUID, by the kernel's and the host harness's
 * counters_init(), before any measured code runs. Until then, and on a
 * CPU without ERMS, they take the rep movsq path, which is correct on
 * every x86-64 CPU. */
#include <asm/cpu.h>

/* Read by name from the variants' assembly; not static for that. */
u8 x86_fast_rep_string;

void rep_string_init(const struct cpu_info *ci)
{
	x86_fast_rep_string = cpu_has(ci, X86_FEATURE_ERMS);
}
