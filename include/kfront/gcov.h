/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arc profiles of the measured code, read in ring 0 (docs/pgo.md).
 *
 * A training variant is compiled with -fprofile-arcs -fprofile-update=single
 * -fprofile-info-section: GCC then increments counters inline and puts a
 * pointer to each object's struct gcov_info in the .gcov_info section
 * instead of registering it with libgcov from a constructor. The layout
 * below is GCC 12's (libgcc/libgcov.h, gcov-counter.def); the kernel walks
 * it and prints the counters as records, the host writes the .gcda files.
 */
#ifndef KFRONT_GCOV_H
#define KFRONT_GCOV_H

#include <kfront/types.h>

/* GCC 10 and later: arcs, interval, pow2, topn, indirect call, time
 * profiler, ior, and. Only arcs are used with -fprofile-arcs. */
#define GCOV_COUNTERS		8
#define GCOV_COUNTER_ARCS	0

typedef s64 gcov_type;

struct gcov_ctr_info {
	u32 num;		/* number of counters */
	gcov_type *values;
};

/* One function: only the counter types with a merge function in the
 * object's gcov_info have an entry in ctrs[], in type order. */
struct gcov_fn_info {
	const struct gcov_info *key;	/* the object that owns it (comdat) */
	u32 ident;
	u32 lineno_checksum;
	u32 cfg_checksum;
	struct gcov_ctr_info ctrs[];
};

typedef void (*gcov_merge_fn)(gcov_type *, u32);

struct gcov_info {
	u32 version;			/* GCOV_VERSION of the compiler */
	struct gcov_info *next;		/* unused: libgcov's list */
	u32 stamp;
	u32 checksum;			/* since GCC 12 */
	const char *filename;		/* the .gcda the compiler named */
	gcov_merge_fn merge[GCOV_COUNTERS];	/* NULL: type not counted */
	u32 n_functions;
	const struct gcov_fn_info *const *functions;
};

#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 12
#error "struct gcov_info here is GCC 12's layout (it gained checksum in 12.1)"
#endif

/* Values per gcov_ctr record: 256 counters of up to 20 digits fit a
 * record payload (RECORD_PAYLOAD_MAX) with room to spare. */
#define GCOV_VALUES_PER_RECORD	256

/* Print the objects in [begin, end) as gcov_obj, gcov_fn and gcov_ctr
 * records (docs/record-format.md). Returns the number of objects. */
u32 gcov_emit(const struct gcov_info *const *begin,
	      const struct gcov_info *const *end);

/* The kernel's own profile: every object in .gcov_info (none unless a
 * training variant is linked in). */
u32 gcov_emit_kernel(void);

#endif
