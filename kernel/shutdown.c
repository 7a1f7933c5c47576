/*
 * Timed power-off (shutdown_secs=N), our own addition: the deadline is
 * checked by the tick, and the power-off itself runs from CPU 0's idle
 * loop, in task context rather than inside the timer interrupt.
 */
#include <kernel/shutdown.h>
#include <time/time.h>
#include <kernel/param.h>
#include <kernel/smp.h>

static unsigned int shutdown_secs;
KPARAM("shutdown_secs", shutdown_secs, KPARAM_UINT, 0, 86400,
       "power the machine off this many seconds after boot (0: never)");

static bool shutdown_pending;

void shutdown_request(void)
{
	WRITE_ONCE(shutdown_pending, true);
	if (raw_smp_processor_id() != 0)
		smp_send_reschedule(0);	/* wake CPU 0's idle loop */
}

bool shutdown_requested(void)
{
	return READ_ONCE(shutdown_pending);
}

void shutdown_check_deadline(void)
{
	if (shutdown_secs && !shutdown_pending &&
	    local_clock() >= (u64)shutdown_secs * NSEC_PER_SEC)
		shutdown_request();
}
