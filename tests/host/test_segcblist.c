/*
 * Tests for kernel/rcu/rcu_segcblist.c: directed cases for each operation,
 * then 100k random steps checked against a reference model that keeps
 * each segment as a plain array of callback ids. After every step the
 * real list is walked and must match the model exactly: order, segment
 * boundaries (tail pointers), per-segment and total counts, grace-period
 * numbers, and every predicate.
 */
#include "../../kernel/rcu/rcu_segcblist.h"
#include "../../kernel/rcu/rcu.h"
#include <stdlib.h>
#include "test.h"

#define POOL	1024

static struct rcu_head pool[POOL];

static int id_of(const struct rcu_head *rhp)
{
	return rhp ? (int)(rhp - pool) : -1;
}

/* ---- reference model ---------------------------------------------------- */

struct mseg {
	int ids[POOL];
	int n;
	unsigned long gp;
};

/*
 * seg[DONE], seg[WAIT], seg[NEXT_READY], seg[NEXT]. Pending segments are
 * kept packed: WAIT is filled before NEXT_READY.
 */
static struct model {
	struct mseg seg[RCU_CBLIST_NSEGS];
	struct mseg extracted;		/* the rcu_cblist being invoked */
} m;

static void mseg_append(struct mseg *d, const struct mseg *s)
{
	memcpy(d->ids + d->n, s->ids, s->n * sizeof(int));
	d->n += s->n;
}

static void mseg_prepend(struct mseg *d, const struct mseg *s)
{
	memmove(d->ids + s->n, d->ids, d->n * sizeof(int));
	memcpy(d->ids, s->ids, s->n * sizeof(int));
	d->n += s->n;
}

static void model_init(void)
{
	memset(&m, 0, sizeof(m));
}

static int model_total(void)
{
	return m.seg[0].n + m.seg[1].n + m.seg[2].n + m.seg[3].n;
}

static void model_enqueue(int id)
{
	m.seg[RCU_NEXT_TAIL].ids[m.seg[RCU_NEXT_TAIL].n++] = id;
}

/* What len must say: queued callbacks plus extracted ones not yet invoked. */
static int model_len(void)
{
	return model_total() + m.extracted.n;
}

static bool model_entrain(int id)
{
	int i;

	if (!model_len())
		return false;
	for (i = RCU_NEXT_TAIL; i > RCU_DONE_TAIL && !m.seg[i].n; i--)
		;
	m.seg[i].ids[m.seg[i].n++] = id;
	return true;
}

/* Leading WAIT/NEXT_READY segments whose GP is done join DONE; the rest slide down. */
static void model_advance(unsigned long seq)
{
	while (m.seg[RCU_WAIT_TAIL].n && ULONG_CMP_GE(seq, m.seg[RCU_WAIT_TAIL].gp)) {
		mseg_append(&m.seg[RCU_DONE_TAIL], &m.seg[RCU_WAIT_TAIL]);
		m.seg[RCU_WAIT_TAIL] = m.seg[RCU_NEXT_READY_TAIL];
		m.seg[RCU_NEXT_READY_TAIL].n = 0;
	}
}

/*
 * Keep the pending segments that wait for a GP before seq (up to the
 * last such); everything after them, NEXT included, becomes one segment
 * labelled seq in the next slot, if there is one and it is non-empty.
 */
static bool model_accelerate(unsigned long seq)
{
	struct mseg merged = { .n = 0 };
	int keep = 0, i;

	for (i = RCU_WAIT_TAIL; i <= RCU_NEXT_READY_TAIL; i++)
		if (m.seg[i].n && ULONG_CMP_LT(m.seg[i].gp, seq))
			keep = i;	/* last segment index that stays as it is */
	for (i = keep + 1; i <= RCU_NEXT_TAIL; i++)
		mseg_append(&merged, &m.seg[i]);
	if (!merged.n || keep + 1 >= RCU_NEXT_TAIL)
		return false;
	for (i = keep + 1; i <= RCU_NEXT_TAIL; i++)
		m.seg[i].n = 0;
	merged.gp = seq;
	m.seg[keep + 1] = merged;
	return true;
}

