/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * placement= and textpages=: which physical pages the kernel's code runs
 * from, how big they are, and the record of it. On a real CPU the code's
 * physical addresses pick its L2 and L3 sets; a verdict measured from
 * one placement holds for that placement (docs/statistics.md, "Where the
 * code lands"). Booting the same image with several placements samples
 * them, and the suite_begin record says which one each boot had, so a
 * figure can be traced to it and a placement repeated. With 2 MiB pages,
 * as Linux maps its text, the bits below 21 no longer vary.
 */
#include <kfront/arch.h>
#include <kfront/cmdline.h>
#include <kfront/counters.h>
#include <kfront/errno.h>
#include <kfront/mm.h>
#include <kfront/printk.h>
#include <kfront/record.h>
#include <kfront/string.h>
#include <kfront/text_placement.h>

#define REGION_PAGES	(ARCH_TEXT_REGION / PAGE_SIZE)

/* "loaded", "given" or "random": what placement= asked for. */
static const char *how = "loaded";

int text_pages_choose(const struct cmdline *cl, char *err, size_t errlen)
{
	if (cmdline_uint(cl, "textpages") != TEXT_PAGES_2M)
		return 0;
	/* A copy at page N of a 2 MiB region would need 4 KiB pages: in a
	 * 2 MiB page the code's physical page offsets are its virtual
	 * ones. */
	if (strcmp(cmdline_str(cl, "placement"), "loaded")) {
		snprintf(err, errlen,
			 "placement=%s needs textpages=4k: with 2 MiB pages the code's physical page offsets are fixed by its addresses",
			 cmdline_str(cl, "placement"));
		return -EINVAL;
	}
	if (!arch_text_large_pages()) {
		snprintf(err, errlen,
			 "textpages=2m: this image's text does not fill whole 2 MiB pages");
		return -EINVAL;
	}
	printk("kfront: textpages: code mapped with 2 MiB pages\n");
	return 0;
}

/* A page from the TSC, mixed so that its low bits, which advance
 * steadily from reset, do not give neighbouring boots neighbouring
 * pages (a 64-bit multiplicative hash, top bits kept). */
static u32 random_page(void)
{
	u64 h = counters_tsc() * 0x9e3779b97f4a7c15ULL;

	return (u32)(h >> 55) % REGION_PAGES;
}

int text_placement_apply(const struct cmdline *cl, char *err, size_t errlen)
{
	const char *v = cmdline_str(cl, "placement");
	u64 page;
	int ret;

	if (!strcmp(v, "loaded"))
		return 0;
	if (!strcmp(v, "random")) {
		page = random_page();
		how = "random";
	} else if (!cmdline_parse_uint(v, &page) && page < REGION_PAGES) {
		how = "given";
	} else {
		snprintf(err, errlen,
			 "placement=%s: expected loaded, random or a page number 0-%llu",
			 v, (unsigned long long)REGION_PAGES - 1);
		return -EINVAL;
	}
	ret = arch_text_place((u32)page);
	if (ret) {
		snprintf(err, errlen,
			 "placement=%s: no free run of %llu KiB for a copy of the kernel's code at page %llu of a 2 MiB region",
			 v, (unsigned long long)(arch_text_bytes() >> 10) +
			 (ARCH_TEXT_REGION >> 10), (unsigned long long)page);
		return ret;
	}
	printk("kfront: placement: code copied to physical 0x%llx (page %llu of a 2 MiB region, %s)\n",
	       (unsigned long long)arch_text_phys(), (unsigned long long)page, how);
	return 0;
}

void text_placement_describe(struct record *rec)
{
	u64 pa = arch_text_phys();

	rec_obj_begin(rec, "placement");
	rec_str(rec, "how", how);
	rec_hex(rec, "text_pa", pa);
	rec_u64(rec, "page", (pa % ARCH_TEXT_REGION) / PAGE_SIZE);
	rec_u64(rec, "text_bytes", arch_text_bytes());
	rec_u64(rec, "page_bytes", arch_text_page_bytes());
	rec_obj_end(rec);
}
