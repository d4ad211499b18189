/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Suite runner: describes the machine, runs the selected benchmarks. */
#include <kfront/exit.h>
#include <kfront/printk.h>
#include <kfront/record.h>
#include <kfront/string.h>
#include <kfront/suite.h>
#include <kfront/version.h>

static struct record rec;

static void emit_suite_begin(const struct cmdline *cl)
{
	rec_begin(&rec, "suite_begin");
	rec_str(&rec, "kfront", KFRONT_VERSION);
	rec_str(&rec, "git", KFRONT_GIT);
	rec_str(&rec, "cmdline", cl->text);
	rec_emit(&rec);
}

static void emit_suite_end(int status)
{
	rec_begin(&rec, "suite_end");
	rec_u64(&rec, "records", rec_count());
	rec_u64(&rec, "status", (u64)status);
	rec_emit(&rec);
}

int suite_main(const struct cmdline *cl, const struct bootinfo *bi)
{
	const char *bench = cmdline_str(cl, "bench", "*");

	emit_suite_begin(cl);
	if (strcmp(bench, "none"))
		printk("kfront: no benchmarks yet\n");
	emit_suite_end(EXIT_OK);
	return EXIT_OK;
}
