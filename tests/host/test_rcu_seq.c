/*
 * Tests for the grace-period sequence-number helpers in kernel/rcu/rcu.h:
 * start/end/snap/done/started/completed_gp/new_gp, fixed values and a
 * simulation of many grace periods run across the wrap of unsigned long.
 */
#include "../../kernel/rcu/rcu.h"
#include "test.h"

/* Linux's boot value: wraps 300 grace periods after boot. */
#define GP_SEQ_BOOT	((0UL - 300UL) << RCU_SEQ_CTR_SHIFT)

static void test_cmp_wrap(void)
{
	CHECK(ULONG_CMP_GE(5UL, 5UL));
	CHECK(ULONG_CMP_GE(6UL, 5UL));
	CHECK(!ULONG_CMP_GE(4UL, 5UL));
	CHECK(ULONG_CMP_LT(4UL, 5UL));
	CHECK(!ULONG_CMP_LT(5UL, 5UL));
	/* Across the wrap: 2 comes after ULONG_MAX - 1. */
	CHECK(ULONG_CMP_GE(2UL, ULONG_MAX - 1));
	CHECK(ULONG_CMP_LT(ULONG_MAX - 1, 2UL));
	CHECK(!ULONG_CMP_LT(2UL, ULONG_MAX - 1));
	/* Half the range apart is the limit. */
	CHECK(ULONG_CMP_GE(ULONG_MAX / 2, 0UL));
	CHECK(ULONG_CMP_LT(ULONG_MAX / 2 + 1, 0UL));
}

static void test_ctr_state(void)
{
	CHECK_EQ(rcu_seq_ctr(0), 0);
	CHECK_EQ(rcu_seq_ctr(4), 1);
	CHECK_EQ(rcu_seq_ctr(7), 1);
	CHECK_EQ(rcu_seq_state(7), 3);
	CHECK_EQ(rcu_seq_state(8), 0);
	CHECK_EQ(rcu_seq_state(9), 1);
	CHECK_EQ(rcu_seq_ctr(GP_SEQ_BOOT), (long)((~0UL >> RCU_SEQ_CTR_SHIFT) - 299));
	CHECK_EQ(rcu_seq_state(GP_SEQ_BOOT), 0);
}

static void test_start_end(void)
{
	unsigned long s = 0;

	rcu_seq_start(&s);
	CHECK_EQ(s, 1);
	CHECK_EQ(rcu_seq_state(s), 1);
	CHECK_EQ(rcu_seq_endval(&s), 4);
	rcu_seq_end(&s);
	CHECK_EQ(s, 4);
	CHECK_EQ(rcu_seq_current(&s), 4);
	rcu_seq_start(&s);
	rcu_seq_end(&s);
	CHECK_EQ(s, 8);

	/* The end of an in-progress GP from any state goes to the next idle value. */
	s = 6;
	CHECK_EQ(rcu_seq_endval(&s), 8);
	s = 7;
	CHECK_EQ(rcu_seq_endval(&s), 8);

	/* Wrap: the last GP before 0. */
	s = ULONG_MAX - 3;		/* idle, counter at its maximum */
	CHECK_EQ(rcu_seq_state(s), 0);
	rcu_seq_start(&s);
	CHECK(s == ULONG_MAX - 2);
	rcu_seq_end(&s);
	CHECK(s == 0);
}

static void test_snap(void)
{
	unsigned long s;

	s = 0;
	CHECK_EQ(rcu_seq_snap(&s), 4);		/* idle: the end of the next GP */
	s = 1;
	CHECK_EQ(rcu_seq_snap(&s), 8);		/* in progress: the GP after this one */
	s = 40;
	CHECK_EQ(rcu_seq_snap(&s), 44);
	s = 41;
	CHECK_EQ(rcu_seq_snap(&s), 48);
	s = 42;					/* SRCU's second phase */
	CHECK_EQ(rcu_seq_snap(&s), 48);
	s = ULONG_MAX - 3;
	CHECK(rcu_seq_snap(&s) == 0);
	s = ULONG_MAX - 2;
	CHECK(rcu_seq_snap(&s) == 4);
	s = GP_SEQ_BOOT;
	CHECK(rcu_seq_snap(&s) == GP_SEQ_BOOT + 4);
	/* A snapshot is always an idle value. */
	for (s = ULONG_MAX - 40; s != 40; s++) {
		unsigned long v = s;

		CHECK_EQ(rcu_seq_state(rcu_seq_snap(&v)), 0);
	}
}