static void model_extract(void)
{
	mseg_append(&m.extracted, &m.seg[RCU_DONE_TAIL]);
	m.seg[RCU_DONE_TAIL].n = 0;
}

static void model_insert(void)
{
	mseg_prepend(&m.seg[RCU_DONE_TAIL], &m.extracted);
	m.extracted.n = 0;
}

/* ---- checking the real list against the model ---------------------------- */

static void check_cblist(const struct rcu_cblist *rclp, const struct mseg *ms)
{
	struct rcu_head *const *p = &rclp->head;
	int i;

	CHECK_EQ(rclp->len, ms->n);
	for (i = 0; i < ms->n && *p; i++) {
		CHECK_EQ(id_of(*p), ms->ids[i]);
		p = &(*p)->next;
	}
	CHECK_EQ(i, ms->n);
	CHECK(*p == NULL);
	CHECK(rclp->tail == p);
}

static void check_list(const struct rcu_segcblist *l)
{
	struct rcu_head *const *p = &l->head;
	int seg, i, after;
	unsigned long gp = 0;
	bool has_gp;

	for (seg = 0; seg < RCU_CBLIST_NSEGS; seg++) {
		const struct mseg *ms = &m.seg[seg];

		for (i = 0; i < ms->n; i++) {
			if (!*p) {
				CHECK(!"list ends early");
				return;
			}
			CHECK_EQ(id_of(*p), ms->ids[i]);
			p = &(*p)->next;
		}
		CHECK(l->tails[seg] == p);
		CHECK_EQ(l->seglen[seg], ms->n);
		CHECK_EQ(rcu_segcblist_seglen(l, seg), ms->n);
		if (seg != RCU_DONE_TAIL && seg != RCU_NEXT_TAIL && ms->n)
			CHECK(l->gp_seq[seg] == ms->gp);
	}
	CHECK(*p == NULL);
	CHECK_EQ(l->len, model_len());
	CHECK_EQ(rcu_segcblist_n_cbs(l), model_len());
	CHECK_EQ(rcu_segcblist_empty(l), model_total() == 0);
	CHECK_EQ(rcu_segcblist_ready_cbs(l), m.seg[RCU_DONE_TAIL].n > 0);
	CHECK_EQ(rcu_segcblist_pend_cbs(l), model_total() > m.seg[RCU_DONE_TAIL].n);
	for (seg = 0, after = model_total(); seg < RCU_CBLIST_NSEGS; seg++) {
		after -= m.seg[seg].n;
		CHECK_EQ(rcu_segcblist_restempty(l, seg), after == 0);
	}
	has_gp = rcu_segcblist_nextgp(l, &gp);
	CHECK_EQ(has_gp, m.seg[RCU_WAIT_TAIL].n > 0);
	if (has_gp && m.seg[RCU_WAIT_TAIL].n)
		CHECK(gp == m.seg[RCU_WAIT_TAIL].gp);
	/* Packed pending segments; NR waits for a later GP than WAIT. */
	CHECK(m.seg[RCU_WAIT_TAIL].n || !m.seg[RCU_NEXT_READY_TAIL].n);
	if (m.seg[RCU_WAIT_TAIL].n && m.seg[RCU_NEXT_READY_TAIL].n)
		CHECK(ULONG_CMP_LT(m.seg[RCU_WAIT_TAIL].gp, m.seg[RCU_NEXT_READY_TAIL].gp));
}

/* ---- directed tests ------------------------------------------------------- */

static struct rcu_segcblist l;

static void enqueue_n(int first, int n)
{
	for (int i = first; i < first + n; i++) {
		rcu_segcblist_enqueue(&l, &pool[i]);
		model_enqueue(i);
	}
}

