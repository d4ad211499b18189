/* SPDX-License-Identifier: GPL-2.0-or-later */
/* placement=: the physical pages the kernel's code runs from
 * (kernel/text_placement.c). */
#ifndef KFRONT_TEXT_PLACEMENT_H
#define KFRONT_TEXT_PLACEMENT_H

#include <kfront/types.h>

struct cmdline;
struct record;

/* Copy the code where placement= asks (nothing for "loaded"). On a bad
 * value or no room: a message in err and a negative errno, and the code
 * stays where it was. */
int text_placement_apply(const struct cmdline *cl, char *err, size_t errlen);
/* suite_begin's config.placement: how, text_pa, page, text_bytes. */
void text_placement_describe(struct record *rec);

#endif
