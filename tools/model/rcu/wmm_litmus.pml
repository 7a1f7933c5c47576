/*
 * wmm_litmus.pml (SCEN=0 of rcu_wmm.pml): two classic litmus tests that show
 * the memory model is weak where ARMv8/POWER are and strong where the
 * barriers say. Each must pass as written and fail with its MUT_ macro.
 *   LITMUS=1  MP: CPU 0 writes data, then flag with smp_store_release();
 *             CPU 1 reads flag with smp_load_acquire(), then data. Seeing
 *             the flag and old data is forbidden. MUT_MP_RELEASE /
 *             MUT_MP_ACQUIRE use a plain store / plain load instead.
 *   LITMUS=2  SB: each CPU writes its own word, smp_mb(), reads the other's.
 *             Both reading 0 is forbidden. MUT_SB_MB drops CPU 0's smp_mb()
 *             (allowed on every CPU, x86 included: the store buffer).
 */
#ifndef LITMUS
#define LITMUS 1
#endif

#define X	0
#define Y	1

byte sb_r0;
bit sb_done0;

inline scen_init()
{
	INIT(X, 0);
	INIT(Y, 0)
}

#if LITMUS == 1
proctype cpu0()
{
	byte mi;

	STORE(0, X, 1);
#ifdef MUT_MP_RELEASE
	STORE(0, Y, 1);
#else
	RELEASE(0, Y, 1);
#endif
	MB(0)
}

proctype cpu1()
{
	byte mi, f, d;

#ifdef MUT_MP_ACQUIRE
	LOAD(1, Y, f);
#else
	ACQUIRE(1, Y, f);
#endif
	LOAD(1, X, d);
	assert(f == 0 || d == 1);	/* MP: flag seen, data must be */
	MB(1)
}
#else
proctype cpu0()
{
	byte mi, r;

	STORE(0, X, 1);
#ifndef MUT_SB_MB
	MB(0);
#endif
	LOAD(0, Y, r);
	sb_r0 = r;
	sb_done0 = 1;
	MB(0)
}

proctype cpu1()
{
	byte mi, r;

	STORE(1, Y, 1);
	MB(1);
	LOAD(1, X, r);
	sb_done0 == 1;
	assert(sb_r0 == 1 || r == 1);	/* SB: not both 0 */
	MB(1)
}
#endif
