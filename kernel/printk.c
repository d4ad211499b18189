/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printk and the console list. Text is also kept in a small ring buffer so
 * a machine without a working UART still has its log in memory. */
#include <kfront/console.h>
#include <kfront/printk.h>
#include <kfront/string.h>

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

#define PRINTK_LINE_MAX	512
#define TRUNC_MARK	"..."

static bool ends_line(const char *fmt)
{
	size_t n = strlen(fmt);

	return n && fmt[n - 1] == '\n';
}

/*
 * A message longer than the buffer is cut, marked "...", and keeps the
 * line ending its format asked for: without it the next line, maybe a
 * record, would run on behind the cut and be lost to the collector.
 */
static size_t mark_truncated(char *buf, size_t size, bool newline)
{
	size_t end = size - 1 - (newline ? 1 : 0) - (sizeof(TRUNC_MARK) - 1);

	memcpy(buf + end, TRUNC_MARK, sizeof(TRUNC_MARK) - 1);
	end += sizeof(TRUNC_MARK) - 1;
	if (newline)
		buf[end++] = '\n';
	buf[end] = '\0';
	return end;
}

int vprintk(const char *fmt, va_list ap)
{
	char buf[PRINTK_LINE_MAX];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);
	size_t len = (size_t)n;

	if (n < 0)
		return n;
	if (len >= sizeof(buf))
		len = mark_truncated(buf, sizeof(buf), ends_line(fmt));
	console_write(buf, len);
	return n;
}
