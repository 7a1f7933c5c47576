/*
 * Memory barriers and cpu_relax(): the contract generic code includes.
 * The arch provides, in <asm/barrier.h>: mb/rmb/wmb (device ordering),
 * smp_mb/smp_rmb/smp_wmb, smp_mb__before_atomic/smp_mb__after_atomic,
 * smp_store_release/smp_load_acquire, and cpu_relax() for spin loops.
 * Each barrier's use site says what it orders; this header only names
 * where the definitions come from.
 */
#ifndef _KERNEL_BARRIER_H
#define _KERNEL_BARRIER_H

#include <asm/barrier.h>

#endif