static void test_init_empty(void)
{
	unsigned long gp = 123;

	rcu_segcblist_init(&l);
	model_init();
	check_list(&l);
	CHECK(l.enabled);
	CHECK(rcu_segcblist_empty(&l));
	CHECK(!rcu_segcblist_nextgp(&l, &gp));
	CHECK_EQ(gp, 123);
	CHECK(!rcu_segcblist_accelerate(&l, 4));
	rcu_segcblist_advance(&l, 100);
	CHECK(!rcu_segcblist_entrain(&l, &pool[0]));
	check_list(&l);
}

/* The usual life: queue, get a GP, wait, get done. */
static void test_accelerate_advance(void)
{
	unsigned long gp;

	rcu_segcblist_init(&l);
	model_init();
	enqueue_n(0, 3);
	check_list(&l);
	CHECK(!rcu_segcblist_nextgp(&l, &gp));		/* nothing assigned yet */
	CHECK(rcu_segcblist_accelerate(&l, 8));
	CHECK(model_accelerate(8));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_WAIT_TAIL), 3);
	CHECK(rcu_segcblist_nextgp(&l, &gp) && gp == 8);

	enqueue_n(3, 2);
	CHECK(rcu_segcblist_accelerate(&l, 12));	/* NEXT_READY: GP 12 */
	CHECK(model_accelerate(12));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_READY_TAIL), 2);

	enqueue_n(5, 1);
	CHECK(!rcu_segcblist_accelerate(&l, 16));	/* no free slot */
	CHECK(!model_accelerate(16));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_TAIL), 1);

	rcu_segcblist_advance(&l, 5);			/* GP 8 not over yet */
	model_advance(5);
	check_list(&l);
	CHECK(!rcu_segcblist_ready_cbs(&l));

	rcu_segcblist_advance(&l, 8);
	model_advance(8);
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_DONE_TAIL), 3);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_WAIT_TAIL), 2);
	CHECK(l.gp_seq[RCU_WAIT_TAIL] == 12);
	CHECK(rcu_segcblist_nextgp(&l, &gp) && gp == 12);

	CHECK(rcu_segcblist_accelerate(&l, 16));
	CHECK(model_accelerate(16));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_READY_TAIL), 1);

	rcu_segcblist_advance(&l, 100);			/* everything is done */
	model_advance(100);
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_DONE_TAIL), 6);
	CHECK(!rcu_segcblist_pend_cbs(&l));
}

/* Accelerate merges NEXT into a segment waiting for the same or a later GP. */
static void test_accelerate_merge(void)
{
	rcu_segcblist_init(&l);
	model_init();
	enqueue_n(0, 2);
	CHECK(rcu_segcblist_accelerate(&l, 8));
	CHECK(model_accelerate(8));
	enqueue_n(2, 2);
	CHECK(rcu_segcblist_accelerate(&l, 8));		/* same GP: one segment */
	CHECK(model_accelerate(8));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_WAIT_TAIL), 4);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_READY_TAIL), 0);

	enqueue_n(4, 1);
	CHECK(rcu_segcblist_accelerate(&l, 16));
	CHECK(model_accelerate(16));
	enqueue_n(5, 1);
	/* NEXT_READY waits for 16 but 12 suffices: relabel and merge. */
	CHECK(rcu_segcblist_accelerate(&l, 12));
	CHECK(model_accelerate(12));
	check_list(&l);
	CHECK(l.gp_seq[RCU_NEXT_READY_TAIL] == 12);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_READY_TAIL), 2);

	/* A snapshot no later than WAIT's GP folds everything into WAIT. */
	enqueue_n(6, 1);
	CHECK(rcu_segcblist_accelerate(&l, 8));
	CHECK(model_accelerate(8));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_WAIT_TAIL), 7);

	/* Nothing new and nothing to relabel. */
	CHECK(!rcu_segcblist_accelerate(&l, 12));
	CHECK(!model_accelerate(12));
	check_list(&l);
}

