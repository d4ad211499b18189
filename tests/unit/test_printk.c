/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of printk's truncation: a cut line is marked and keeps its
 * line ending, so the next line (maybe a record) starts on a line of its
 * own. */
#include <string.h>
#include <kfront/console.h>
#include <kfront/printk.h>
#include "check.h"

static char out[4096];
static size_t out_len;

static void capture(const char *s, size_t len)
{
	if (out_len + len < sizeof(out)) {
		memcpy(out + out_len, s, len);
		out_len += len;
		out[out_len] = '\0';
	}
}

static struct console capture_console = { .name = "test", .write = capture };

static void reset(void)
{
	out_len = 0;
	out[0] = '\0';
}

static void test_short_line_unchanged(void)
{
	reset();
	printk("hello %d\n", 42);
	CHECK_STR(out, "hello 42\n");
}

static void test_long_line_keeps_newline(void)
{
	static char big[1000];
	const char *nl;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	reset();
	printk("long: %s\n", big);
	printk("#KF2 next\n");
	nl = strchr(out, '\n');
	CHECK(nl != NULL);
	CHECK(nl && nl - out == 510);		/* 511 bytes with the newline */
	CHECK(nl && !strncmp(nl - 3, "...", 3));
	CHECK(nl && !strcmp(nl + 1, "#KF2 next\n"));
}

static void test_long_fragment_without_newline(void)
{
	static char big[700];

	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	reset();
	printk("%s", big);
	CHECK_EQ_U64(out_len, 511);
	CHECK(!strcmp(out + 508, "..."));
	CHECK(strchr(out, '\n') == NULL);	/* no line ending it did not ask for */
}

int main(void)
{
	console_register(&capture_console);
	test_short_line_unchanged();
	test_long_line_keeps_newline();
	test_long_fragment_without_newline();
	return check_report("printk");
}
