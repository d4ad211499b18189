/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Console drivers: printk writes to every registered console. */
#ifndef KFRONT_CONSOLE_H
#define KFRONT_CONSOLE_H

#include <kfront/types.h>

struct console {
	const char *name;
	void (*write)(const char *s, size_t len);
	struct console *next;
};

void console_register(struct console *con);

#endif
