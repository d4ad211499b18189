/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The readable panic record printed on serial before a fatal exit. */
#ifndef KFRONT_PANIC_REPORT_H
#define KFRONT_PANIC_REPORT_H

#include <kfront/types.h>

struct panic_report {
	bool cpu_exception;	/* false for panic() */
	u8 vector;		/* CPU exception vector 0-31 */
	const char *name;	/* "page fault (#PF)", or "panic" for panic() */
	u64 error_code;
	/*
	 * For an exception, the faulting instruction. For panic(), the return
	 * address of its call: as panic() never returns, that may already be
	 * the first byte of the next function, so its symbol is looked up
	 * at rip - 1, inside the call instruction.
	 */
	u64 rip;
	bool rip_is_return_address;
	u64 cr2, rsp;
	const void *regs;	/* arch register frame, or NULL */
	char msg[160];
};

/* Print the report as text and as a panic record. Never returns to
 * an interrupted benchmark: the caller exits. */
void panic_report_emit(const struct panic_report *r);
/* Arch hook: print the general registers of a frame. */
void arch_dump_regs(const void *regs);

#endif
