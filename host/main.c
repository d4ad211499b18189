/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host harness's entry: kfront's suite as a Linux user-space program.
 * The arguments are the kernel's command line (bench=, variant=, runs=,
 * quick, ...), checked against the kernel's own parameter table; --cpu N
 * pins the process to one CPU first. Records go to stdout. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <kfront/exit.h>
#include <kfront/params.h>
#include <kfront/suite.h>
#include "host.h"

struct cmdline kfront_cmdline;
int host_cpu = -1;


static void usage(FILE *f)
{
	fprintf(f, "usage: kfront-host [--cpu N | --no-pin] [--huge-text] [KEY=VALUE | FLAG]...\n"
		"Runs kfront's benchmark suite in user space; the arguments are the\n"
		"kernel's command line (bench=GLOBS variant=LIST runs= iters= warmup=\n"
		"footprint= quick method= budget_ms=). Records go to stdout.\n"
		"--huge-text runs the code from one 2 MiB page, not the file's pages.\n");
}

/* The last CPU we may run on: CPU 0 usually takes the most interrupts. */
static int default_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	for (int c = CPU_SETSIZE - 1; c >= 0; c--)
		if (CPU_ISSET(c, &set))
			return c;
	return -1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "kfront-host: cannot pin to CPU %d: %s\n", cpu,
			strerror(errno));
		return -1;
	}
	host_cpu = cpu;
	return 0;
}

/* argv words after the options, joined as one command line. */
static int join_args(char *buf, size_t len, int argc, char **argv)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", n ? " " : "", argv[i]);

		if (w < 0 || (size_t)w >= len - n)
			return -1;
		n += (size_t)w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char line[CMDLINE_MAX], err[CMDLINE_ERR_MAX];
	int i = 1, cpu = -1;
	bool no_pin = false, huge_text = false, under_vg;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		if (!strcmp(argv[i], "--cpu") && i + 1 < argc) {
			cpu = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--huge-text")) {
			huge_text = true;	/* host/text_pages.c */
		} else if (!strcmp(argv[i], "--no-pin")) {
			no_pin = true;	/* valgrind runs: counts, not time */
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (join_args(line, sizeof(line), argc - i, argv + i)) {
		fprintf(stderr, "kfront-host: the command line is longer than %d bytes\n",
			CMDLINE_MAX - 1);
		return EXIT_USAGE;
	}
	if (cmdline_parse(&kfront_cmdline, line, kfront_params, kfront_nparams,
			  err, sizeof(err))) {
		fprintf(stderr, "kfront-host: %s\n", err);
		return EXIT_USAGE;
	}
	/* only the suite runs here: a key nothing else reads would do
	 * nothing (peer= is refused where the wire is set up) */
	for (size_t k = 0; k < kfront_nparams; k++) {
		if (kfront_cmdline.vals[k].set &&
		    !(kfront_params[k].readers & PARAM_READ_SUITE)) {
			fprintf(stderr, "kfront-host: %s= is for the kernel only "
				"(this harness has no NIC, no fault injection and "
				"its own exit)\n", kfront_params[k].key);
			return EXIT_USAGE;
		}
	}
	if (!no_pin && pin(cpu >= 0 ? cpu : default_cpu()))
		return EXIT_USAGE;
	/* Records are lines: a crash must never leave half of one. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	under_vg = vg_init();
	if (huge_text && under_vg) {
		fprintf(stderr, "kfront-host: --huge-text under valgrind: its counts "
			"do not depend on the pages\n");
		return EXIT_USAGE;
	}
	if (huge_text && text_pages_huge(err, sizeof(err))) {
		fprintf(stderr, "kfront-host: %s\n", err);
		return EXIT_FAILURE;
	}
	/* Fault every page in when it is mapped, as the kernel's direct map
	 * is: no page fault inside a measured region. Best effort. */
	if (!under_vg)
		mlockall(MCL_CURRENT | MCL_FUTURE);
	printf("kfront: host harness, command line: %s\n", line);
	return suite_main(&kfront_cmdline, NULL);
}
