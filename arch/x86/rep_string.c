/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which body the assembly memcpy and memset take (arch/x86/string_asm.c),
 * set once from CPUID by the kernel's and the host harness's
 * counters_init(), before any measured code runs. Linux decides the
 * same at boot by patching its code: memcpy is a rep movsb where the CPU
 * has fast short rep movsb (FSRM), memset a rep stosb where it has fast
 * short rep stosb (FSRS), otherwise each is a loop of moves. Until set,
 * and on a CPU without them, the loops run: correct on every CPU. */
#include <asm/cpu.h>

/* Read by name from the variants' assembly; not static for that. */
u8 x86_fast_rep_movsb;
u8 x86_fast_rep_stosb;

void rep_string_init(const struct cpu_info *ci)
{
	x86_fast_rep_movsb = cpu_has(ci, X86_FEATURE_FSRM);
	x86_fast_rep_stosb = cpu_has(ci, X86_FEATURE_FSRS);
}
