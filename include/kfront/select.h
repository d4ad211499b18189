/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Name selection for bench= and variant=: comma-separated globs. */
#ifndef KFRONT_SELECT_H
#define KFRONT_SELECT_H

#include <kfront/types.h>

/* Longest item of a bench= or variant= list, with its NUL. */
#define SELECT_ITEM_MAX	64

/* Shell-style glob: '*' any run, '?' one character. */
bool glob_match(const char *pat, const char *name);
/* Copy the next comma-separated item of *list into item and step past
 * it. Returns its length (0: an empty item), or -E2BIG when it does not
 * fit in size bytes (item is then empty). */
int select_next_item(const char **list, char *item, size_t size);
/* True if name matches any pattern of the comma-separated list. */
bool select_match(const char *list, const char *name);
/* Parse a comma-separated list of decimal numbers; returns the count or
 * -EINVAL for an empty item, a non-number or more than max entries. */
int parse_u32_list(const char *list, u32 *out, int max);

#endif
