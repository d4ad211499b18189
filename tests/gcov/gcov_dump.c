/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * tests/py/test_gcda.py's host program: run the profiled code, then hand
 * the same gcov_info objects to the kernel's record writer (stdout) and to
 * libgcov, which writes the reference .gcda files. The objects are found
 * as the kernel finds them, through the section -fprofile-info-section
 * fills (named kfront_gcov here so the linker provides its bounds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <kfront/gcov.h>

int profiled_a(int n);

extern const struct gcov_info *const __start_kfront_gcov[];
extern const struct gcov_info *const __stop_kfront_gcov[];

/* libgcov: registration (what the constructor would do) and the dump. */
void __gcov_init(struct gcov_info *info);
void __gcov_dump(void);

void console_write(const char *s, size_t len)
{
	fwrite(s, 1, len, stdout);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 50;
	int sum = profiled_a(n);

	fprintf(stderr, "sum %d\n", sum);
	if (gcov_emit(__start_kfront_gcov, __stop_kfront_gcov) == 0)
		return 1;
	fflush(stdout);
	for (const struct gcov_info *const *p = __start_kfront_gcov;
	     p < __stop_kfront_gcov; p++)
		__gcov_init((struct gcov_info *)*p);
	__gcov_dump();
	return 0;
}
