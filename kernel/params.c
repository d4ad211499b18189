/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The table of kernel command-line parameters kfront accepts: the one
 * place that states each parameter's range, choices and default. An enum
 * parameter's names are indexed by the enum its users decode the value
 * into, so a choice cannot be matched to the wrong constant; the records
 * print the same names.
 */
#include <kfront/compiler.h>
#include <kfront/exit.h>
#include <kfront/harness.h>
#include <kfront/params.h>
#include <kfront/pci.h>
#include <kfront/string_helpers.h>
#include <kfront/svc_policy.h>
#include <kfront/text_placement.h>

const char *const exit_mode_names[] = {
	[EXIT_MODE_AUTO] = "auto", [EXIT_MODE_HALT] = "halt",
	[EXIT_MODE_REBOOT] = "reboot", [EXIT_MODE_QEMU] = "qemu",
};
_Static_assert(ARRAY_SIZE(exit_mode_names) == EXIT_MODE_COUNT,
	       "a name for every enum exit_mode");

const char *const pci_access_names[] = {
	[PCI_ACCESS_AUTO] = "auto", [PCI_ACCESS_ECAM] = "ecam",
	[PCI_ACCESS_CF8] = "cf8",
};
_Static_assert(ARRAY_SIZE(pci_access_names) == PCI_ACCESS_COUNT,
	       "a name for every enum pci_access");

const char *const harness_method_names[] = {
	[METHOD_OVERHEAD] = "overhead", [METHOD_DIFF] = "diff",
};
_Static_assert(ARRAY_SIZE(harness_method_names) == METHOD_COUNT,
	       "a name for every enum harness_method");

const char *const harness_state_names[] = {
	[STATE_WARM] = "warm", [STATE_COLD] = "cold", [STATE_BOTH] = "both",
};
_Static_assert(ARRAY_SIZE(harness_state_names) == STATE_COUNT,
	       "a name for every enum harness_state");

const char *const rep_string_names[] = {
	[REP_STRING_CPUID] = "cpuid", [REP_STRING_REP] = "rep",
	[REP_STRING_LOOP] = "loop",
};
_Static_assert(ARRAY_SIZE(rep_string_names) == REP_STRING_COUNT,
	       "a name for every enum rep_string_mode");

const char *const text_pages_names[] = {
	[TEXT_PAGES_4K] = "4k", [TEXT_PAGES_2M] = "2m",
};
_Static_assert(ARRAY_SIZE(text_pages_names) == TEXT_PAGES_COUNT,
	       "a name for every enum text_pages");

/* crash= is read as text by arch_crash(); no enum decodes it. */
static const char *const crash_names[] = {
	"ud", "pf", "gp", "de", "stack", "wtext", "xdata", "panic", "hang",
};

