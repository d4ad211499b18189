/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fesim validation host program: runs the regions of cases.S by name. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Usage: fesim_validate CASE[=ITERATIONS]...
 * Static and non-PIE, so the code sits at the same addresses under
 * valgrind --tool=cachegrind and under qemu-x86_64 -plugin libfesim.so.
 * Everything a region executes is in cases.S; the C here runs only
 * between regions.
 */
typedef unsigned long long (*case_fn)(unsigned long long iterations);

unsigned long long fv_straight(unsigned long long n);
unsigned long long fv_loop_fit(unsigned long long n);
unsigned long long fv_loop_2x(unsigned long long n);
unsigned long long fv_conflict9(unsigned long long n);
unsigned long long fv_conflict8(unsigned long long n);
unsigned long long fv_dsb_fit(unsigned long long n);
unsigned long long fv_dsb_dense(unsigned long long n);
unsigned long long fv_split(unsigned long long n);
unsigned long long fv_flush(unsigned long long n);

static const struct {
	const char *name;
	case_fn fn;
	unsigned long long default_iters;
} cases[] = {
	{ "straight", fv_straight, 1 },
	{ "loop_fit", fv_loop_fit, 50 },
	{ "loop_2x", fv_loop_2x, 50 },
	{ "conflict9", fv_conflict9, 1000 },
	{ "conflict8", fv_conflict8, 1000 },
	{ "dsb_fit", fv_dsb_fit, 1000 },
	{ "dsb_dense", fv_dsb_dense, 1000 },
	{ "split", fv_split, 10 },
	{ "flush", fv_flush, 1 },
};

static int run_one(const char *arg)
{
	char name[64];
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	size_t i;

	if (len >= sizeof(name))
		return -1;
	memcpy(name, arg, len);
	name[len] = 0;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long long n = cases[i].default_iters;

		if (strcmp(cases[i].name, name))
			continue;
		if (eq)
			n = strtoull(eq + 1, NULL, 0);
		if (!n)
			return -1;
		cases[i].fn(n);
		return 0;
	}
	return -1;
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s CASE[=N]...\ncases:", argv[0]);
		for (i = 0; i < (int)(sizeof(cases) / sizeof(cases[0])); i++)
			fprintf(stderr, " %s", cases[i].name);
		fprintf(stderr, "\n");
		return 2;
	}
	for (i = 1; i < argc; i++) {
		if (run_one(argv[i])) {
			fprintf(stderr, "%s: bad case '%s'\n", argv[0], argv[i]);
			return 2;
		}
	}
	return 0;
}
