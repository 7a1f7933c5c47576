/* xchg/cmpxchg on 1-8 byte objects: full barriers, as locked x86 instructions are. */
#ifndef _ASM_CMPXCHG_H
#define _ASM_CMPXCHG_H

#define xchg(ptr, v)	__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)
#define cmpxchg(ptr, old, new) ({					\
	__typeof__(*(ptr)) __old = (old);				\
	__atomic_compare_exchange_n((ptr), &__old, (new), false,	\
			__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);		\
	__old; })
#define try_cmpxchg(ptr, oldp, new)					\
	__atomic_compare_exchange_n((ptr), (oldp), (new), false,	\
			__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)

#endif
