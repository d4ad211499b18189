/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host tests of the kernel command-line parser, malformed input included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <kfront/cmdline.h>
#include <kfront/compiler.h>
#include <kfront/errno.h>
#include <kfront/exit.h>
#include <kfront/harness.h>
#include <kfront/params.h>
#include <kfront/pci.h>
#include "check.h"

static const struct param_spec specs[] = {
	{ .key = "bench", .type = PARAM_STR, .dflt_str = "*" },
	{ .key = "runs", .type = PARAM_UINT, .min = 1, .max = 1000,
	  .dflt = 21, .quick_dflt = 7 },
	{ .key = "exit", .type = PARAM_ENUM, PARAM_CHOICES(exit_mode_names),
	  .dflt = EXIT_MODE_AUTO },
	{ .key = "quick", .type = PARAM_FLAG },
};

/* cmdline.c panics on a lookup of a key outside the table: catch it. */
static jmp_buf panic_jmp;
static bool panic_armed;
static char panic_msg[256];

void panic(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(panic_msg, sizeof(panic_msg), fmt, ap);
	va_end(ap);
	if (!panic_armed) {
		fprintf(stderr, "unexpected panic: %s\n", panic_msg);
		abort();
	}
	longjmp(panic_jmp, 1);
}

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
	CHECK_STR(cmdline_str(&cl, "bench"), "net.*,sched.ctxsw");
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 31);
	CHECK_EQ_U64(cmdline_uint(&cl, "exit"), EXIT_MODE_QEMU);
	CHECK(cmdline_flag(&cl, "quick"));
	/* blanks of every kind, and an empty line */
	CHECK(parse("  \truns=0x10 \n ") == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 16);
	CHECK(!cmdline_flag(&cl, "quick"));
	CHECK_STR(cmdline_str(&cl, "bench"), "*");
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
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 7);
	CHECK_EQ_U64(cmdline_uint(&cl, "exit"), EXIT_MODE_HALT);
	CHECK(cmdline_flag(&cl, "quick"));
	CHECK_STR(cl.text, "runs=5 exit=halt runs=7 quick");
	/* ... but a repeat within the later source is still an error */
	CHECK(cmdline_init(&cl, specs, ARRAY_SIZE(specs), err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, "runs=5", "loader", err, sizeof(err)) == 0);
	CHECK(cmdline_add(&cl, "runs=6 runs=7", "fw_cfg", err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "'runs' is given more than once in the fw_cfg") != NULL);
}

/* True if calling lookup(key) panicked with a message naming key. */
static bool lookup_panics(void (*lookup)(const char *), const char *key)
{
	bool panicked = false;

	panic_msg[0] = '\0';
	panic_armed = true;
	if (!setjmp(panic_jmp))
		lookup(key);
	else
		panicked = true;
	panic_armed = false;
	return panicked && strstr(panic_msg, key) &&
	       strstr(panic_msg, "not in the parameter table");
}

static void lookup_get(const char *key) { (void)cmdline_get(&cl, key); }
static void lookup_has(const char *key) { (void)cmdline_has(&cl, key); }
static void lookup_uint(const char *key) { (void)cmdline_uint(&cl, key); }
static void lookup_str(const char *key) { (void)cmdline_str(&cl, key); }

/* A key outside the table is the caller's typo: it must not read as
 * "not given" (and cmdline_get must never hand out NULL). */
static void test_unknown_key_lookup(void)
{
	CHECK(parse("runs=3") == 0);
	CHECK(lookup_panics(lookup_get, "nosuchkey"));
	CHECK(lookup_panics(lookup_has, "nosuchkey"));
	CHECK(lookup_panics(lookup_uint, "nosuchkey"));
	CHECK(lookup_panics(lookup_str, "nosuchkey"));
	CHECK(cmdline_has(&cl, "runs"));
	CHECK(!cmdline_has(&cl, "bench"));
}

/* The table states every default; callers pass none. */
static void test_defaults_come_from_the_table(void)
{
	CHECK(parse("") == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 21);
	CHECK_EQ_U64(cmdline_uint(&cl, "exit"), EXIT_MODE_AUTO);
	CHECK_STR(cmdline_str(&cl, "bench"), "*");
	CHECK(parse("quick") == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 7);
	CHECK(parse("quick runs=9") == 0);	/* given beats quick */
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 9);
	/* the messages that ask for a value name the default */
	CHECK(parse("runs=0") == -EINVAL);
	CHECK(strstr(err, "(default 21, 7 with quick)") != NULL);
	CHECK(parse("exit=") == -EINVAL);
	CHECK(strstr(err, "exit=auto|halt|reboot|qemu (default auto)") != NULL);
}

