/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU exceptions: an exception-table fixup for instructions that are
 * allowed to fault (rdmsr/wrmsr/rdpmc probes), otherwise a readable panic
 * report with the registers and the symbol of the faulting instruction. */
#include <asm/stacks.h>
#include <asm/traps.h>
#include <asm/x86.h>
#include <kfront/exit.h>
#include <kfront/ksyms.h>
#include <kfront/panic_report.h>
#include <kfront/printk.h>

struct ex_entry {
	u64 insn;
	u64 fixup;
};

extern const struct ex_entry __ex_table_start[], __ex_table_end[];

volatile u8 x86_fixup_vector;

static const char *const trap_names[32] = {
	"divide error (#DE)", "debug (#DB)", "NMI", "breakpoint (#BP)",
	"overflow (#OF)", "bound range (#BR)", "invalid opcode (#UD)",
	"device not available (#NM)", "double fault (#DF)",
	"coprocessor segment overrun", "invalid TSS (#TS)",
	"segment not present (#NP)", "stack fault (#SS)",
	"general protection (#GP)", "page fault (#PF)", "reserved 15",
	"x87 floating point (#MF)", "alignment check (#AC)",
	"machine check (#MC)", "SIMD floating point (#XM)",
	"virtualization (#VE)", "control protection (#CP)", "reserved 22",
	"reserved 23", "reserved 24", "reserved 25", "reserved 26",
	"reserved 27", "hypervisor injection (#HV)",
	"VMM communication (#VC)", "security (#SX)", "reserved 31",
};

const char *x86_trap_name(unsigned vector)
{
	return vector < 32 ? trap_names[vector] : "unknown";
}

static bool try_fixup(struct pt_regs *regs)
{
	for (const struct ex_entry *e = __ex_table_start; e < __ex_table_end; e++) {
		if (e->insn == regs->rip) {
			x86_fixup_vector = (u8)regs->vector;
			regs->rip = e->fixup;
			return true;
		}
	}
	return false;
}

static void fill_report(struct panic_report *r, const struct pt_regs *regs)
{
	u64 cr2 = read_cr2();
	const char *guard = stack_guard_owner(cr2);

	r->cpu_exception = true;
	r->vector = (u8)regs->vector;
	r->name = x86_trap_name((unsigned)regs->vector);
	r->error_code = regs->error_code;
	r->rip = regs->rip;
	r->cr2 = cr2;
	r->rsp = regs->rsp;
	r->regs = regs;
	if ((regs->vector == X86_TRAP_PF || regs->vector == X86_TRAP_DF) && guard)
		snprintf(r->msg, sizeof(r->msg),
			 "stack overflow: %s stack guard page hit", guard);
	else
		snprintf(r->msg, sizeof(r->msg), "unhandled CPU exception");
}

void x86_trap(struct pt_regs *regs)
{
	struct panic_report r = { 0 };

	if (regs->vector != X86_TRAP_DF && try_fixup(regs))
		return;
	fill_report(&r, regs);
	panic_report_emit(&r);
	kernel_exit(EXIT_PANIC);
}

/* Print the general registers; called by the panic report. */
void arch_dump_regs(const void *p)
{
	const struct pt_regs *regs = p;

	printk("RAX=%016lx RBX=%016lx RCX=%016lx RDX=%016lx\n",
	       regs->rax, regs->rbx, regs->rcx, regs->rdx);
	printk("RSI=%016lx RDI=%016lx RBP=%016lx RSP=%016lx\n",
	       regs->rsi, regs->rdi, regs->rbp, regs->rsp);
	printk("R8 =%016lx R9 =%016lx R10=%016lx R11=%016lx\n",
	       regs->r8, regs->r9, regs->r10, regs->r11);
	printk("R12=%016lx R13=%016lx R14=%016lx R15=%016lx\n",
	       regs->r12, regs->r13, regs->r14, regs->r15);
	printk("CS=%04lx SS=%04lx RFLAGS=%016lx CR0=%016lx CR3=%016lx CR4=%016lx\n",
	       regs->cs, regs->ss, regs->rflags, read_cr0(), read_cr3(),
	       read_cr4());
}
