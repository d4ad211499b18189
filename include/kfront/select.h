/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Name selection for bench= and variant=: comma-separated globs. */
#ifndef KFRONT_SELECT_H
#define KFRONT_SELECT_H

#include <kfront/types.h>

/* Shell-style glob: '*' any run, '?' one character. */
bool glob_match(const char *pat, const char *name);
/* True if name matches any pattern of the comma-separated list. */
bool select_match(const char *list, const char *name);
/* True if name is one of the list's items exactly (no glob). */
bool select_exact(const char *list, const char *name);
/* Parse a comma-separated list of decimal numbers; returns the count or
 * -EINVAL for an empty item, a non-number or more than max entries. */
int parse_u32_list(const char *list, u32 *out, int max);

#endif
