/* SPDX-License-Identifier: GPL-2.0-or-later */
/* 16550 UART on COM1, polled, 115200 8N1 with FIFOs. If no UART answers
 * (a board without COM1), the console is simply not registered. */
#include <asm/x86.h>
#include <kfront/console.h>
#include <kfront/drivers.h>

#define COM1		0x3f8
#define UART_THR	0	/* transmit holding (DLAB=0) */
#define UART_DLL	0	/* divisor latch low (DLAB=1) */
#define UART_IER	1	/* interrupt enable (DLAB=0) */
#define UART_DLM	1	/* divisor latch high (DLAB=1) */
#define UART_FCR	2	/* FIFO control */
#define UART_LCR	3	/* line control */
#define UART_MCR	4	/* modem control */
#define UART_LSR	5	/* line status */
#define UART_SCR	7	/* scratch */

#define LCR_8N1		0x03
#define LCR_DLAB	0x80
#define FCR_ENABLE_CLEAR 0xc7	/* enable, clear both FIFOs, 14-byte trigger */
#define MCR_DTR_RTS_OUT2 0x0b
#define MCR_LOOPBACK	0x10
#define LSR_THRE	0x20	/* transmit holding register empty */
#define LSR_DR		0x01

#define UART_CLOCK	115200
#define TX_SPIN_LIMIT	100000	/* give up on a wedged UART, do not hang */

static bool uart_present;

static void uart_putc(char c)
{
	for (int i = 0; i < TX_SPIN_LIMIT; i++) {
		if (inb(COM1 + UART_LSR) & LSR_THRE)
			break;
		cpu_relax();
	}
	outb(COM1 + UART_THR, (u8)c);
}

static void uart_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		/* Serial terminals and capture tools expect CR LF. */
		if (s[i] == '\n' && (i == 0 || s[i - 1] != '\r'))
			uart_putc('\r');
		uart_putc(s[i]);
	}
}

static struct console uart_console = {
	.name = "ttyS0",
	.write = uart_write,
};

/* A UART exists if the scratch register holds a value and loopback mode
 * echoes a byte back; an empty port reads 0xff and echoes nothing. */
static bool uart_probe(void)
{
	outb(COM1 + UART_SCR, 0x5a);
	if (inb(COM1 + UART_SCR) != 0x5a)
		return false;
	outb(COM1 + UART_MCR, MCR_LOOPBACK);
	outb(COM1 + UART_THR, 0xae);
	for (int i = 0; i < 1000 && !(inb(COM1 + UART_LSR) & LSR_DR); i++)
		io_delay();
	return inb(COM1 + UART_THR) == 0xae;
}

bool uart_init(unsigned baud)
{
	u16 div = (u16)(UART_CLOCK / baud);

	outb(COM1 + UART_IER, 0x00);		/* polled: no interrupts */
	outb(COM1 + UART_LCR, LCR_DLAB);
	outb(COM1 + UART_DLL, div & 0xff);
	outb(COM1 + UART_DLM, div >> 8);
	outb(COM1 + UART_LCR, LCR_8N1);	/* 8 bits, no parity, 1 stop */
	outb(COM1 + UART_FCR, FCR_ENABLE_CLEAR);
	uart_present = uart_probe();
	outb(COM1 + UART_MCR, MCR_DTR_RTS_OUT2);	/* normal operation */
	if (uart_present)
		console_register(&uart_console);
	return uart_present;
}
