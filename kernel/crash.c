/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fault injection (crash=) so the boot tests can prove the panic path. */
#include <kfront/arch.h>
#include <kfront/panic.h>
#include <kfront/printk.h>
#include <kfront/suite.h>

void crash_inject(const char *kind)
{
	printk("kfront: injecting fault '%s'\n", kind);
	if (kind[0] == 'p' && kind[1] == 'a')	/* "panic" */
		panic("panic requested on the command line (crash=panic)");
	arch_crash(kind);
	panic("crash=%s did not fault", kind);
}
