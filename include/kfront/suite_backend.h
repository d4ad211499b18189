/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the suite (bench/harness/suite.c) needs from where it runs: ring 0
 * (bench/harness/suite_kernel.c) or Linux user space under the host
 * harness (host/suite_host.c). Each side links exactly one definition,
 * so suite.c itself has no conditional code. */
#ifndef KFRONT_SUITE_BACKEND_H
#define KFRONT_SUITE_BACKEND_H

#include <kfront/types.h>

struct cmdline;
struct record;
struct wire_ops;

struct suite_backend {
	const char *context;	/* suite_begin "context": "kernel", "user" */
	const char *watchdog;	/* suite_begin "watchdog" when it is armed */
	/* peer=: the card and peer of the net.wire_* benchmarks, as
	 * wire_setup() in <kfront/wire.h>: NULL with err empty when none
	 * was asked for, NULL with err filled when it cannot be had. */
	const struct wire_ops *(*wire_setup)(const struct cmdline *cl,
					     char *err, size_t errlen);
	/* Print the training profile's records before suite_end (ring 0:
	 * gcov_emit_kernel); NULL where nothing is profiled. */
	u32 (*profile_dump)(void);
	/* Add config.placement, the physical pages the code runs from
	 * (ring 0: text_placement_describe); NULL where they are not
	 * known (the host harness records its own, extra.host). */
	void (*placement_describe)(struct record *rec);
};

extern const struct suite_backend suite_backend;

#endif
