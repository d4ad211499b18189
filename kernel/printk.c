/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printk and the console list. Text is also kept in a small ring buffer so
 * a machine without a working UART still has its log in memory. */
#include <kfront/console.h>
#include <kfront/printk.h>

#define LOG_BUF_SIZE	16384

static struct console *consoles;
static char log_buf[LOG_BUF_SIZE];
static size_t log_head;

void console_register(struct console *con)
{
	con->next = consoles;
	consoles = con;
}

void console_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		log_buf[(log_head + i) % LOG_BUF_SIZE] = s[i];
	log_head += len;
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, len);
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[512];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	console_write(buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}
