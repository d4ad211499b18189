/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The suite's backend in the kernel: ring 0, the local APIC timer as the
 * watchdog, a real NIC for the wire benchmarks, and the code's physical
 * placement (placement=). */
#include <kfront/gcov.h>
#include <kfront/suite_backend.h>
#include <kfront/text_placement.h>
#include <kfront/wire.h>

const struct suite_backend suite_backend = {
	.context = "kernel",
	.watchdog = "apic-timer",
	.wire_setup = wire_setup,
	.profile_dump = gcov_emit_kernel,
	.placement_describe = text_placement_describe,
};