static void test_done_started(void)
{
	unsigned long gp = 8, s;

	s = rcu_seq_snap(&gp);			/* 12 */
	CHECK(!rcu_seq_done(&gp, s));
	CHECK(!rcu_seq_started(&gp, s));
	rcu_seq_start(&gp);			/* 9: the GP that will serve s */
	CHECK(rcu_seq_started(&gp, s));
	CHECK(!rcu_seq_done(&gp, s));
	rcu_seq_end(&gp);			/* 12 */
	CHECK(rcu_seq_done(&gp, s));
	CHECK(rcu_seq_started(&gp, s));

	/* Snapshot taken mid-GP: the current GP does not count. */
	gp = 9;
	s = rcu_seq_snap(&gp);			/* 16 */
	rcu_seq_end(&gp);			/* 12 */
	CHECK(!rcu_seq_done(&gp, s));
	CHECK(!rcu_seq_started(&gp, s));
	rcu_seq_start(&gp);			/* 13 */
	CHECK(rcu_seq_started(&gp, s));
	CHECK(!rcu_seq_done(&gp, s));
	rcu_seq_end(&gp);			/* 16 */
	CHECK(rcu_seq_done(&gp, s));
}

static void test_completed_new_gp(void)
{
	/* completed_gp(old, new): a GP ended between the two readings. */
	CHECK(!rcu_seq_completed_gp(4, 4));
	CHECK(!rcu_seq_completed_gp(4, 5));
	CHECK(rcu_seq_completed_gp(4, 8));
	CHECK(rcu_seq_completed_gp(5, 8));
	CHECK(!rcu_seq_completed_gp(8, 9));
	CHECK(rcu_seq_completed_gp(ULONG_MAX - 2, 0));
	CHECK(!rcu_seq_completed_gp(0, ULONG_MAX - 3));
	/* new_gp(old, new): a GP started after old was read. */
	CHECK(!rcu_seq_new_gp(4, 4));
	CHECK(rcu_seq_new_gp(4, 5));
	CHECK(!rcu_seq_new_gp(5, 5));
	CHECK(!rcu_seq_new_gp(5, 8));
	CHECK(rcu_seq_new_gp(5, 9));
	CHECK(rcu_seq_new_gp(ULONG_MAX - 3, ULONG_MAX - 2));
	CHECK(rcu_seq_new_gp(ULONG_MAX - 2, 1));
	CHECK(!rcu_seq_new_gp(ULONG_MAX - 2, 0));
}

/*
 * Run grace periods from `base`, taking a snapshot in every phase, and
 * check against a plain count of GPs: a snapshot taken while k GPs have
 * ended (k, or k+1 when one is in progress) is done exactly when the
 * first GP that started after it has ended, and started exactly from
 * that GP's start. completed_gp/new_gp are checked against the counts too.
 */
static void run_gps(unsigned long base, int ngps)
{
	struct snapshot { unsigned long s; long need_end, need_start; } snaps[64];
	unsigned long gp = base, prev;
	long started = 0, ended = 0;	/* GPs started / ended since base */
	int nsnaps = 0, i, step;

	for (step = 0; step < 2 * ngps; step++) {
		/* Snapshot before the transition. */
		if (nsnaps < (int)ARRAY_SIZE(snaps)) {
			snaps[nsnaps].s = rcu_seq_snap(&gp);
			/* The first GP to start from now on is number `started`. */
			snaps[nsnaps].need_start = started + 1;
			snaps[nsnaps].need_end = started + 1;
			nsnaps++;
		}
		prev = gp;
		if (rcu_seq_state(gp)) {
			rcu_seq_end(&gp);
			ended++;
		} else {
			rcu_seq_start(&gp);
			started++;
		}
		CHECK_EQ(rcu_seq_completed_gp(prev, gp), ended > 0 && started == ended);
		CHECK_EQ(rcu_seq_new_gp(prev, gp), started > ended);
		for (i = 0; i < nsnaps; i++) {
			CHECK_EQ(rcu_seq_done(&gp, snaps[i].s), ended >= snaps[i].need_end);
			CHECK_EQ(rcu_seq_started(&gp, snaps[i].s), started >= snaps[i].need_start);
		}
		/* Retire snapshots that are done so the window keeps moving. */
		if (nsnaps == (int)ARRAY_SIZE(snaps)) {
			int k = 0;

			for (i = 0; i < nsnaps; i++)
				if (!rcu_seq_done(&gp, snaps[i].s))
					snaps[k++] = snaps[i];
			nsnaps = k;
		}
		if (test_failed)
			return;
	}
	CHECK(gp == base + 4UL * ngps);
}

