/* SPDX-License-Identifier: GPL-2.0-or-later */
/* placement= and textpages=: the physical pages the kernel's code runs
 * from, and their size (kernel/text_placement.c). */
#ifndef KFRONT_TEXT_PLACEMENT_H
#define KFRONT_TEXT_PLACEMENT_H

#include <kfront/types.h>

struct cmdline;
struct record;

enum text_pages {
	TEXT_PAGES_4K,
	TEXT_PAGES_2M,
	TEXT_PAGES_COUNT,	/* names: text_pages_names (kernel/params.c) */
};
extern const char *const text_pages_names[TEXT_PAGES_COUNT];

/* textpages=: choose the text's page size, before the final page tables
 * are built (arch_mm_init). A message in err and -EINVAL if the image
 * cannot, or placement= asks for a copy, which moves 4 KiB pages. */
int text_pages_choose(const struct cmdline *cl, char *err, size_t errlen);

/* Copy the code where placement= asks (nothing for "loaded"). On a bad
 * value or no room: a message in err and a negative errno, and the code
 * stays where it was. */
int text_placement_apply(const struct cmdline *cl, char *err, size_t errlen);
/* suite_begin's config.placement: how, text_pa, page, text_bytes,
 * page_bytes. */
void text_placement_describe(struct record *rec);

#endif
