/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fesim system-mode test kernel: multiboot v1 entry, long mode, exit. */

/*
 * QEMU's -kernel loads multiboot v1 images in 32-bit protected mode with
 * paging off. We identity-map the first 1 GiB with 2 MiB pages, enter long
 * mode, run stub_main() and report its value to isa-debug-exit (port 0xf4;
 * QEMU exits with (value << 1) | 1). Only for testing fesim in system mode
 * until the kfront kernel boots; nothing here is kfront's boot code.
 */
#define MB_MAGIC	0x1badb002
#define MB_FLAGS	0x00000003	/* page-align modules, memory info */

	.section .multiboot, "a"
	.balign 4
	.long MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

	.section .bss
	.balign 4096
pml4:	.skip 4096
pdpt:	.skip 4096
pd:	.skip 4096
stack:	.skip 16384
stack_top:

	.section .rodata
	.balign 8
gdt:	.quad 0
	.quad 0x00af9a000000ffff	/* 0x08: 64-bit code, DPL 0 */
	.quad 0x00cf92000000ffff	/* 0x10: data */
gdt_end:
gdtr:	.word gdt_end - gdt - 1
	.long gdt

	.text
	.code32
	.globl _start
_start:
	cli
	mov $stack_top, %esp
	/* PD: 512 x 2 MiB, present | writable | page size */
	mov $pd, %edi
	xor %ecx, %ecx
1:	mov %ecx, %eax
	shl $21, %eax
	or $0x83, %eax
	mov %eax, (%edi, %ecx, 8)
	movl $0, 4(%edi, %ecx, 8)
	inc %ecx
	cmp $512, %ecx
	jne 1b
	movl $pd + 3, pdpt		/* present | writable */
	movl $pdpt + 3, pml4
	mov $pml4, %eax
	mov %eax, %cr3
	mov %cr4, %eax
	or $(1 << 5), %eax		/* CR4.PAE */
	mov %eax, %cr4
	mov $0xc0000080, %ecx		/* EFER */
	rdmsr
	or $(1 << 8), %eax		/* EFER.LME */
	wrmsr
	mov %cr0, %eax
	or $0x80000001, %eax		/* CR0.PG | CR0.PE */
	mov %eax, %cr0
	lgdt gdtr
	ljmp $0x08, $long_mode

	.code64
long_mode:
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov $stack_top, %rsp
	call stub_main
	mov %eax, %eax
	mov $0xf4, %dx
	out %eax, %dx			/* isa-debug-exit: QEMU exits */
2:	hlt
	jmp 2b

	.section .note.GNU-stack, "", @progbits