/* Advance compacts: WAIT done, NEXT_READY slides to WAIT; NEXT untouched. */
static void test_advance_compacts(void)
{
	rcu_segcblist_init(&l);
	model_init();
	enqueue_n(0, 1);
	rcu_segcblist_accelerate(&l, 8);
	model_accelerate(8);
	enqueue_n(1, 2);
	rcu_segcblist_accelerate(&l, 12);
	model_accelerate(12);
	enqueue_n(3, 3);
	rcu_segcblist_advance(&l, 9);
	model_advance(9);
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_DONE_TAIL), 1);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_WAIT_TAIL), 2);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_READY_TAIL), 0);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_TAIL), 3);
	/* Advance never assigns NEXT a GP, however late seq is. */
	rcu_segcblist_advance(&l, 1000);
	model_advance(1000);
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_NEXT_TAIL), 3);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_DONE_TAIL), 3);
}

/* Entrain lands behind the newest callback, whichever segment holds it. */
static void test_entrain(void)
{
	struct rcu_cblist rcl;

	rcu_segcblist_init(&l);
	model_init();
	CHECK(!rcu_segcblist_entrain(&l, &pool[100]));

	enqueue_n(0, 2);
	CHECK(rcu_segcblist_entrain(&l, &pool[100]));	/* into NEXT */
	CHECK(model_entrain(100));
	check_list(&l);

	rcu_segcblist_accelerate(&l, 8);
	model_accelerate(8);
	CHECK(rcu_segcblist_entrain(&l, &pool[101]));	/* into WAIT, waits for 8 */
	CHECK(model_entrain(101));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_WAIT_TAIL), 4);

	rcu_segcblist_advance(&l, 8);
	model_advance(8);
	CHECK(rcu_segcblist_entrain(&l, &pool[102]));	/* only DONE left: into DONE */
	CHECK(model_entrain(102));
	check_list(&l);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_DONE_TAIL), 5);
	CHECK(!rcu_segcblist_pend_cbs(&l));

	/*
	 * With everything extracted the segments are empty but the callbacks
	 * are still being invoked: an rcu_barrier() callback must still be
	 * entrained (into DONE, behind whatever is put back).
	 */
	rcu_cblist_init(&rcl);
	rcu_segcblist_extract_done_cbs(&l, &rcl);
	model_extract();
	check_list(&l);
	check_cblist(&rcl, &m.extracted);
	CHECK(rcu_segcblist_entrain(&l, &pool[103]));
	CHECK(model_entrain(103));
	check_list(&l);
	rcu_segcblist_insert_done_cbs(&l, &rcl);
	model_insert();
	check_list(&l);
	check_cblist(&rcl, &m.extracted);
}

/* Extract DONE, invoke part, put the rest back in front of newer DONE callbacks. */
static void test_extract_insert(void)
{
	struct rcu_cblist rcl;
	struct rcu_head *rhp;
	int i;

	rcu_segcblist_init(&l);
	model_init();
	rcu_cblist_init(&rcl);
	CHECK(rcu_cblist_dequeue(&rcl) == NULL);
	rcu_segcblist_extract_done_cbs(&l, &rcl);	/* nothing ready: no-op */
	rcu_segcblist_insert_done_cbs(&l, &rcl);
	check_list(&l);
	check_cblist(&rcl, &m.extracted);

	enqueue_n(0, 5);
	rcu_segcblist_accelerate(&l, 8);
	model_accelerate(8);
	enqueue_n(5, 2);
	rcu_segcblist_advance(&l, 8);
	model_advance(8);
	check_list(&l);

	rcu_segcblist_extract_done_cbs(&l, &rcl);
	model_extract();
	check_list(&l);
	check_cblist(&rcl, &m.extracted);
	CHECK(!rcu_segcblist_ready_cbs(&l));
	CHECK_EQ(rcu_segcblist_n_cbs(&l), 7);	/* the five being invoked still count */

	for (i = 0; i < 2; i++) {			/* invoke two */
		rhp = rcu_cblist_dequeue(&rcl);
		CHECK_EQ(id_of(rhp), m.extracted.ids[0]);
		memmove(m.extracted.ids, m.extracted.ids + 1, --m.extracted.n * sizeof(int));
		rcu_segcblist_add_len(&l, -1);		/* invoked: rcu_do_batch() uncounts it */
	}
	check_cblist(&rcl, &m.extracted);
	CHECK_EQ(rcu_segcblist_n_cbs(&l), 5);

	/* Meanwhile more callbacks become ready. */
	rcu_segcblist_accelerate(&l, 12);
	model_accelerate(12);
	rcu_segcblist_advance(&l, 12);
	model_advance(12);
	check_list(&l);

	rcu_segcblist_insert_done_cbs(&l, &rcl);
	model_insert();
	check_list(&l);
	check_cblist(&rcl, &m.extracted);
	CHECK_EQ(rcu_segcblist_seglen(&l, RCU_DONE_TAIL), 5);
	CHECK_EQ(id_of(l.head), 2);
}