/* kfront's own defaults, where the callers used to state them. */
static void test_kfront_defaults(void)
{
	CHECK(cmdline_parse(&cl, "", kfront_params, kfront_nparams, err,
			    sizeof(err)) == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 21);
	CHECK_EQ_U64(cmdline_uint(&cl, "warmup"), 3);
	CHECK_EQ_U64(cmdline_uint(&cl, "budget_ms"), 240000);
	CHECK_EQ_U64(cmdline_uint(&cl, "iters"), 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "method"), METHOD_OVERHEAD);
	CHECK_EQ_U64(cmdline_uint(&cl, "state"), STATE_WARM);
	CHECK_EQ_U64(cmdline_uint(&cl, "exit"), EXIT_MODE_AUTO);
	CHECK_EQ_U64(cmdline_uint(&cl, "pci"), PCI_ACCESS_AUTO);
	CHECK_EQ_U64(cmdline_uint(&cl, "serve_idle_ms"), 5000);
	CHECK_STR(cmdline_str(&cl, "bench"), "*");
	CHECK_STR(cmdline_str(&cl, "variant"), "*");
	CHECK_STR(cmdline_str(&cl, "footprint"), "0,32,64,128");
	CHECK_STR(cmdline_str(&cl, "ip"), "10.0.2.15/24");
	CHECK_STR(cmdline_str(&cl, "nic"), "auto");
	CHECK(cmdline_str(&cl, "gw") == NULL);
	CHECK(cmdline_str(&cl, "peer") == NULL);
	CHECK(cmdline_parse(&cl, "quick", kfront_params, kfront_nparams, err,
			    sizeof(err)) == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 7);
	CHECK_EQ_U64(cmdline_uint(&cl, "warmup"), 1);
	CHECK_EQ_U64(cmdline_uint(&cl, "budget_ms"), 60000);
	/* the default run sweeps the footprint; quick keeps two points */
	CHECK_STR(cmdline_str(&cl, "footprint"), "0,64");
	CHECK(cmdline_parse(&cl, "quick footprint=0", kfront_params,
			    kfront_nparams, err, sizeof(err)) == 0);
	CHECK_STR(cmdline_str(&cl, "footprint"), "0");
}

/* Each enum parameter decodes to the enum constant of the same name. */
static void test_enum_choices_decode_by_name(void)
{
	static const struct { const char *arg; const char *key; u64 want; } cases[] = {
		{ "method=overhead", "method", METHOD_OVERHEAD },
		{ "method=diff", "method", METHOD_DIFF },
		{ "state=warm", "state", STATE_WARM },
		{ "state=cold", "state", STATE_COLD },
		{ "state=both", "state", STATE_BOTH },
		{ "exit=auto", "exit", EXIT_MODE_AUTO },
		{ "exit=halt", "exit", EXIT_MODE_HALT },
		{ "exit=reboot", "exit", EXIT_MODE_REBOOT },
		{ "exit=qemu", "exit", EXIT_MODE_QEMU },
		{ "pci=auto", "pci", PCI_ACCESS_AUTO },
		{ "pci=ecam", "pci", PCI_ACCESS_ECAM },
		{ "pci=cf8", "pci", PCI_ACCESS_CF8 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		CHECK(cmdline_parse(&cl, cases[i].arg, kfront_params,
				    kfront_nparams, err, sizeof(err)) == 0);
		CHECK_EQ_U64(cmdline_uint(&cl, cases[i].key), cases[i].want);
	}
}

/* A table with a gap or a default out of range is refused at init. */
static void test_inconsistent_specs_refused(void)
{
	static const char *const gappy[3] = { [0] = "a", [2] = "c" };
	const struct param_spec bad_enum[] = {
		{ .key = "e", .type = PARAM_ENUM, PARAM_CHOICES(gappy) },
	};
	const struct param_spec bad_dflt[] = {
		{ .key = "e", .type = PARAM_ENUM, PARAM_CHOICES(exit_mode_names),
		  .dflt = EXIT_MODE_COUNT },
	};
	const struct param_spec bad_uint[] = {
		{ .key = "n", .type = PARAM_UINT, .min = 1, .max = 9, .dflt = 10 },
	};
	const struct param_spec bad_quick[] = {
		{ .key = "n", .type = PARAM_UINT, .min = 1, .max = 9, .dflt = 2,
		  .quick_dflt = 10 },
	};

	CHECK(cmdline_init(&cl, bad_enum, 1, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "parameter table: 'e'") != NULL);
	CHECK(cmdline_init(&cl, bad_dflt, 1, err, sizeof(err)) == -EINVAL);
	CHECK(cmdline_init(&cl, bad_uint, 1, err, sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "parameter table: 'n'") != NULL);
	CHECK(cmdline_init(&cl, bad_quick, 1, err, sizeof(err)) == -EINVAL);
	CHECK(cmdline_init(&cl, kfront_params, kfront_nparams, err,
			   sizeof(err)) == 0);
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
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), HARNESS_MAX_RUNS);
	snprintf(line, sizeof(line), "runs=%d", HARNESS_MAX_RUNS + 1);
	CHECK(cmdline_parse(&cl, line, kfront_params, kfront_nparams, err,
			    sizeof(err)) == -EINVAL);
	snprintf(line, sizeof(line), "from 1 to %d", HARNESS_MAX_RUNS);
	CHECK(strstr(err, line) != NULL);
}

