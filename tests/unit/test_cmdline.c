/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the kernel command-line parser, malformed input included. */
#include <string.h>
#include <kfront/cmdline.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include "check.h"

static const struct param_spec specs[] = {
	{ "bench", PARAM_STR, NULL, 0, 0, "" },
	{ "runs", PARAM_UINT, NULL, 1, 1000, "" },
	{ "exit", PARAM_ENUM, "auto|halt|reboot|qemu", 0, 0, "" },
	{ "quick", PARAM_FLAG, NULL, 0, 0, "" },
};

static struct cmdline cl;
static char err[600];

static int parse(const char *s)
{
	err[0] = '\0';
	return cmdline_parse(&cl, s, specs, ARRAY_SIZE(specs), err, sizeof(err));
}

static void test_valid(void)
{
	CHECK(parse("bench=net.*,sched.ctxsw runs=31 exit=qemu quick") == 0);
	CHECK_STR(cmdline_str(&cl, "bench", "x"), "net.*,sched.ctxsw");
	CHECK_EQ_U64(cmdline_uint(&cl, "runs", 0), 31);
	CHECK_EQ_U64(cmdline_uint(&cl, "exit", 9), 3);
	CHECK(cmdline_flag(&cl, "quick"));
	/* blanks of every kind, and an empty line */
	CHECK(parse("  \truns=0x10 \n ") == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs", 0), 16);
	CHECK(!cmdline_flag(&cl, "quick"));
	CHECK_STR(cmdline_str(&cl, "bench", "dflt"), "dflt");
	CHECK(parse("") == 0);
	CHECK(parse(NULL) == 0);
	/* a later value wins, as on Linux */
	CHECK(parse("runs=5 runs=7") == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs", 0), 7);
}

static void test_unknown_key_lists_valid_keys(void)
{
	CHECK(parse("runs=3 frobnicate=1") == -EINVAL);
	CHECK(strstr(err, "unknown kernel argument 'frobnicate'") != NULL);
	CHECK(strstr(err, "bench, runs, exit, quick") != NULL);
	CHECK(parse("bogusflag") == -EINVAL);
	CHECK(strstr(err, "'bogusflag'") != NULL);
}

static void test_malformed_values(void)
{
	CHECK(parse("runs=abc") == -EINVAL);
	CHECK(strstr(err, "expected an integer from 1 to 1000") != NULL);
	CHECK(parse("runs=0") == -EINVAL);		/* below min */
	CHECK(parse("runs=1001") == -EINVAL);		/* above max */
	CHECK(parse("runs=99999999999999999999999") == -EINVAL); /* overflow */
	CHECK(parse("runs=12x") == -EINVAL);
	CHECK(parse("runs=0x") == -EINVAL);
	CHECK(parse("runs=") == -EINVAL);
	CHECK(strstr(err, "needs a value") != NULL);
	CHECK(parse("runs") == -EINVAL);
	CHECK(parse("exit=sometimes") == -EINVAL);
	CHECK(strstr(err, "expected one of auto|halt|reboot|qemu") != NULL);
	CHECK(parse("exit=hal") == -EINVAL);		/* prefix is not a match */
	CHECK(parse("exit=halted") == -EINVAL);
	CHECK(parse("quick=1") == -EINVAL);
	CHECK(strstr(err, "is a flag") != NULL);
	CHECK(parse("=5") == -EINVAL);
	CHECK(strstr(err, "has no key") != NULL);
	CHECK(parse("bench=") == -EINVAL);
}

static void test_too_long(void)
{
	static char big[CMDLINE_MAX + 10];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(parse(big) == -EINVAL);
	CHECK(strstr(err, "longer than") != NULL);
}

int main(void)
{
	test_valid();
	test_unknown_key_lists_valid_keys();
	test_malformed_values();
	test_too_long();
	return check_report("cmdline");
}
