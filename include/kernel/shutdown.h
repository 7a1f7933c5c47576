/*
 * shutdown_secs=N (our own boot parameter): power off N seconds after boot,
 * so every test boot ends by itself.
 */
#ifndef _KERNEL_SHUTDOWN_H
#define _KERNEL_SHUTDOWN_H

#include <kernel/types.h>

/* Called from the tick on the timekeeping CPU; raises a request when due. */
void shutdown_check_deadline(void);
/* True once a power-off has been requested; the boot CPU's idle loop acts on it. */
bool shutdown_requested(void);
void shutdown_request(void);

#endif
