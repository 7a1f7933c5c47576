/*
 * 8250/16550 UART on COM1: the kernel console. Polled output only; the
 * caller (printk) serialises whole lines.
 */
#include <kernel/types.h>
#include <kernel/console.h>
#include <kernel/io.h>

#define COM1		0x3f8
#define UART_THR	0	/* transmit holding register */
#define UART_IER	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_DLL	0	/* divisor latch, with LCR.DLAB set */
#define UART_DLM	1
#define LSR_THRE	0x20	/* transmitter holding register empty */

void serial8250_init(void)
{
	outb(COM1 + UART_IER, 0x00);	/* no interrupts: we poll */
	outb(COM1 + UART_LCR, 0x80);	/* DLAB on */
	outb(COM1 + UART_DLL, 1);	/* 115200 baud */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, 0x03);	/* 8N1, DLAB off */
	outb(COM1 + UART_FCR, 0xc7);	/* FIFO on, cleared */
	outb(COM1 + UART_MCR, 0x03);	/* DTR, RTS */
}

static void serial8250_putc(char c)
{
	/* Bounded wait: a missing UART must not hang the console. */
	for (int i = 0; i < 100000 && !(inb(COM1 + UART_LSR) & LSR_THRE); i++)
		;
	outb(COM1 + UART_THR, (u8)c);
}

void serial8250_write(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\n')
			serial8250_putc('\r');
		serial8250_putc(s[i]);
	}
}
