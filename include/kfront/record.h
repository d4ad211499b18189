/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result records on serial (docs/record-format.md): one line each,
 * "#KF2 <seq> <crc32> <json>" (docs/record-format.md), built with a small JSON writer. */
#ifndef KFRONT_RECORD_H
#define KFRONT_RECORD_H

#include <kfront/types.h>

/*
 * suite_begin is the longest record: the machine description (over 2 KB
 * under QEMU, more with a PMU's events and eight variants' flags) plus a
 * command line of up to CMDLINE_MAX - 1 bytes. The collector's
 * MAX_PAYLOAD (tools/kfront/records.py) is the same number; a test
 * (tests/py/test_limits.py) keeps them equal.
 */
#define RECORD_PAYLOAD_MAX	8192
#define RECORD_MAX_DEPTH	8

struct record {
	const char *type;	/* "t" of the record being built */
	char buf[RECORD_PAYLOAD_MAX + 1];
	size_t len;
	bool overflow;
	int depth;
	bool first[RECORD_MAX_DEPTH];	/* no member written yet at depth */
	char closer[RECORD_MAX_DEPTH];	/* '}' or ']' to close each level */
};

void rec_begin(struct record *r, const char *type);
void rec_str(struct record *r, const char *key, const char *val);
void rec_u64(struct record *r, const char *key, u64 val);
void rec_s64(struct record *r, const char *key, s64 val);
void rec_hex(struct record *r, const char *key, u64 val);
void rec_bool(struct record *r, const char *key, bool val);
/* num / den as a JSON number with three decimals (no FPU needed). */
void rec_ratio3(struct record *r, const char *key, u64 num, u64 den);
void rec_obj_begin(struct record *r, const char *key);	/* key NULL in arrays */
void rec_obj_end(struct record *r);
void rec_arr_begin(struct record *r, const char *key);
void rec_arr_end(struct record *r);
void rec_arr_u64(struct record *r, u64 val);
void rec_arr_str(struct record *r, const char *val);
/* Close the object and print the line; returns the sequence number used.
 * An oversized record is replaced by an error record saying so. */
u64 rec_emit(struct record *r);
/* Number of records emitted so far in this boot. */
u64 rec_count(void);
/* Number of records replaced by an error record because they were too
 * long: any makes the run's final status EXIT_RECORD_LOST. */
u64 rec_lost_count(void);

/* Format one line from a finished payload (pure; host-tested). */
int rec_format_line(char *line, size_t len, u64 seq, const char *payload,
		    size_t plen);

#endif
