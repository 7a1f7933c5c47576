/*
 * The "rcu_api" suite's rcu_sync cases (<rcu/rcu_sync.h>): the state
 * machine step by step on one thread, then readers on every other CPU
 * choosing the fast or the slow path while an updater enters and exits:
 * once rcu_sync_enter() has returned, no reader may still be on the fast
 * path, and after rcu_sync_exit() readers get the fast path back.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "api_extra.h"
#include <rcu/rcu_sync.h>

static struct rcu_sync ras;

static int ras_do_enter(void *arg) { rcu_sync_enter(arg); return 0; }
static int ras_do_dtor(void *arg) { rcu_sync_dtor(arg); return 0; }

static bool ras_enter(struct rcu_sync *rsp)
{
	return rst_call(ras_do_enter, rsp, RST_GP_MS, "rcu_sync_enter()", NULL);
}

static bool ras_idle(struct rcu_sync *rsp)
{
	bool idle;

	rcu_read_lock();
	idle = rcu_sync_is_idle(rsp);
	rcu_read_unlock();
	return idle;
}

/*
 * The transitions: IDLE -enter(GP)-> PASSED; nested enter at once; exits
 * down to EXIT, still not idle until the callback; an enter while EXIT is
 * pending needs no grace period; an exit then makes REPLAY, which takes
 * one more callback before IDLE; rcu_sync_dtor() leaves it IDLE.
 */
void rcu_api_sync_states(void)
{
	unsigned long cookie;
	int i;

	rcu_sync_init(&ras);
	KTAP_EXPECT(ras_idle(&ras));
	cookie = get_state_synchronize_rcu();
	if (!ras_enter(&ras))
		return;
	KTAP_EXPECT_MSG(poll_state_synchronize_rcu(cookie),
			"rcu_sync_enter() from idle returned before a grace period");
	KTAP_EXPECT(!ras_idle(&ras) && ras.gp_state == GP_PASSED && ras.gp_count == 1);
	if (!ras_enter(&ras))	/* nested: GP_PASSED already */
		return;
	KTAP_EXPECT(ras.gp_state == GP_PASSED && ras.gp_count == 2);
	rcu_sync_exit(&ras);
	KTAP_EXPECT(ras.gp_state == GP_PASSED && ras.gp_count == 1);
	rcu_sync_exit(&ras);
	KTAP_EXPECT_MSG(ras.gp_state == GP_EXIT || ras.gp_state == GP_IDLE, "state %d after the last exit",
			ras.gp_state);
	if (!rst_barrier())
		return;
	KTAP_EXPECT_MSG(ras_idle(&ras), "still state %d a grace period after the last exit",
			ras.gp_state);

	/* Enter, exit, enter again while the exit's callback waits: no new grace period. */
	if (!ras_enter(&ras))
		return;
	rcu_sync_exit(&ras);
	if (ras.gp_state == GP_EXIT) {
		cookie = get_state_synchronize_rcu();
		if (!ras_enter(&ras))
			return;
		KTAP_EXPECT(!ras_idle(&ras) && ras.gp_count == 1);
		rcu_sync_exit(&ras);
		KTAP_EXPECT_MSG(ras.gp_state == GP_REPLAY || ras.gp_state == GP_EXIT ||
				ras.gp_state == GP_IDLE, "state %d after exit during EXIT", ras.gp_state);
		if (ras.gp_state == GP_REPLAY)
			ktap_diag("exit during EXIT: GP_REPLAY, one more grace period");
	} else {
		ktap_diag("exit callback already ran (state %d): replay path not exercised", ras.gp_state);
	}
	for (i = 0; i < 3 && !ras_idle(&ras); i++)
		if (!rst_barrier())
			return;
	KTAP_EXPECT_MSG(ras_idle(&ras), "state %d after %d rcu_barrier()s", ras.gp_state, i);

	if (!ras_enter(&ras))
		return;
	rcu_sync_exit(&ras);
	if (!rst_call(ras_do_dtor, &ras, RST_GP_MS, "rcu_sync_dtor()", NULL))
		return;
	KTAP_EXPECT_MSG(ras.gp_state == GP_IDLE, "state %d after rcu_sync_dtor()", ras.gp_state);
}

/* --- readers on the fast and slow paths ------------------------------------------- */

static struct {
	int on_fast[NR_CPUS];		/* a reader is inside its fast path */
	unsigned long fast[NR_CPUS], slow[NR_CPUS];
	unsigned long enters;
	atomic_long_t violations;	/* a reader on the fast path after enter returned */
	int bad_cpu;
} rsr;

static void ras_read(unsigned int cpu)
{
	rcu_read_lock();
	if (rcu_sync_is_idle(&ras)) {
		WRITE_ONCE(rsr.on_fast[cpu], 1);
		for (int i = 0; i < 50; i++)	/* widen the fast path a little */
			barrier();
		WRITE_ONCE(rsr.on_fast[cpu], 0);
		rsr.fast[cpu]++;
	} else {
		rsr.slow[cpu]++;
	}
	rcu_read_unlock();
}

/* Enter (a grace period from idle), look for fast-path readers for a while, exit. */
static void ras_update(void)
{
	unsigned int cpu;

	rcu_sync_enter(&ras);
	rsr.enters++;
	for (int pass = 0; pass < 20; pass++) {
		for_each_online_cpu(cpu) {
			if (READ_ONCE(rsr.on_fast[cpu])) {
				if (atomic_long_inc_return(&rsr.violations) == 1)
					rsr.bad_cpu = cpu;
			}
		}
		cpu_relax();
	}
	rcu_sync_exit(&ras);
	/*
	 * Every other time, wait (boundedly) for the exit's callback, so
	 * readers get the fast path back and the next enter starts from idle.
	 */
	if (rsr.enters & 1) {
		for (int i = 0; i < 100 && !ras_idle(&ras); i++)
			schedule_timeout_uninterruptible(1);
		schedule_timeout_uninterruptible(1);	/* readers run on the fast path meanwhile */
	}
}

void rcu_api_sync_readers(void)
{
	unsigned long reads, fast = 0, slow = 0;
	unsigned int cpu;
	bool ok;

	rcu_sync_init(&ras);
	memset(&rsr, 0, sizeof(rsr));
	atomic_long_set(&rsr.violations, 0);
	ok = rat_concurrent(ras_update, ras_read, &reads);
	for_each_online_cpu(cpu) {
		fast += rsr.fast[cpu];
		slow += rsr.slow[cpu];
	}
	ktap_diag("%lu enter/exit pairs, %lu reads: %lu fast path, %lu slow path", rsr.enters, reads,
		  fast, slow);
	KTAP_EXPECT_MSG(atomic_long_read(&rsr.violations) == 0,
			"%ld times a reader (CPU %d) was on the fast path after rcu_sync_enter() returned",
			atomic_long_read(&rsr.violations), rsr.bad_cpu);
	KTAP_EXPECT_MSG(rsr.enters > 0, "no rcu_sync_enter() completed");
	if (num_online_cpus() > 1)
		KTAP_EXPECT_MSG(fast > 0 && slow > 0, "readers never took the %s path",
				fast ? "slow" : "fast");
	if (!ok || !rst_barrier())
		return;
	KTAP_EXPECT_MSG(ras_idle(&ras), "state %d a grace period after the last exit", ras.gp_state);
}