static void test_simulation_wrap(void)
{
	run_gps(0, 1000);
	run_gps(GP_SEQ_BOOT, 1000);		/* wraps after 300 GPs */
	run_gps(ULONG_MAX - 3, 100);		/* wraps after the first GP */
	run_gps(ULONG_MAX / 2 - 3 - 4 * 50, 100);	/* across the sign boundary */
	run_gps((ULONG_MAX / 2 + 1) - 4 * 50, 100);
}

/* done(): a snapshot stays done for half the counter range, then reads as pending again. */
static void test_done_horizon(void)
{
	unsigned long gp, s = 4;

	gp = s + ULONG_MAX / 2 - 3;		/* long after s */
	CHECK(rcu_seq_done(&gp, s));
	gp = s - 4;
	CHECK(!rcu_seq_done(&gp, s));
	gp = s - 1;
	CHECK(!rcu_seq_done(&gp, s));
	gp = s;
	CHECK(rcu_seq_done(&gp, s));
	/* The same with s at the wrap. */
	s = 0;
	gp = ULONG_MAX - 2;
	CHECK(!rcu_seq_done(&gp, s));
	gp = 0;
	CHECK(rcu_seq_done(&gp, s));
	gp = 5;
	CHECK(rcu_seq_done(&gp, s));
}

/*
 * done_exact(): pending only while the counter is within a snapshot's
 * reach behind s (RCU_SEQ_DONE_EXACT_WINDOW); a counter that went on past
 * half the range, or all the way round, still reads as done.
 */
static void test_done_exact(void)
{
	unsigned long gp, s;

	gp = 8;
	s = rcu_seq_snap(&gp);			/* idle: 12 */
	CHECK(!rcu_seq_done_exact(&gp, s));
	gp = 9;					/* the GP after the snapshot has started */
	CHECK(!rcu_seq_done_exact(&gp, s));
	gp = 12;
	CHECK(rcu_seq_done_exact(&gp, s));
	gp = 9;
	s = rcu_seq_snap(&gp);			/* in progress: 16, seven ahead */
	CHECK(!rcu_seq_done_exact(&gp, s));
	gp = 16;
	CHECK(rcu_seq_done_exact(&gp, s));
	/* Where rcu_seq_done() has turned back to pending, done_exact() stays done. */
	gp = s + ULONG_MAX / 2 + 5;
	CHECK(!rcu_seq_done(&gp, s));
	CHECK(rcu_seq_done_exact(&gp, s));
	gp = s - 12;				/* a full lap round, or never reachable: done */
	CHECK(rcu_seq_done_exact(&gp, s));
	/*
	 * The full-state cookie's normal word: snapshot of rcu_state.gp_seq
	 * just after rcu_gp_init() started a grace period, checked against the
	 * root's ->gp_seq, which still shows the previous one ended (the bug
	 * rcutorture's Cookie check 5 caught with a window of 7).
	 */
	gp = 9;					/* rcu_state.gp_seq: started */
	s = rcu_seq_snap(&gp);			/* 16 */
	gp = 8;					/* the root, not updated yet */
	CHECK(!rcu_seq_done_exact(&gp, s));
	gp = 12;				/* the running grace period ends */
	CHECK(!rcu_seq_done_exact(&gp, s));
	gp = 16;
	CHECK(rcu_seq_done_exact(&gp, s));
	/* Across the wrap. */
	gp = ULONG_MAX - 3;
	s = rcu_seq_snap(&gp);
	CHECK_EQ(s, 0);
	CHECK(!rcu_seq_done_exact(&gp, s));
	rcu_seq_start(&gp);
	CHECK(!rcu_seq_done_exact(&gp, s));
	rcu_seq_end(&gp);
	CHECK(rcu_seq_done_exact(&gp, s));
}

static const struct test_case tests[] = {
	TEST_CASE(test_cmp_wrap),
	TEST_CASE(test_ctr_state),
	TEST_CASE(test_start_end),
	TEST_CASE(test_snap),
	TEST_CASE(test_done_started),
	TEST_CASE(test_completed_new_gp),
	TEST_CASE(test_simulation_wrap),
	TEST_CASE(test_done_horizon),
	TEST_CASE(test_done_exact),
};

TEST_MAIN("test_rcu_seq", tests)
