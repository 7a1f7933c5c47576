/*
 * Force-included first in host builds: glibc defines __always_inline and
 * kernel/compiler.h redefines it differently (-Werror), so drop glibc's.
 */
#include <sys/cdefs.h>
#undef __always_inline

/*
 * kernel/rcu/rcu.h's rcu_seq_start()/rcu_seq_end() carry smp_mb(); the
 * kernel's comes from <asm/barrier.h>, which host builds do not see.
 */
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)
