/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which body the assembly memcpy and memset take (arch/x86/string_asm.c).
 * Linux decides at boot by patching its code: memcpy is a rep movsb where
 * the CPU has fast short rep movsb (FSRM), memset a rep stosb where it has
 * fast short rep stosb (FSRS), otherwise each is a loop of moves. Here
 * two bytes hold the choice: from CPUID (rep_string_init(), called by the
 * kernel's and the host harness's counters_init()), unless rep_string=
 * forces one body (rep_string_select(), from the suite: QEMU TCG reports
 * neither feature, so a simulated boot can ask for what a simulated CPU
 * with them would run). Until set, the loops run: correct on every CPU. */
#include <asm/cpu.h>
#include <kfront/string_helpers.h>

/* Read by name from the variants' assembly; not static for that. */
u8 x86_fast_rep_movsb;
u8 x86_fast_rep_stosb;

static enum rep_string_mode selected;	/* REP_STRING_CPUID */
static bool cpu_fsrm, cpu_fsrs;

static void apply(void)
{
	x86_fast_rep_movsb = selected == REP_STRING_REP ||
			     (selected == REP_STRING_CPUID && cpu_fsrm);
	x86_fast_rep_stosb = selected == REP_STRING_REP ||
			     (selected == REP_STRING_CPUID && cpu_fsrs);
}

void rep_string_init(const struct cpu_info *ci)
{
	cpu_fsrm = cpu_has(ci, X86_FEATURE_FSRM);
	cpu_fsrs = cpu_has(ci, X86_FEATURE_FSRS);
	apply();
}

void rep_string_select(enum rep_string_mode mode)
{
	selected = mode < REP_STRING_COUNT ? mode : REP_STRING_CPUID;
	apply();
}

enum rep_string_mode rep_string_selected(void)
{
	return selected;
}
