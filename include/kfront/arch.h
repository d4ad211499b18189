/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The narrow interface generic kernel code uses to reach arch/x86:
 * nothing else under arch/ is included from kernel/, drivers/ or bench/. */
#ifndef KFRONT_ARCH_H
#define KFRONT_ARCH_H

#include <kfront/bootinfo.h>
#include <kfront/types.h>

/* Descriptor tables and exception handlers. */
void arch_early_init(void);
/* Boot-time view of a physical address (identity map, before mm_init). */
const void *arch_early_phys(u64 pa);
/* Final page tables and the page allocator. */
void arch_mm_init(const struct bootinfo *bi);
/* textpages=2m: map the kernel's text with 2 MiB pages, as Linux maps
 * its own; called before arch_mm_init(). false if this image cannot
 * (the text does not fill whole 2 MiB pages). */
bool arch_text_large_pages(void);
/* Bytes per page of the text's mapping: 4096, or 2 MiB after the call
 * above. */
u64 arch_text_page_bytes(void);
/* placement=: run the kernel's text from a byte-identical copy that
 * starts `page` 4 KiB pages into a free ARCH_TEXT_REGION-aligned physical
 * region, at the same virtual addresses. 0, -EINVAL (page outside the
 * region, or the text is in 2 MiB pages) or -ENOMEM (no free run that
 * long). */
#define ARCH_TEXT_REGION	(2ULL << 20)
int arch_text_place(u32 page);
/* Physical address of the text's first page, where it runs now, and
 * the text's size in bytes (whole pages). */
u64 arch_text_phys(void);
u64 arch_text_bytes(void);
/* CPUID says we run under a hypervisor. */
bool arch_hypervisor_present(void);
/* Physical address of a kernel address (direct map or image): what a
 * device is given for DMA. */
u64 arch_virt_to_phys(const void *va);
/* Uncached mapping of size bytes of device memory (a PCI BAR) at pa;
 * NULL when the mapping window is full. */
volatile void *arch_ioremap(u64 pa, u64 size);
/* Read access to firmware memory (ACPI tables) at pa: the direct map
 * when it covers the range, else a new uncached mapping; NULL when
 * neither is possible. */
const void *arch_firmware_map(u64 pa, u64 size);
/* Fault injection for the boot tests: "ud", "pf", "gp", "de", "stack"
 * (guard page), "wtext" (write to text), "xdata" (execute data). */
void arch_crash(const char *kind);

#endif
