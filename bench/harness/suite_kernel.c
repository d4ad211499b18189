/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The suite's backend in the kernel: ring 0, the local APIC timer as the
 * watchdog, and a real NIC for the wire benchmarks. */
#include <kfront/gcov.h>
#include <kfront/suite_backend.h>
#include <kfront/wire.h>

const struct suite_backend suite_backend = {
	.context = "kernel",
	.watchdog = "apic-timer",
	.wire_setup = wire_setup,
	.profile_dump = gcov_emit_kernel,
};
