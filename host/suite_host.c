/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The suite's backend under the host harness: Linux user space, a
 * SIGALRM timer as the watchdog (host/watchdog.c), and no NIC. */
#include <stdio.h>

#include <kfront/cmdline.h>
#include <kfront/suite_backend.h>

#include "host.h"

/* peer= asks for a card the host harness does not have: an error, not a
 * silent run without the wire benchmarks. */
static const struct wire_ops *host_wire_setup(const struct cmdline *cl,
					      char *err, size_t errlen)
{
	if (cmdline_str(cl, "peer"))
		snprintf(err, errlen, "peer=: the host harness has no NIC; "
			 "the wire benchmarks run in the kernel");
	return NULL;
}

const struct suite_backend suite_backend = {
	.context = "user",
	.watchdog = "sigalrm",
	.wire_setup = host_wire_setup,
	.placement_describe = text_pages_describe,
};