const struct param_spec kfront_params[] = {
	{ .key = "bench", .type = PARAM_STR, .dflt_str = "*",
	  .help = "benchmarks to run: globs, comma-separated; 'none' = describe the machine and exit",
	  .readers = PARAM_READ_SUITE },
	{ .key = "variant", .type = PARAM_STR, .dflt_str = "*",
	  .help = "compiler variants to run: names, comma-separated (default: all)",
	  .readers = PARAM_READ_SUITE },
	{ .key = "runs", .type = PARAM_UINT, .min = 1, .max = HARNESS_MAX_RUNS,
	  .dflt = 21, .quick_dflt = 7,
	  .help = "counted runs per benchmark (the harness keeps each run's samples)",
	  .readers = PARAM_READ_SUITE },
	{ .key = "iters", .type = PARAM_UINT, .min = 1, .max = 1000000000,
	  .dflt = 0,	/* each benchmark's own count */
	  .help = "operations per run",
	  .readers = PARAM_READ_SUITE },
	{ .key = "warmup", .type = PARAM_UINT, .min = 0, .max = 1000,
	  .dflt = 3, .quick_dflt = 1, .help = "discarded warm-up runs",
	  .readers = PARAM_READ_SUITE },
	/* The default sweeps past the 32 KiB L1i (each rule is distinct code,
	 * docs/hybrid.md): footprint 0 alone fits every variant in the L1i
	 * and never reaches the question the suite asks. */
	{ .key = "footprint", .type = PARAM_STR, .dflt_str = "0,32,64,128",
	  .quick_dflt_str = "0,64",
	  .help = "packet-filter rules per packet: a comma-separated list of counts",
	  .readers = PARAM_READ_SUITE },
	{ .key = CMDLINE_QUICK_KEY, .type = PARAM_FLAG,
	  .help = "short runs for a fast check",
	  .readers = PARAM_READ_SUITE },
	{ .key = "method", .type = PARAM_ENUM,
	  PARAM_CHOICES(harness_method_names), .dflt = METHOD_OVERHEAD,
	  .help = "overhead: subtract the calibrated empty region; diff: N and 2N iterations",
	  .readers = PARAM_READ_SUITE },
	{ .key = "state", .type = PARAM_ENUM,
	  PARAM_CHOICES(harness_state_names), .dflt = STATE_WARM,
	  .help = "warm: one unmeasured call of the same variant before each counted run; cold: none; both",
	  .readers = PARAM_READ_SUITE },
	{ .key = "rep_string", .type = PARAM_ENUM,
	  PARAM_CHOICES(rep_string_names), .dflt = REP_STRING_CPUID,
	  .help = "memcpy and memset of -DKFRONT_ASM_STRING variants: cpuid = rep movsb/stosb where the CPU has FSRM/FSRS, as Linux; rep or loop = that body on any CPU",
	  .readers = PARAM_READ_SUITE },
	{ .key = "budget_ms", .type = PARAM_UINT, .min = 1, .max = 3600000,
	  .dflt = 240000, .quick_dflt = 60000,
	  .help = "time budget per benchmark",
	  .readers = PARAM_READ_SUITE },
	{ .key = "exit", .type = PARAM_ENUM,
	  PARAM_CHOICES(exit_mode_names), .dflt = EXIT_MODE_AUTO,
	  .help = "how the run ends (auto: qemu under QEMU, else halt)",
	  .readers = PARAM_READ_KERNEL },
	{ .key = "placement", .type = PARAM_STR, .dflt_str = "loaded",
	  .help = "physical pages of the kernel's code: loaded (where the boot loader put it), N (a copy starting N 4 KiB pages into a 2 MiB region, 0-511) or random (N drawn at boot)",
	  .readers = PARAM_READ_KERNEL },
	{ .key = "textpages", .type = PARAM_ENUM,
	  PARAM_CHOICES(text_pages_names), .dflt = TEXT_PAGES_4K,
	  .help = "page size of the kernel's code mapping: 4k, or 2m as Linux maps its text (placement= needs 4k)",
	  .readers = PARAM_READ_KERNEL },
	{ .key = "serve", .type = PARAM_STR, .dflt_str = "",
	  .help = "network services on a real NIC: echo,discard[,control]; never returns until stopped",
	  .readers = PARAM_READ_SERVE },
	{ .key = "serve_idle_ms", .type = PARAM_UINT, .min = 100, .max = 3600000,
	  .dflt = SVC_IDLE_MS_DEFAULT,
	  .help = "serve=: a TCP connection with no data either way for this long is reset",
	  .readers = PARAM_READ_SERVE },
	{ .key = "ip", .type = PARAM_STR, .dflt_str = "10.0.2.15/24",
	  .help = "IPv4 address of the real NIC: ADDR/PREFIX",
	  .readers = PARAM_READ_NIC },
	{ .key = "gw", .type = PARAM_STR, .dflt_str = NULL,
	  .help = "IPv4 default gateway (e.g. 10.0.2.2; default: none)",
	  .readers = PARAM_READ_NIC },
	{ .key = "peer", .type = PARAM_STR, .dflt_str = NULL,
	  .help = "host peer of the net.wire_* benchmarks: ADDR:PORT (with ip=, gw=, nic=)",
	  .readers = PARAM_READ_SUITE },
	{ .key = "nic", .type = PARAM_STR, .dflt_str = "auto",
	  .help = "which real NIC: virtio, e1000 or auto (the first found)",
	  .readers = PARAM_READ_NIC },
	{ .key = "pci", .type = PARAM_ENUM,
	  PARAM_CHOICES(pci_access_names), .dflt = PCI_ACCESS_AUTO,
	  .help = "PCI configuration access: ECAM (from ACPI MCFG), ports 0xcf8/0xcfc, or auto",
	  .readers = PARAM_READ_NIC },
	{ .key = "crash", .type = PARAM_ENUM,
	  PARAM_CHOICES(crash_names), .dflt = PARAM_NO_DFLT,
	  .help = "fault injection for the boot tests",
	  .readers = PARAM_READ_KERNEL },
};

const size_t kfront_nparams = ARRAY_SIZE(kfront_params);
