/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the kernel command-line parser, malformed input included. */
#include <string.h>
#include <kfront/cmdline.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/harness.h>
#include <kfront/params.h>
#include "check.h"

static const struct param_spec specs[] = {
	{ "bench", PARAM_STR, NULL, 0, 0, "" },
	{ "runs", PARAM_UINT, NULL, 1, 1000, "" },
	{ "exit", PARAM_ENUM, "auto|halt|reboot|qemu", 0, 0, "" },
	{ "quick", PARAM_FLAG, NULL, 0, 0, "" },
};

static struct cmdline cl;
static char err[CMDLINE_ERR_MAX];

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
}

static void test_repeated_key_in_one_source(void)
{
	CHECK(parse("runs=5 runs=7") == -EINVAL);
	CHECK(strstr(err, "'runs' is given more than once in the command line") != NULL);
	CHECK(parse("quick bench=x quick") == -EINVAL);
	CHECK(strstr(err, "'quick' is given more than once") != NULL);
}

/* The boot loader's line sets defaults, fw_cfg's overrides them. */
static void test_later_source_overrides(void)
{
	CHECK(cmdline_init(&cl, specs, ARRAY_SIZE(specs), err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, "runs=5 exit=halt", "loader", err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, "runs=7  quick", "fw_cfg", err, sizeof(err)) == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs", 0), 7);
	CHECK_EQ_U64(cmdline_uint(&cl, "exit", 9), 1);
	CHECK(cmdline_flag(&cl, "quick"));
	CHECK_STR(cl.text, "runs=5 exit=halt runs=7 quick");
	/* ... but a repeat within the later source is still an error */
	CHECK(cmdline_init(&cl, specs, ARRAY_SIZE(specs), err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, "runs=5", "loader", err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, "runs=6 runs=7", "fw_cfg", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "'runs' is given more than once in the fw_cfg") != NULL);
}

static void test_unknown_key_lookup(void)
{
	CHECK(parse("runs=3") == 0);
	CHECK(cmdline_get(&cl, "nosuchkey") == NULL);
	CHECK(!cmdline_has(&cl, "nosuchkey"));
	CHECK(cmdline_has(&cl, "runs"));
	CHECK(!cmdline_has(&cl, "bench"));
}

static void test_bytes_that_need_escaping(void)
{
	CHECK(parse("bench=\"x\"") == -EINVAL);
	CHECK(strstr(err, "byte 0x22 at offset 6") != NULL);
	CHECK(parse("bench=a\\b") == -EINVAL);
	CHECK(parse("bench=\xc3\xa9") == -EINVAL);
	CHECK(strstr(err, "byte 0xc3") != NULL);
	CHECK(parse("bench=a\x01") == -EINVAL);
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
	static char big[CMDLINE_MAX + 10], msg[128];
	static char half[CMDLINE_MAX / 2 + 1];

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	CHECK(parse(big) == -E2BIG);
	snprintf(msg, sizeof(msg), "the limit is %d", CMDLINE_MAX - 1);
	CHECK(strstr(err, msg) != NULL);
	/* exactly at the limit is fine, one byte more is not */
	memcpy(big, "bench=", 6);
	big[CMDLINE_MAX - 1] = '\0';
	CHECK(parse(big) == 0);
	CHECK_EQ_U64(strlen(cl.text), CMDLINE_MAX - 1);
	big[CMDLINE_MAX - 1] = 'a';
	big[CMDLINE_MAX] = '\0';
	snprintf(msg, sizeof(msg), "command line too long: %d bytes", CMDLINE_MAX);
	CHECK(parse(big) == -E2BIG);
	CHECK(strstr(err, msg) != NULL);
	/* two sources count together, with the blank between them */
	memset(half, 'a', sizeof(half) - 1);
	memcpy(half, "bench=", 6);
	half[sizeof(half) - 1] = '\0';
	CHECK(cmdline_init(&cl, specs, ARRAY_SIZE(specs), err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, half, "loader", err, sizeof(err)) == 0);
	half[1] = 'x';	/* "bxnch=": unknown, but the length is checked first */
	CHECK(cmdline_add(&cl, half, "fw_cfg", err, sizeof(err)) == -E2BIG);
	snprintf(msg, sizeof(msg), "%zu bytes", 2 * strlen(half) + 1);
	CHECK(strstr(err, msg) != NULL);
}

/* runs= advertises what the harness keeps: one constant for both. */
static void test_runs_range_is_the_harness_limit(void)
{
	char line[64];

	snprintf(line, sizeof(line), "runs=%d", HARNESS_MAX_RUNS);
	CHECK(cmdline_parse(&cl, line, kfront_params, kfront_nparams, err,
			    sizeof(err)) == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs", 0), HARNESS_MAX_RUNS);
	snprintf(line, sizeof(line), "runs=%d", HARNESS_MAX_RUNS + 1);
	CHECK(cmdline_parse(&cl, line, kfront_params, kfront_nparams, err,
			    sizeof(err)) == -EINVAL);
	snprintf(line, sizeof(line), "from 1 to %d", HARNESS_MAX_RUNS);
	CHECK(strstr(err, line) != NULL);
}

int main(void)
{
	test_valid();
	test_unknown_key_lists_valid_keys();
	test_malformed_values();
	test_too_long();
	test_repeated_key_in_one_source();
	test_later_source_overrides();
	test_unknown_key_lookup();
	test_bytes_that_need_escaping();
	test_runs_range_is_the_harness_limit();
	return check_report("cmdline");
}
