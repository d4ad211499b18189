/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the kernel's vsnprintf: compared with expected strings
 * (what C99 printf prints), including truncation. */
#include <string.h>
#include <kfront/printk.h>
#include "check.h"

static char out[128];

#define FMT(expect, ...) do {						\
	snprintf(out, sizeof(out), __VA_ARGS__);			\
	CHECK_STR(out, expect);						\
} while (0)

int main(void)
{
	FMT("42", "%d", 42);
	FMT("-42", "%d", -42);
	FMT("-9223372036854775808", "%lld", (long long)(-9223372036854775807LL - 1));
	FMT("18446744073709551615", "%llu", 18446744073709551615ULL);
	FMT("4294967295", "%u", 4294967295u);
	FMT("ff", "%x", 255);
	FMT("FF", "%X", 255);
	FMT("0xff", "%#x", 255);
	FMT("0x0000000000001234", "0x%016lx", 0x1234UL);
	FMT("  42", "%4d", 42);
	FMT("42  |", "%-4d|", 42);
	FMT("0042", "%04d", 42);
	FMT("-042", "%04d", -42);
	FMT("+7", "%+d", 7);
	FMT(" 7", "% d", 7);
	FMT("00042", "%.5d", 42);
	FMT("", "%.0d", 0);
	FMT("17", "%o", 15);
	FMT("hello", "%s", "hello");
	FMT("hel", "%.3s", "hello");
	FMT("   hi", "%5s", "hi");
	FMT("hi   |", "%-5s|", "hi");
	FMT("(null)", "%s", (char *)NULL);
	FMT("x", "%c", 'x');
	FMT("100%", "100%%");
	FMT("  12", "%*d", 4, 12);
	FMT("12345", "%zu", (size_t)12345);
	FMT("-1", "%hhd", 255);
	FMT("65535", "%hu", 65535);
	FMT("0x1000", "%p", (void *)0x1000);
	/* truncation: NUL-terminated, returns the full length */
	{
		char small[5];
		int n = snprintf(small, sizeof(small), "%s", "abcdefgh");

		CHECK(n == 8);
		CHECK_STR(small, "abcd");
		CHECK(snprintf(NULL, 0, "%d", 12345) == 5);
	}
	return check_report("vsprintf");
}
