/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Leaving the machine: QEMU's isa-debug-exit, reset, or halt. */
#include <asm/x86.h>
#include <kfront/drivers.h>

#define QEMU_DEBUG_EXIT_PORT	0xf4	/* -device isa-debug-exit,iobase=0xf4 */
#define KBC_STATUS		0x64
#define KBC_CMD_RESET		0xfe
#define KBC_INPUT_FULL		0x02

void qemu_debug_exit(int status)
{
	outl(QEMU_DEBUG_EXIT_PORT, (u32)status);
}

void machine_halt(void)
{
	for (;;) {
		cli();
		hlt();
	}
}

void machine_reboot(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) null_idt = { 0, 0 };

	/* Pulse the reset line through the 8042 keyboard controller. */
	for (int i = 0; i < 100000 && (inb(KBC_STATUS) & KBC_INPUT_FULL); i++)
		io_delay();
	outb(KBC_STATUS, KBC_CMD_RESET);
	for (int i = 0; i < 1000; i++)
		io_delay();
	/* No controller: an empty IDT turns the next trap into a triple fault. */
	__asm__ __volatile__("lidt %0; int3" : : "m"(null_idt));
	machine_halt();
}
