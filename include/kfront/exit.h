/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Ending a run: the kernel's exit status and how it leaves the machine. */
#ifndef KFRONT_EXIT_H
#define KFRONT_EXIT_H

#include <kfront/compiler.h>
#include <kfront/types.h>

/* Exit statuses; under QEMU the process exits with (status << 1) | 1. */
#define EXIT_OK			0
#define EXIT_PANIC		1	/* CPU exception or kernel panic */
#define EXIT_USAGE		2	/* bad command line */
#define EXIT_BENCH_FAILED	3	/* a benchmark failed verification */
#define EXIT_NO_MEMORY		4
#define EXIT_RECORD_LOST	5	/* a record was too long: replaced by an error record */

enum exit_mode {
	EXIT_MODE_AUTO,		/* qemu under QEMU, otherwise halt */
	EXIT_MODE_HALT,
	EXIT_MODE_REBOOT,
	EXIT_MODE_QEMU,
	EXIT_MODE_COUNT,	/* names: exit_mode_names (kernel/params.c) */
};

/* The exit= choices, indexed by the enum (kernel/params.c). */
extern const char *const exit_mode_names[EXIT_MODE_COUNT];

void exit_set_mode(enum exit_mode mode);
void kernel_exit(int status) __noreturn;

#endif