/* CPU hotplug's hand-over: every callback out, DONE's and the pending ones apart, in order. */
static void test_extract_all(void)
{
	struct rcu_cblist done, pend;
	struct mseg want_done, want_pend = { .n = 0 };
	int i;

	rcu_segcblist_init(&l);
	model_init();
	rcu_cblist_init(&done);
	rcu_cblist_init(&pend);
	rcu_segcblist_extract_all(&l, &done, &pend);	/* empty list: both stay empty */
	CHECK(!done.head && !pend.head && done.len == 0 && pend.len == 0);
	check_list(&l);

	enqueue_n(0, 4);		/* 0-3 ready after 8 */
	rcu_segcblist_accelerate(&l, 8);
	model_accelerate(8);
	enqueue_n(4, 3);		/* 4-6 wait for 12 */
	rcu_segcblist_accelerate(&l, 12);
	model_accelerate(12);
	enqueue_n(7, 2);		/* 7-8 in NEXT */
	rcu_segcblist_advance(&l, 8);
	model_advance(8);
	check_list(&l);
	want_done = m.seg[RCU_DONE_TAIL];
	for (i = RCU_WAIT_TAIL; i < RCU_CBLIST_NSEGS; i++)
		mseg_append(&want_pend, &m.seg[i]);
	rcu_segcblist_extract_all(&l, &done, &pend);
	model_init();
	check_list(&l);			/* nothing left, every segment empty */
	check_cblist(&done, &want_done);
	check_cblist(&pend, &want_pend);
	CHECK_EQ(done.len, 4);
	CHECK_EQ(pend.len, 5);

	/* Nothing ready: all pending. */
	rcu_cblist_init(&done);
	rcu_cblist_init(&pend);
	enqueue_n(10, 3);
	rcu_segcblist_extract_all(&l, &done, &pend);
	CHECK(!done.head && done.len == 0);
	CHECK_EQ(pend.len, 3);
	CHECK_EQ(id_of(pend.head), 10);
	model_init();
	check_list(&l);
}

/* ---- random model check ----------------------------------------------------- */

static unsigned long rng_state = 0x9e3779b97f4a7c15UL;

static unsigned long rnd(void)
{
	return test_xorshift(&rng_state);
}

static int free_ids[POOL], nfree;

static int alloc_id(void)
{
	int k;

	if (!nfree)
		return -1;
	k = rnd() % nfree;		/* any free id: order must come from the list, not ids */
	int id = free_ids[k];

	free_ids[k] = free_ids[--nfree];
	return id;
}

#define RANDOM_STEPS	100000

