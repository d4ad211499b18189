/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Linked into the instrumented plugin only (pgo_build.py): QEMU ends the
 * plugin without running the shared object's destructors, so the plugin's
 * at-exit callback writes the profile counts itself.
 */
#include "fesim.h"

void __gcov_dump(void);

void fesim_pgo_dump(void)
{
	__gcov_dump();
}
