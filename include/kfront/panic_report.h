/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The readable panic record printed on serial before a fatal exit. */
#ifndef KFRONT_PANIC_REPORT_H
#define KFRONT_PANIC_REPORT_H

#include <kfront/types.h>

struct panic_report {
	int vector;		/* CPU exception vector, -1 for panic() */
	const char *name;	/* "page fault (#PF)" or "kernel panic" */
	u64 error_code;
	u64 rip, cr2, rsp;
	const void *regs;	/* arch register frame, or NULL */
	char msg[160];
};

/* Print the report as text and as a panic record. Never returns to
 * an interrupted benchmark: the caller exits. */
void panic_report_emit(const struct panic_report *r);
/* Arch hook: print the general registers of a frame. */
void arch_dump_regs(const void *regs);

#endif
