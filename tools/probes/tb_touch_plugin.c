/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A probe, not part of kfront: the floor under fesim's per-TB work
 * (docs/fesim-speed-log.md, "Where the time goes"). Every translated
 * block gets a record of RECORD_BYTES, as fesim's records average 446
 * bytes, and every execution of the block reads one 8-byte word from
 * each of the first lines=N 64-byte lines of its record and adds one to
 * the first. lines=0 touches no record (a global counter only). So the
 * slowdown with lines=N against plain TCG is what fetching N lines of
 * per-TB data costs at QEMU's rate of TB runs, before any simulation.
 *
 * Build and run (from the repository root):
 *   gcc -O2 -shared -fPIC -Itools/fesim -o /tmp/tb_touch.so \
 *       tools/probes/tb_touch_plugin.c
 *   qemu-system-x86_64 ... -plugin /tmp/tb_touch.so,lines=7
 * It prints the TB runs and the sum it read on stderr at exit (so that no
 * read is optimised away).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"

#define LINE_BYTES	64
#define RECORD_LINES	7
#define RECORD_BYTES	(RECORD_LINES * LINE_BYTES)

FESIM_EXPORT int qemu_plugin_version = FESIM_QEMU_PLUGIN_API;

static unsigned int lines;
static unsigned long long runs, sum;

static void tb_exec(unsigned int vcpu, void *udata)
{
	unsigned long long *rec = udata;
	unsigned int i;

	(void)vcpu;
	runs++;
	if (!rec)
		return;
	for (i = 0; i < lines; i++)
		sum += rec[i * (LINE_BYTES / sizeof(*rec))];
	rec[0]++;
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	void *rec = NULL;

	(void)id;
	if (lines) {
		/* records scattered over the heap, as fesim's are */
		if (posix_memalign(&rec, LINE_BYTES, RECORD_BYTES))
			abort();
		memset(rec, 0, RECORD_BYTES);
	}
	qemu_plugin_register_vcpu_tb_exec_cb(tb, tb_exec, QEMU_PLUGIN_CB_NO_REGS,
					     rec);
}

static void at_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	fprintf(stderr, "tb_touch: lines=%u tb_runs=%llu sum=%llu\n", lines,
		runs, sum);
}

FESIM_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				     const qemu_info_t *info, int argc,
				     char **argv)
{
	char *end;
	int i;

	(void)info;
	for (i = 0; i < argc; i++) {
		if (strncmp(argv[i], "lines=", 6) ||
		    (lines = (unsigned int)strtoul(argv[i] + 6, &end, 10),
		     *end || end == argv[i] + 6 || lines > RECORD_LINES)) {
			fprintf(stderr, "tb_touch: bad argument '%s' (lines=0..%d)\n",
				argv[i], RECORD_LINES);
			return -1;
		}
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