static void test_random(void)
{
	static const char *const opname[] = {
		"enqueue", "accelerate", "advance", "entrain", "extract", "invoke",
		"insert", "gp_end",
	};
	struct rcu_cblist rcl;
	/* Grace periods run from just below the wrap of unsigned long. */
	unsigned long completed = (0UL - 4000UL) << RCU_SEQ_CTR_SHIFT;
	long step, n_ops[ARRAY_SIZE(opname)] = { 0 }, n_true_acc = 0, n_full = 0, n_busy = 0;
	int i;

	rcu_segcblist_init(&l);
	rcu_cblist_init(&rcl);
	model_init();
	nfree = 0;
	for (i = 0; i < POOL; i++)
		free_ids[nfree++] = i;

	for (step = 0; step < RANDOM_STEPS; step++) {
		int op = rnd() % 100, id;
		unsigned long seq;
		bool r, mr;

		if (op < 30) {
			op = 0;
			if ((id = alloc_id()) < 0)
				continue;
			rcu_segcblist_enqueue(&l, &pool[id]);
			model_enqueue(id);
		} else if (op < 50) {
			op = 1;
			/* Mostly the next GP or the one after; sometimes already past or far. */
			seq = completed + (rnd() % 4) * 4 - (rnd() % 8 == 0 ? 8 : 0);
			r = rcu_segcblist_accelerate(&l, seq);
			mr = model_accelerate(seq);
			CHECK_EQ(r, mr);
			n_true_acc += r;
		} else if (op < 65) {
			op = 2;
			seq = completed - (rnd() % 3) * 4;
			rcu_segcblist_advance(&l, seq);
			model_advance(seq);
		} else if (op < 68) {
			op = 3;
			if ((id = alloc_id()) < 0)
				continue;
			r = rcu_segcblist_entrain(&l, &pool[id]);
			mr = model_entrain(id);
			CHECK_EQ(r, mr);
			if (!r)
				free_ids[nfree++] = id;
		} else if (op < 76) {
			op = 4;
			rcu_segcblist_extract_done_cbs(&l, &rcl);
			model_extract();
		} else if (op < 86) {
			int k = rnd() % 32;

			op = 5;
			while (k-- > 0) {
				struct rcu_head *rhp = rcu_cblist_dequeue(&rcl);

				if (!m.extracted.n) {
					CHECK(rhp == NULL);
					break;
				}
				CHECK_EQ(id_of(rhp), m.extracted.ids[0]);
				free_ids[nfree++] = m.extracted.ids[0];
				memmove(m.extracted.ids, m.extracted.ids + 1,
					--m.extracted.n * sizeof(int));
				rcu_segcblist_add_len(&l, -1);
			}
		} else if (op < 94) {
			op = 6;
			rcu_segcblist_insert_done_cbs(&l, &rcl);
			model_insert();
		} else {
			op = 7;
			completed += 4;		/* a grace period ends */
		}
		n_ops[op]++;
		/* Coverage: all four segments in use; a batch out while DONE refills. */
		n_full += m.seg[0].n && m.seg[1].n && m.seg[2].n && m.seg[3].n;
		n_busy += m.extracted.n && m.seg[0].n;
		check_list(&l);
		check_cblist(&rcl, &m.extracted);
		if (test_failed) {
			printf("# step %ld: %s failed the model check\n", step, opname[op]);
			return;
		}
	}
	CHECK(completed > 100);		/* the run crossed the wrap */
	printf("# %ld steps:", step);
	for (i = 0; i < (int)ARRAY_SIZE(opname); i++)
		printf(" %s %ld", opname[i], n_ops[i]);
	printf(", accelerate true %ld; all segments used %ld, batch out with DONE refilled %ld, free ids %d\n",
	       n_true_acc, n_full, n_busy, nfree);
	CHECK(n_full > RANDOM_STEPS / 100 && n_busy > RANDOM_STEPS / 100);
}

static const struct test_case tests[] = {
	TEST_CASE(test_init_empty),
	TEST_CASE(test_accelerate_advance),
	TEST_CASE(test_accelerate_merge),
	TEST_CASE(test_advance_compacts),
	TEST_CASE(test_entrain),
	TEST_CASE(test_extract_insert),
	TEST_CASE(test_extract_all),
	TEST_CASE(test_random),
};

TEST_MAIN("test_segcblist", tests)
