/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kernel_exit: end the run as the command line asked (exit=). */
#include <kfront/drivers.h>
#include <kfront/exit.h>
#include <kfront/printk.h>

static enum exit_mode exit_mode = EXIT_MODE_AUTO;

void exit_set_mode(enum exit_mode mode)
{
	exit_mode = mode;
}

void kernel_exit(int status)
{
	enum exit_mode mode = exit_mode;

	if (mode == EXIT_MODE_AUTO)
		mode = fw_cfg_present() ? EXIT_MODE_QEMU : EXIT_MODE_HALT;
	printk("kfront: exit status %d (%s)\n", status, exit_mode_names[mode]);
	/* isa-debug-exit only under QEMU: never poke unknown ports. */
	if (mode == EXIT_MODE_QEMU && fw_cfg_present())
		qemu_debug_exit(status);
	if (mode == EXIT_MODE_REBOOT)
		machine_reboot();
	machine_halt();
}
