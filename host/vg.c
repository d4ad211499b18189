/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Callgrind region marks: under `valgrind --tool=callgrind`, each
 * measured region zeroes the counts as it begins and dumps them as it
 * ends, as one part named "kfront-region-SEQ" (SEQ being the harness's
 * region number, which result records list per run). So a dump holds
 * exactly the region's instructions and simulated cache misses. Outside
 * valgrind this costs one predictable branch per mark. */
#include <stdio.h>
#ifdef KFRONT_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#else
/* Built without valgrind's header: never under callgrind, as far as the
 * harness can tell. */
#define RUNNING_ON_VALGRIND		0
#define CALLGRIND_ZERO_STATS		do { } while (0)
#define CALLGRIND_DUMP_STATS_AT(name)	do { (void)(name); } while (0)
#endif

#include <kfront/compiler.h>
#include "host.h"

static bool active;
static char dump_name[40];

bool vg_init(void)
{
	active = RUNNING_ON_VALGRIND;
	return active;
}

__measured_path bool vg_active(void)
{
	return active;
}

__measured_path void vg_region_begin(u64 seq)
{
	snprintf(dump_name, sizeof(dump_name), "kfront-region-%llu",
		 (unsigned long long)seq);
	CALLGRIND_ZERO_STATS;
}

__measured_path void vg_region_end(void)
{
	CALLGRIND_DUMP_STATS_AT(dump_name);
}
