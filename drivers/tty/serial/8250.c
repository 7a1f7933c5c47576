/*
 * 8250/16550 UART on COM1: the kernel console ttyS0, registered with
 * printk from the first console initcall (before the kernel's first
 * line). Output is polled; the caller (printk) serialises whole lines. Input arrives by the receive
 * interrupt (IRQ 4) once init has run the initcalls, and goes to the tty
 * input layer (drivers/tty/tty_input.c): characters, and BREAK conditions
 * for Magic SysRq.
 */
#include <kernel/types.h>
#include <kernel/console.h>
#include <kernel/io.h>
#include <kernel/irq.h>
#include <kernel/init.h>
#include <kernel/printk.h>
#include <kernel/tty.h>
#include <kernel/errno.h>

#define COM1		0x3f8
#define UART_THR	0	/* transmit holding register */
#define UART_RBR	0	/* receive buffer register */
#define UART_IER	1
#define UART_FCR	2
#define UART_LCR	3
#define UART_MCR	4
#define UART_LSR	5
#define UART_DLL	0	/* divisor latch, with LCR.DLAB set */
#define UART_DLM	1
#define LSR_DR		0x01	/* data ready */
#define LSR_BI		0x10	/* break interrupt: the line was held low a whole character */
#define LSR_THRE	0x20	/* transmitter holding register empty */
#define LSR_TEMT	0x40	/* transmitter empty: holding and shift registers */
#define IER_RDI		0x01	/* interrupt on received data */
#define IER_RLSI	0x04	/* interrupt on receiver line status (break, errors) */
#define MCR_OUT2	0x08	/* on PCs, gates the UART's interrupt onto the ISA line */
#define COM1_IRQ	4

static void serial8250_init(void)
{
	outb(COM1 + UART_IER, 0x00);	/* no interrupts: we poll */
	outb(COM1 + UART_LCR, 0x80);	/* DLAB on */
	outb(COM1 + UART_DLL, 1);	/* 115200 baud */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, 0x03);	/* 8N1, DLAB off */
	outb(COM1 + UART_FCR, 0x07);	/* FIFO on, cleared, interrupt at 1 byte */
	outb(COM1 + UART_MCR, 0x03);	/* DTR, RTS */
}

/*
 * console=ttyS0,<options>: Linux's serial options "<baud>[<parity>[<bits>]]"
 * (115200n8) reprogram the line (kernel/printk/console.c matches the name).
 * A malformed option gets one warning, and the line stays as it is.
 */
#define BASE_BAUD	115200

/* Parse "<baud>[n|o|e[5-8]]" into a divisor and an LCR value; false if malformed. */
static bool parse_line_options(const char *o, u16 *divisor, u8 *lcr)
{
	unsigned long baud = 0;

	if (*o < '0' || *o > '9')
		return false;
	while (*o >= '0' && *o <= '9' && baud <= BASE_BAUD)
		baud = baud * 10 + (unsigned long)(*o++ - '0');
	if (!baud || baud > BASE_BAUD || BASE_BAUD % baud)
		return false;	/* the UART's clock divides exactly only into these rates */
	*divisor = (u16)(BASE_BAUD / baud);
	*lcr = 0x03;		/* 8 bits, no parity, 1 stop bit */
	if (*o == 'n' || *o == 'o' || *o == 'e') {
		*lcr |= *o == 'o' ? 0x08 : *o == 'e' ? 0x18 : 0;
		o++;
		if (*o >= '5' && *o <= '8')
			*lcr = (u8)((*lcr & ~0x03) | (*o++ - '5'));
	}
	return *o == '\0';
}

static int serial8250_console_setup(struct console *con, const char *options)
{
	u16 divisor;
	u8 lcr;

	if (!parse_line_options(options, &divisor, &lcr)) {
		printk(KERN_WARNING "kernel: console: invalid value '%s%d,%s' (options: a baud rate dividing %u, then n|o|e and 5-8), using ttyS0,115200n8\n",
		       con->name, con->index, options, BASE_BAUD);
		return -EINVAL;
	}
	outb(COM1 + UART_LCR, 0x80);	/* DLAB on */
	outb(COM1 + UART_DLL, (u8)divisor);
	outb(COM1 + UART_DLM, (u8)(divisor >> 8));
	outb(COM1 + UART_LCR, lcr);	/* DLAB off */
	return 0;
}

