/*
 * Console input between the UART's receive interrupt and a reader in task
 * context. Magic SysRq sees each character first, still in the interrupt,
 * so it works when no task can run; what it does not consume goes into a
 * small ring that the reader (the kernel monitor) drains. When the ring
 * is full, new characters are dropped and counted: a person typing never
 * fills 256 bytes, and a paste that does only loses its tail.
 */
#include <kernel/tty.h>
#include <kernel/sysrq.h>
#include <kernel/compiler.h>
#include <locking/spinlock.h>
#include <sched/wait.h>

#define TTY_INPUT_SIZE	256	/* a power of two: head and tail wrap freely */

static u8 ring[TTY_INPUT_SIZE];
static unsigned int head, tail;		/* written under input_lock */
static unsigned long overruns;
static DEFINE_SPINLOCK(input_lock);
static DECLARE_WAIT_QUEUE_HEAD(input_wait);

void tty_receive_break(void)
{
	sysrq_serial_break();
}

void tty_receive_char(u8 c)
{
	unsigned long flags;

	if (sysrq_serial_char(c))
		return;
	spin_lock_irqsave(&input_lock, flags);
	if (head - tail < TTY_INPUT_SIZE)
		ring[head++ % TTY_INPUT_SIZE] = c;
	else
		overruns++;
	spin_unlock_irqrestore(&input_lock, flags);
	wake_up(&input_wait);
}

/* Take one character, or -1 if the ring is empty. */
static int take_char(void)
{
	unsigned long flags;
	int c = -1;

	spin_lock_irqsave(&input_lock, flags);
	if (head != tail)
		c = ring[tail++ % TTY_INPUT_SIZE];
	spin_unlock_irqrestore(&input_lock, flags);
	return c;
}

int tty_read_char(void)
{
	int c;

	/* The wait loop re-tests under the queue's protocol, so a wakeup cannot be lost. */
	wait_event_idle(input_wait, (c = take_char()) >= 0);
	return c;
}

unsigned long tty_input_overruns(void)
{
	return READ_ONCE(overruns);
}
