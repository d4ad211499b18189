/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The narrow interface to the body the assembly memcpy and memset of a
 * -DKFRONT_ASM_STRING variant take (arch/x86/string_asm.c): the suite
 * passes rep_string= on, before any measured code runs. */
#ifndef KFRONT_STRING_HELPERS_H
#define KFRONT_STRING_HELPERS_H

enum rep_string_mode {
	REP_STRING_CPUID,	/* rep movsb/stosb where FSRM/FSRS, as Linux */
	REP_STRING_REP,		/* rep movsb and rep stosb on any CPU */
	REP_STRING_LOOP,	/* the loops of moves on any CPU */
	REP_STRING_COUNT,	/* names: rep_string_names (kernel/params.c) */
};

extern const char *const rep_string_names[REP_STRING_COUNT];

/* Takes effect at once, and again when CPUID is read (either order). */
void rep_string_select(enum rep_string_mode mode);
enum rep_string_mode rep_string_selected(void);

#endif