/*
 * Reading LSR clears BI, and the console's transmit poll reads it too, on
 * any CPU, often with interrupts off while printk holds the console. So
 * every LSR read goes through here and leaves BI in lsr_break for the
 * receive interrupt (the BREAK was lost whenever output was being printed
 * as it arrived, and the key after it read as an ordinary character).
 */
static bool lsr_break;

static u8 serial8250_read_lsr(void)
{
	u8 lsr = inb(COM1 + UART_LSR);

	if (lsr & LSR_BI)
		WRITE_ONCE(lsr_break, true);
	return lsr;
}

static void serial8250_putc(char c)
{
	/* Bounded wait: a missing UART must not hang the console. */
	for (int i = 0; i < 100000 && !(serial8250_read_lsr() & LSR_THRE); i++)
		;
	outb(COM1 + UART_THR, (u8)c);
}

static void serial8250_console_write(struct console *con, const char *s, unsigned int len)
{
	for (unsigned int i = 0; i < len; i++) {
		if (s[i] == '\n')
			serial8250_putc('\r');
		serial8250_putc(s[i]);
	}
}

/* Until the transmitter is empty (the shift register too), bounded as serial8250_putc(). */
static void serial8250_console_flush(struct console *con)
{
	for (int i = 0; i < 100000 && !(serial8250_read_lsr() & LSR_TEMT); i++)
		;
}

static struct console serial8250_console = {
	.name	= "ttyS",
	.write	= serial8250_console_write,
	.flush	= serial8250_console_flush,
	.setup	= serial8250_console_setup,
	.index	= 0,
};

/* Linux's univ8250_console_init(): the line set up, then registered. */
static int serial8250_console_init(void)
{
	serial8250_init();
	register_console(&serial8250_console);
	return 0;
}
console_initcall(serial8250_console_init);

/*
 * Drain the receiver: the ISA line is edge-triggered, so anything left in
 * the FIFO would raise no new interrupt. A BREAK reads as a 0 byte with
 * LSR.BI set. A 16550 flags BI with the 0 byte at the head of its FIFO;
 * QEMU's sets it as soon as the break is queued, behind characters still
 * unread. So BI only says a break is coming: the next 0 byte is it.
 * Whichever LSR read saw BI (serial8250_read_lsr()) set lsr_break.
 */
static void serial8250_interrupt(void)
{
	for (int n = 0; n < 256; n++) {
		u8 lsr = serial8250_read_lsr();
		u8 c;

		if (!(lsr & LSR_DR))
			break;
		c = inb(COM1 + UART_RBR);
		if (c == 0 && READ_ONCE(lsr_break)) {
			WRITE_ONCE(lsr_break, false);
			tty_receive_break();
		} else {
			tty_receive_char(c);
		}
	}
}

static int serial8250_rx_init(void)
{
	int err = arch_request_legacy_irq(COM1_IRQ, serial8250_interrupt);

	if (err) {
		pr_warn("serial8250: no receive interrupt (IRQ %d: error %d): console input disabled\n",
			COM1_IRQ, err);
		return 0;
	}
	outb(COM1 + UART_MCR, 0x03 | MCR_OUT2);
	outb(COM1 + UART_IER, IER_RDI | IER_RLSI);
	serial8250_interrupt();		/* whatever arrived before the interrupt was on */
	/* Linux's line; from here on console input is read (tests wait for it before typing). */
	pr_info("serial8250: ttyS0 at I/O 0x%x (irq = %d, base_baud = 115200) is a 16550A\n",
		COM1, COM1_IRQ);
	return 0;
}
device_initcall(serial8250_rx_init);
