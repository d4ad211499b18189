/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Exception frames and the descriptor-table set-up of the boot CPU. */
#ifndef ASM_TRAPS_H
#define ASM_TRAPS_H

#include <kfront/compiler.h>
#include <kfront/types.h>

/* Layout pushed by arch/x86/exception_entry.asm; keep them in step. */
struct pt_regs {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code;
	u64 rip, cs, rflags, rsp, ss;
};
BUILD_BUG_ON(sizeof(struct pt_regs) != 22 * 8);

#define X86_TRAP_DE	0
#define X86_TRAP_UD	6
#define X86_TRAP_DF	8
#define X86_TRAP_GP	13
#define X86_TRAP_PF	14

#define KERNEL_CS	0x08
#define KERNEL_DS	0x10
#define KERNEL_TSS	0x18

/* IST slots (1-based as in the IDT gate): faults that must not use the
 * possibly broken current stack get their own. */
#define IST_DOUBLE_FAULT 1
#define IST_NMI		2
#define IST_MCE		3

void gdt_init(void);
void idt_init(void);
void idt_set_interrupt(unsigned vec, void (*handler)(void));
const char *x86_trap_name(unsigned vector);
void x86_trap(struct pt_regs *regs);

#endif
