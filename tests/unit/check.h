/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Minimal assertion helpers for host unit tests: each failed CHECK prints
 * file:line and the expression, and the test exits non-zero at the end. */
#ifndef KFRONT_TEST_CHECK_H
#define KFRONT_TEST_CHECK_H

#include <stdio.h>

static int check_failures;
static int check_count;

#define CHECK(cond) do {						\
	check_count++;							\
	if (!(cond)) {							\
		check_failures++;					\
		fprintf(stderr, "%s:%d: CHECK failed: %s\n",		\
			__FILE__, __LINE__, #cond);			\
	}								\
} while (0)

#define CHECK_EQ_U64(a, b) do {						\
	unsigned long long _a = (a), _b = (b);				\
	check_count++;							\
	if (_a != _b) {							\
		check_failures++;					\
		fprintf(stderr, "%s:%d: %s == %s failed: 0x%llx != 0x%llx\n", \
			__FILE__, __LINE__, #a, #b, _a, _b);		\
	}								\
} while (0)

#define CHECK_STR(a, b) do {						\
	const char *_a = (a), *_b = (b);				\
	check_count++;							\
	if (!_a || !_b || strcmp(_a, _b)) {				\
		check_failures++;					\
		fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", \
			__FILE__, __LINE__, #a, #b, _a ? _a : "(null)",	\
			_b ? _b : "(null)");				\
	}								\
} while (0)

static inline int check_report(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
	return check_failures ? 1 : 0;
}

#endif
