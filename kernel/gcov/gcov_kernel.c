/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's end of profile training: the .gcov_info section the linker
 * script gathers, and the one libgcov symbol instrumented code refers to.
 * No libgcov is linked: the counters leave as records, never as files.
 */
#include <kfront/gcov.h>

extern const struct gcov_info *const __gcov_info_start[];
extern const struct gcov_info *const __gcov_info_end[];

/*
 * gcov_info.merge[] points at libgcov's merge function for each counted
 * type. libgcov calls it when it adds a run to an existing .gcda; here the
 * host writes each .gcda once, from one run, so it is never called.
 */
void __gcov_merge_add(gcov_type *counters, u32 n);
void __gcov_merge_add(gcov_type *counters, u32 n)
{
}

u32 gcov_emit_kernel(void)
{
	return gcov_emit(__gcov_info_start, __gcov_info_end);
}