/* A file's NULs at its end are its end; one inside it is refused, not
 * taken as the end with what follows it dropped. */
static void test_nul_in_a_file(void)
{
	static const char ends[] = "runs=5 quick\0\0";
	static const char inside[] = "runs=5\0runs=bogus";

	CHECK(cmdline_init(&cl, specs, ARRAY_SIZE(specs), err, sizeof(err)) == 0);
	CHECK(cmdline_add_bytes(&cl, ends, sizeof(ends) - 1, "fw_cfg", err,
				sizeof(err)) == 0);
	CHECK_EQ_U64(cmdline_uint(&cl, "runs"), 5);
	CHECK_STR(cl.text, "runs=5 quick");
	CHECK_EQ_U64(cl.given_len, strlen("runs=5 quick"));
	CHECK(cmdline_init(&cl, specs, ARRAY_SIZE(specs), err, sizeof(err)) == 0);
	CHECK(cmdline_add_bytes(&cl, inside, sizeof(inside) - 1, "fw_cfg", err,
				sizeof(err)) == -EINVAL);
	CHECK(strstr(err, "byte 0x00 at offset 6 of the fw_cfg") != NULL);
}

/* A long value is quoted by its start and length, so that the message
 * still says which key it was for and what is valid. */
static void test_long_values_are_clipped(void)
{
	char line[700], buf[CMDLINE_CLIP_BUF];

	snprintf(line, sizeof(line), "runs=");
	memset(line + 5, '9', 600);
	line[605] = '\0';
	CHECK(parse(line) == -EINVAL);
	CHECK(strlen(err) < 256);
	CHECK(strstr(err, "... (600 bytes)' for 'runs': expected an integer from 1 to 1000") != NULL);
	memset(line, 'x', 600);
	line[600] = '\0';
	CHECK(parse(line) == -EINVAL);
	CHECK(strstr(err, "... (600 bytes)'; valid keys: bench, runs") != NULL);
	CHECK(cmdline_clip(buf, sizeof(buf), "short") != buf);
	CHECK_STR(cmdline_clip(buf, sizeof(buf), "short"), "short");
	memset(line, 'y', CMDLINE_CLIP_MAX);
	line[CMDLINE_CLIP_MAX] = '\0';
	CHECK_STR(cmdline_clip(buf, sizeof(buf), line), line);
	line[CMDLINE_CLIP_MAX] = 'y';
	line[CMDLINE_CLIP_MAX + 1] = '\0';
	CHECK(strlen(cmdline_clip(buf, sizeof(buf), line)) < CMDLINE_CLIP_MAX + 1);
}

/* The mode check of kfront's own table: a key no part of the boot reads. */
static int mode_of(const char *line)
{
	err[0] = '\0';
	CHECK(cmdline_parse(&cl, line, kfront_params, kfront_nparams, err,
			    sizeof(err)) == 0);
	return params_check_mode(&cl, err, sizeof(err));
}

static void test_keys_of_the_other_mode(void)
{
	/* every key says who reads it: one that said nothing would be
	 * refused in every mode */
	for (size_t i = 0; i < kfront_nparams; i++)
		CHECK(kfront_params[i].readers != 0);
	CHECK(mode_of("bench=net.* runs=3 quick exit=halt") == 0);
	CHECK(mode_of("bench=net.wire_rr peer=10.0.2.2:5001 ip=10.0.2.15/24 "
		      "gw=10.0.2.2 nic=virtio pci=cf8") == 0);
	CHECK(mode_of("serve=echo ip=10.0.2.15/24 nic=e1000 serve_idle_ms=500 "
		      "exit=halt") == 0);
	CHECK(mode_of("serve=echo runs=3") == -EINVAL);
	CHECK(strstr(err, "'runs' has no effect with serve=") != NULL);
	CHECK(mode_of("serve=echo quick") == -EINVAL);
	CHECK(mode_of("serve=echo peer=10.0.2.2:5001") == -EINVAL);
	CHECK(mode_of("ip=garbage") == -EINVAL);
	CHECK(strstr(err, "'ip' sets up the real NIC of peer=") != NULL);
	CHECK(mode_of("bench=none nic=foo") == -EINVAL);
	CHECK(mode_of("pci=ecam") == -EINVAL);
	CHECK(mode_of("serve_idle_ms=500") == -EINVAL);
	CHECK(strstr(err, "'serve_idle_ms' has no effect without serve=") != NULL);
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
	test_defaults_come_from_the_table();
	test_kfront_defaults();
	test_enum_choices_decode_by_name();
	test_inconsistent_specs_refused();
	test_bytes_that_need_escaping();
	test_runs_range_is_the_harness_limit();
	test_nul_in_a_file();
	test_long_values_are_clipped();
	test_keys_of_the_other_mode();
	return check_report("cmdline");
}
