/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel symbol table for panic reports. The build links the kernel once,
 * extracts its text symbols (tools/build/gen_ksyms.py) and links again
 * with the table in .ksyms; the first link carries an empty table. */
#ifndef KFRONT_KSYMS_H
#define KFRONT_KSYMS_H

#include <kfront/types.h>

struct ksym {
	u64 addr;
	u32 size;
	u32 name;	/* offset into ksym_names */
};

/* Name of the function containing addr and the offset into it, or NULL. */
const char *ksym_lookup(u64 addr, u64 *offset);

#endif
