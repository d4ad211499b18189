/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --huge-text: run the program's code from one anonymous 2 MiB page
 * instead of its file's 4 KiB page-cache pages.
 *
 * Why: the page cache puts a program's code on whatever physical pages
 * it has free, and the L2 and L3 pick a line's set from its physical
 * address, so two processes of byte-identical programs can time one
 * variant differently (docs/statistics.md, "Where the code lands"). On a
 * 2 MiB page every set index bit of those caches below 2 MiB follows the
 * virtual address, which the link fixes. It is also how Linux maps its
 * own text. The program is linked with its code segment on a 2 MiB
 * boundary (host/meson.build) so that the page can cover it exactly.
 *
 * How: copy the code into a 2 MiB-aligned anonymous region advised for
 * transparent huge pages, make it read-execute, and mremap() it over the
 * code at the same address. The copy holds the same bytes, so the code
 * running when the mapping changes (the C library's mremap wrapper lies
 * in another object) goes on unaware. Whether the kernel gave a huge
 * page is read back from /proc/self/smaps and recorded.
 */
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include <kfront/record.h>
#include "host.h"

#define HUGE_PAGE	(2UL << 20)

struct segments {
	uintptr_t text, text_size;	/* the executable PT_LOAD */
	uintptr_t next;			/* lowest PT_LOAD above it, 0 if none */
};

static struct text_pages_state {
	bool asked;
	uintptr_t text, text_size;
	unsigned long huge_bytes;
	char note[160];
} state;

static int main_program(struct dl_phdr_info *info, size_t size, void *data)
{
	struct segments *s = data;

	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && !s->text) {
			s->text = info->dlpi_addr + ph->p_vaddr;
			s->text_size = ph->p_memsz;
		}
	}
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t at = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && at > s->text && (!s->next || at < s->next))
			s->next = at;
	}
	return 1;	/* the first object is the program itself */
}

/* AnonHugePages of the mapping that starts at addr, in bytes. */
static unsigned long huge_bytes_at(uintptr_t addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256];
	bool in = false;
	unsigned long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)
			in = start == addr;
		else if (in && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb << 10;
}

int text_pages_huge(char *err, size_t errlen)
{
	struct segments s = { 0 };
	uintptr_t len, raw, at;
	void *moved;

	state.asked = true;
	dl_iterate_phdr(main_program, &s);
	if (!s.text) {
		snprintf(err, errlen, "--huge-text: no executable segment found");
		return -1;
	}
	state.text = s.text;
	state.text_size = s.text_size;
	len = (s.text_size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (s.text % HUGE_PAGE || (s.next && s.next < s.text + len)) {
		snprintf(err, errlen, "--huge-text: the code segment (0x%lx, %lu bytes) "
			 "does not have 2 MiB pages to itself: the program was not linked "
			 "with -z max-page-size=0x200000",
			 (unsigned long)s.text, (unsigned long)s.text_size);
		return -1;
	}
	raw = (uintptr_t)mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == (uintptr_t)MAP_FAILED) {
		snprintf(err, errlen, "--huge-text: mmap: %s", strerror(errno));
		return -1;
	}
	at = (raw + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	if (at > raw)
		munmap((void *)raw, at - raw);
	if (raw + HUGE_PAGE > at)
		munmap((void *)(at + len), raw + HUGE_PAGE - at);
	if (madvise((void *)at, len, MADV_HUGEPAGE))
		snprintf(state.note, sizeof(state.note), "madvise(MADV_HUGEPAGE): %s",
			 strerror(errno));
	memcpy((void *)at, (const void *)s.text, s.text_size);
	if (mprotect((void *)at, len, PROT_READ | PROT_EXEC)) {
		snprintf(err, errlen, "--huge-text: mprotect: %s", strerror(errno));
		munmap((void *)at, len);
		return -1;
	}
	moved = mremap((void *)at, len, len, MREMAP_MAYMOVE | MREMAP_FIXED,
		       (void *)s.text);
	if (moved == MAP_FAILED) {
		snprintf(err, errlen, "--huge-text: mremap: %s", strerror(errno));
		munmap((void *)at, len);
		return -1;
	}
	state.huge_bytes = huge_bytes_at(s.text);
	if (!state.huge_bytes && !state.note[0])
		snprintf(state.note, sizeof(state.note), "the kernel gave 4 KiB pages "
			 "(/sys/kernel/mm/transparent_hugepage/enabled and defrag say when it would not)");
	return 0;
}

void text_pages_describe(struct record *rec)
{
	rec_obj_begin(rec, "text_pages");
	rec_str(rec, "asked", state.asked ? "huge" : "file");
	if (state.asked) {
		rec_u64(rec, "text_bytes", state.text_size);
		rec_u64(rec, "huge_bytes", state.huge_bytes);
		if (state.note[0])
			rec_str(rec, "note", state.note);
	}
	rec_obj_end(rec);
}
