/* SPDX-License-Identifier: GPL-2.0-or-later */
/* GDT and TSS of the boot CPU. The TSS exists for its interrupt stack
 * table: a double fault (e.g. a stack overflow into the guard page) must
 * run on a stack of its own or the CPU would triple-fault silently. */
#include <asm/traps.h>
#include <asm/stacks.h>
#include <kfront/string.h>

struct tss64 {
	u32 reserved0;
	u64 rsp[3];
	u64 reserved1;
	u64 ist[7];
	u64 reserved2;
	u16 reserved3;
	u16 iomap_base;
} __packed;
BUILD_BUG_ON(sizeof(struct tss64) != 104);

struct desc_ptr {
	u16 limit;
	u64 base;
} __packed;
BUILD_BUG_ON(sizeof(struct desc_ptr) != 10);

static struct tss64 boot_tss __aligned(64);

/* null, kernel code, kernel data, TSS (two slots in long mode) */
static u64 gdt[5] __aligned(16) = {
	0,
	0x00af9a000000ffffULL,	/* 64-bit code: P, DPL0, L */
	0x00cf92000000ffffULL,	/* data: P, DPL0, writable */
	0, 0,
};

static void set_tss_descriptor(u64 *slot, u64 base, u32 limit)
{
	slot[0] = (limit & 0xffffULL) |
		  ((base & 0xffffffULL) << 16) |
		  (0x89ULL << 40) |			/* P, type 9: TSS */
		  ((u64)((limit >> 16) & 0xf) << 48) |
		  (((base >> 24) & 0xffULL) << 56);
	slot[1] = base >> 32;
}

void gdt_init(void)
{
	struct desc_ptr ptr = { sizeof(gdt) - 1, (u64)gdt };

	memset(&boot_tss, 0, sizeof(boot_tss));
	boot_tss.ist[IST_DOUBLE_FAULT - 1] = stack_top(STACK_DOUBLE_FAULT);
	boot_tss.ist[IST_NMI - 1] = stack_top(STACK_NMI);
	boot_tss.ist[IST_MCE - 1] = stack_top(STACK_MCE);
	boot_tss.iomap_base = sizeof(boot_tss);	/* no I/O bitmap */
	set_tss_descriptor(&gdt[3], (u64)&boot_tss, sizeof(boot_tss) - 1);

	__asm__ __volatile__(
		"lgdt %0\n\t"
		"pushq %1\n\t"
		"leaq 1f(%%rip), %%rax\n\t"
		"pushq %%rax\n\t"
		"lretq\n"
		"1:\n\t"
		"movw %w2, %%ax\n\t"
		"movw %%ax, %%ds\n\t"
		"movw %%ax, %%es\n\t"
		"movw %%ax, %%ss\n\t"
		"ltr %w3"
		: : "m"(ptr), "i"(KERNEL_CS), "i"(KERNEL_DS), "r"(KERNEL_TSS)
		: "rax", "memory");
}
