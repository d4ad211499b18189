/* SPDX-License-Identifier: GPL-2.0-or-later */
/* arch/x86 side of include/kfront/arch.h. */
#include <asm/paging.h>
#include <asm/traps.h>
#include <asm/x86.h>
#include <kfront/arch.h>
#include <kfront/mm.h>
#include <kfront/string.h>

extern char __boot_start[], __kernel_end[];

void arch_early_init(void)
{
	gdt_init();
	idt_init();
}

const void *arch_early_phys(u64 pa)
{
	/* The boot page tables identity-map the first 4 GiB. */
	return pa < (4ULL << 30) ? (const void *)pa : NULL;
}

void arch_mm_init(const struct bootinfo *bi)
{
	paging_init(bi);
	page_alloc_init(bi, (u64)__boot_start,
			(u64)__kernel_end - KERNEL_VMA);
}

bool arch_hypervisor_present(void)
{
	u32 a, b, c, d;

	cpuid_count(1, 0, &a, &b, &c, &d);
	return c & (1u << 31);	/* CPUID.1:ECX[31]: hypervisor present */
}

u64 arch_virt_to_phys(const void *va)
{
	return virt_to_phys(va);
}

volatile void *arch_ioremap(u64 pa, u64 size)
{
	return ioremap(pa, size);
}

const void *arch_firmware_map(u64 pa, u64 size)
{
	if (pa + size >= pa && pa + size <= paging_direct_map_end())
		return phys_to_virt(pa);
	/* Tables in reserved memory above RAM (UEFI puts them anywhere
	 * below 4 GiB): the device window, a page or two per table. */
	return (const void *)ioremap(pa, size);
}

static void recurse_forever(volatile u64 *depth);
/* Called through a volatile pointer so the compiler neither sees nor
 * removes the unbounded recursion. */
static void (*volatile recurse_ptr)(volatile u64 *) = recurse_forever;

static __noinline void recurse_forever(volatile u64 *depth)
{
	volatile u8 pad[512];

	pad[0] = (u8)*depth;
	(*depth)++;
	recurse_ptr(depth);
	pad[1] = pad[0];	/* keep the frame: no tail call */
}

/* A return instruction placed in writable data: executing it must fault. */
static u8 data_ret[16] = { 0xc3 };

void arch_crash(const char *kind)
{
	volatile u64 zero = 0, depth = 0;
	void (*volatile fn)(void) = (void (*)(void))data_ret;

	if (!strcmp(kind, "ud"))
		__asm__ __volatile__("ud2");
	else if (!strcmp(kind, "pf"))
		*(volatile u64 *)0xdead000ULL = 1;	/* unmapped */
	else if (!strcmp(kind, "gp"))
		*(volatile u64 *)0x8000000000000000ULL = 1; /* non-canonical */
	else if (!strcmp(kind, "de"))
		__asm__ __volatile__("divq %1" : : "a"(1ULL), "r"(zero), "d"(0ULL));
	else if (!strcmp(kind, "stack"))
		recurse_forever(&depth);
	else if (!strcmp(kind, "wtext"))	/* W^X: text is read-only */
		*(volatile u8 *)(void *)arch_crash = 0x90;
	else if (!strcmp(kind, "xdata"))	/* NX: data is not executable */
		fn();
	else if (!strcmp(kind, "hang"))		/* for the boot-timeout test */
		for (;;) {
			cli();
			hlt();
		}
}
