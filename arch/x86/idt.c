/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IDT of the boot CPU: gates for the 32 CPU exceptions. Interrupts stay
 * masked in kfront (the benchmarks poll), so no IRQ vectors are set. */
#include <asm/traps.h>

struct idt_gate {
	u16 offset_lo;
	u16 selector;
	u8 ist;
	u8 type_attr;
	u16 offset_mid;
	u32 offset_hi;
	u32 reserved;
} __packed;
BUILD_BUG_ON(sizeof(struct idt_gate) != 16);

struct idt_ptr {
	u16 limit;
	u64 base;
} __packed;

#define GATE_INTERRUPT	0x8e	/* P, DPL0, 64-bit interrupt gate (IF off) */

extern const u64 trap_stubs[32];
static struct idt_gate idt[256] __aligned(16);

static void set_gate(unsigned vec, u64 handler, u8 ist)
{
	struct idt_gate *g = &idt[vec];

	g->offset_lo = handler & 0xffff;
	g->selector = KERNEL_CS;
	g->ist = ist;
	g->type_attr = GATE_INTERRUPT;
	g->offset_mid = (handler >> 16) & 0xffff;
	g->offset_hi = handler >> 32;
	g->reserved = 0;
}

/* An interrupt (not exception) vector: IF is cleared on entry. */
void idt_set_interrupt(unsigned vec, void (*handler)(void))
{
	set_gate(vec, (u64)handler, 0);
}

void idt_init(void)
{
	struct idt_ptr ptr = { sizeof(idt) - 1, (u64)idt };

	for (unsigned v = 0; v < 32; v++) {
		u8 ist = 0;

		if (v == X86_TRAP_DF)
			ist = IST_DOUBLE_FAULT;
		else if (v == 2)
			ist = IST_NMI;
		else if (v == 18)
			ist = IST_MCE;
		set_gate(v, trap_stubs[v], ist);
	}
	__asm__ __volatile__("lidt %0" : : "m"(ptr) : "memory");
}
