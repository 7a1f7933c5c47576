/*
 * Atomic exchange on plain objects: the contract generic code includes.
 * The arch provides, in <asm/cmpxchg.h>: xchg(), cmpxchg() (returns the
 * old value) and try_cmpxchg() (updates *oldp on failure), on 1-8 byte
 * objects, each a full barrier.
 */
#ifndef _KERNEL_CMPXCHG_H
#define _KERNEL_CMPXCHG_H

#include <asm/cmpxchg.h>

#endif
