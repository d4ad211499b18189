/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The table of kernel command-line parameters kfront accepts. */
#include <kfront/compiler.h>
#include <kfront/harness.h>
#include <kfront/params.h>

const struct param_spec kfront_params[] = {
	{ "bench", PARAM_STR, NULL, 0, 0,
	  "benchmarks to run: globs, comma-separated; 'none' = describe the machine and exit" },
	{ "variant", PARAM_STR, NULL, 0, 0,
	  "compiler variants to run: names, comma-separated (default: all)" },
	{ "runs", PARAM_UINT, NULL, 1, HARNESS_MAX_RUNS,
	  "counted runs per benchmark (the harness keeps each run's samples)" },
	{ "iters", PARAM_UINT, NULL, 1, 1000000000, "operations per run" },
	{ "warmup", PARAM_UINT, NULL, 0, 1000, "discarded warm-up runs" },
	{ "footprint", PARAM_STR, NULL, 0, 0,
	  "packet-filter rules per packet: a comma-separated list of counts" },
	{ "quick", PARAM_FLAG, NULL, 0, 0, "short runs for a fast check" },
	{ "method", PARAM_ENUM, "overhead|diff", 0, 0,
	  "overhead: subtract the calibrated empty region; diff: N and 2N iterations" },
	{ "state", PARAM_ENUM, "warm|cold|both", 0, 0,
	  "warm: one unmeasured call of the same variant before each counted run; cold: none; both" },
	{ "budget_ms", PARAM_UINT, NULL, 1, 3600000, "time budget per benchmark" },
	{ "exit", PARAM_ENUM, "auto|halt|reboot|qemu", 0, 0,
	  "how the run ends (auto: qemu under QEMU, else halt)" },
	{ "serve", PARAM_STR, NULL, 0, 0,
	  "network services on a real NIC: echo,discard[,control]; never returns until stopped" },
	{ "serve_idle_ms", PARAM_UINT, NULL, 100, 3600000,
	  "serve=: a TCP connection with no data either way for this long is reset (default 5000)" },
	{ "ip", PARAM_STR, NULL, 0, 0,
	  "IPv4 address of the real NIC: ADDR/PREFIX (default 10.0.2.15/24)" },
	{ "gw", PARAM_STR, NULL, 0, 0, "IPv4 default gateway (e.g. 10.0.2.2)" },
	{ "peer", PARAM_STR, NULL, 0, 0,
	  "host peer of the net.wire_* benchmarks: ADDR:PORT (with ip=, gw=, nic=)" },
	{ "nic", PARAM_STR, NULL, 0, 0,
	  "which real NIC: virtio, e1000 or auto (default: the first found)" },
	{ "pci", PARAM_ENUM, "auto|ecam|cf8", 0, 0,
	  "PCI configuration access: ECAM (from ACPI MCFG), ports 0xcf8/0xcfc, or auto" },
	{ "crash", PARAM_ENUM, "ud|pf|gp|de|stack|wtext|xdata|panic|hang", 0, 0,
	  "fault injection for the boot tests" },
};

const size_t kfront_nparams = ARRAY_SIZE(kfront_params);
