/*
 * The "rcu" KTAP suite's list cases (rcutree.selftest=1, listed in
 * api.c): the <rcu/rculist.h> primitives single-threaded, then an
 * RCU-protected list updated under concurrent readers on every CPU, with
 * freed elements poisoned so a reader that sees one after its grace
 * period reports it.
 */
#define pr_fmt(fmt) "rcu: " fmt

#include "common.h"

/* --- <rcu/rculist.h>, single-threaded ------------------------------------------------ */

struct rst_item {
	int key;
	struct list_head node;
	struct hlist_node hnode;
};

/*
 * The list primitives' effects, checked by one thread: order after
 * add/add_tail/replace, list_first_or_null_rcu(), and that deletion keeps
 * ->next intact for readers standing on the deleted element (only
 * ->prev/->pprev are poisoned); hlist add/walk/del/del_init likewise.
 */
void rcu_rculist_api(void)
{
	static struct rst_item it[4];
	LIST_HEAD(head);
	struct hlist_head hhead = HLIST_HEAD_INIT;
	struct rst_item *pos;
	int keys[8], n = 0;

	for (int i = 0; i < 4; i++) {
		it[i].key = i;
		INIT_HLIST_NODE(&it[i].hnode);
	}
	KTAP_EXPECT(list_first_or_null_rcu(&head, struct rst_item, node) == NULL);
	KTAP_EXPECT(list_empty_rcu(&head));
	list_add_tail_rcu(&it[1].node, &head);
	list_add_tail_rcu(&it[2].node, &head);
	list_add_rcu(&it[0].node, &head);		/* 0 1 2 */
	list_replace_rcu(&it[1].node, &it[3].node);	/* 0 3 2 */
	KTAP_EXPECT(it[1].node.next == &it[2].node);	/* a reader on 1 still reaches 2 */
	rcu_read_lock();
	list_for_each_entry_rcu(pos, &head, node)
		if (n < 8)
			keys[n++] = pos->key;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 3 && keys[0] == 0 && keys[1] == 3 && keys[2] == 2,
			"list walk gave %d elements", n);
	list_del_rcu(&it[3].node);			/* 0 2 */
	KTAP_EXPECT(it[3].node.next == &it[2].node);
	KTAP_EXPECT(it[3].node.prev == LIST_POISON2);
	KTAP_EXPECT(list_first_or_null_rcu(&head, struct rst_item, node) == &it[0]);
	KTAP_EXPECT(head.prev == &it[2].node && it[2].node.prev == &it[0].node);

	hlist_add_head_rcu(&it[0].hnode, &hhead);
	hlist_add_head_rcu(&it[1].hnode, &hhead);
	hlist_add_head_rcu(&it[2].hnode, &hhead);	/* 2 1 0 */
	hlist_del_rcu(&it[1].hnode);			/* 2 0 */
	KTAP_EXPECT(it[1].hnode.next == &it[0].hnode);
	KTAP_EXPECT(it[1].hnode.pprev == LIST_POISON2);
	hlist_del_init_rcu(&it[0].hnode);		/* 2 */
	KTAP_EXPECT(hlist_unhashed(&it[0].hnode));
	hlist_del_init_rcu(&it[0].hnode);		/* unhashed: no effect */
	n = 0;
	rcu_read_lock();
	hlist_for_each_entry_rcu(pos, &hhead, hnode)
		if (n < 8)
			keys[n++] = pos->key;
	rcu_read_unlock();
	KTAP_EXPECT_MSG(n == 1 && keys[0] == 2, "hlist walk gave %d elements", n);
	KTAP_EXPECT(it[2].hnode.pprev == &hhead.first && !it[2].hnode.next);
}

/* --- an RCU list under concurrent readers ----------------------------------------- */

#define RST_LIST_LEN		32
#define RST_LIST_MAGIC		0x5243554c49535421UL	/* "RCULIST!" */
#define RST_POISON		0x6b			/* POISON_FREE, as Linux's slab uses */
#define RST_MAX_PENDING		4000			/* removed elements awaiting their GP */
#define RST_READER_UPDATE_EVERY	16			/* readers update once per this many walks */

struct rst_elem {
	unsigned long magic;
	unsigned long gen;
	struct list_head node;
	struct rcu_head rh;
};

static struct {
	spinlock_t lock;		/* serialises updaters */
	struct list_head head;
	unsigned int updater_cpu;
	u64 deadline;			/* local_clock() at which updates may stop ... */
	u64 hard_deadline;		/* ... and must, every reader having walked or not */
	atomic_t readers_walked;	/* readers that finished a first walk */
	unsigned int nreaders;
	bool stop;			/* set by the updater when done */
	unsigned long gen;		/* under lock */
	unsigned long updates;		/* written under lock, read by readers */
	atomic_long_t alloc_fail;
	atomic_long_t queued, freed;	/* removed elements: call_rcu()'d, poisoned and freed */
	atomic_long_t bad;		/* elements seen with a wrong magic */
	atomic_long_t too_long;		/* walks longer than the updates can explain */
	unsigned long max_walk;		/* longest walk seen (racy, for the report) */
	unsigned long bad_magic;	/* the first wrong magic, and where */
	int bad_cpu;
	unsigned long walks[NR_CPUS];
	unsigned long freed_on[BITS_TO_LONGS(NR_CPUS)];	/* CPUs that ran a free callback */
	unsigned long queued_on[BITS_TO_LONGS(NR_CPUS)];	/* CPUs that queued one */
} rl = {
	.lock = __SPIN_LOCK_UNLOCKED(rl.lock),
	.head = LIST_HEAD_INIT(rl.head),
};

static void rst_elem_free(struct rcu_head *rh)
{
	struct rst_elem *e = container_of(rh, struct rst_elem, rh);

	/* Poison first: a reader still holding e would now see a wrong magic. */
	memset(e, RST_POISON, sizeof(*e));
	kfree(e);
	set_bit(raw_smp_processor_id(), rl.freed_on);
	atomic_long_inc(&rl.freed);
}

static struct rst_elem *rst_elem_new(void)
{
	struct rst_elem *e = kmalloc(sizeof(*e), GFP_KERNEL);

	if (!e) {
		atomic_long_inc(&rl.alloc_fail);
		return NULL;
	}
	e->magic = RST_LIST_MAGIC;	/* published by the rcu_assign_pointer() that links e */
	e->gen = 0;
	return e;
}

/*
 * Replace, or remove and re-add at either end, the element at position pos.
 * A reader's update (may_skip) only tries the lock and gives up if it is
 * taken: with hundreds of vCPUs on one host thread, readers queueing on the
 * ticket lock at once waited for each other's vCPUs in turn, for over 30 s.
 * Returns false if it did nothing.
 */
static bool rst_list_update_one(unsigned int pos, unsigned int how, bool may_skip)
{
	struct rst_elem *n, *old = NULL, *e;
	unsigned int i = 0;

	if (may_skip && spin_is_locked(&rl.lock))
		return false;	/* skip the allocation too: the slab lock is shared as well */
	n = rst_elem_new();
	if (!n)
		return false;
	if (!may_skip)
		spin_lock(&rl.lock);
	else if (!spin_trylock(&rl.lock)) {
		kfree(n);
		return false;
	}
	list_for_each_entry(e, &rl.head, node) {
		if (i++ == pos % RST_LIST_LEN) {
			old = e;
			break;
		}
	}
	if (!old) {		/* cannot happen: the list keeps RST_LIST_LEN elements */
		spin_unlock(&rl.lock);
		kfree(n);
		return false;
	}
	n->gen = ++rl.gen;
	switch (how % 3) {
	case 0:
		list_replace_rcu(&old->node, &n->node);
		break;
	case 1:
		list_del_rcu(&old->node);
		list_add_rcu(&n->node, &rl.head);
		break;
	default:
		list_del_rcu(&old->node);
		list_add_tail_rcu(&n->node, &rl.head);
		break;
	}
	WRITE_ONCE(rl.updates, rl.updates + 1);
	spin_unlock(&rl.lock);
	atomic_long_inc(&rl.queued);
	set_bit(raw_smp_processor_id(), rl.queued_on);	/* the workers are bound to their CPUs */
	call_rcu(&old->rh, rst_elem_free);
	return true;
}

static bool rst_list_backlog(void)
{
	return atomic_long_read(&rl.queued) - atomic_long_read(&rl.freed) > RST_MAX_PENDING;
}

/* One walk of the list in a read-side section, checking every element's magic. */
static void rst_list_walk(unsigned int cpu)
{
	unsigned long u0 = READ_ONCE(rl.updates);
	struct rst_elem *e;
	unsigned long n = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(e, &rl.head, node) {
		unsigned long m = READ_ONCE(e->magic);

		if (m != RST_LIST_MAGIC) {
			if (atomic_long_inc_return(&rl.bad) == 1) {
				rl.bad_magic = m;
				rl.bad_cpu = cpu;
			}
			break;	/* its links may be poison too */
		}
		/*
		 * A walk may legitimately see more than RST_LIST_LEN elements:
		 * one it stands on when it is moved to the tail, or new ones
		 * added at the tail, are met again. But never more than one
		 * per update made meanwhile (plus the updates in flight, at
		 * most one per CPU): more means a cycle, a corrupt list.
		 */
		if (++n > RST_LIST_LEN + (READ_ONCE(rl.updates) - u0) + nr_cpu_ids) {
			atomic_long_inc(&rl.too_long);
			break;
		}
		/*
		 * Widen the window a little, with barrier(), not cpu_relax():
		 * under QEMU's TCG, PAUSE ends the vCPU's turn, and with 255
		 * vCPUs on one host thread a reader then advanced about one
		 * pause per turn: 20 pauses per element made one walk last
		 * 40 s of guest time, and a reader that never finished its
		 * first walk failed the test (1 boot in 3).
		 */
		for (int i = 0; i < 20; i++)
			barrier();
	}
	rcu_read_unlock();
	if (n > READ_ONCE(rl.max_walk))
		WRITE_ONCE(rl.max_walk, n);
	if (!rl.walks[cpu]++ && cpu != rl.updater_cpu)
		atomic_inc(&rl.readers_walked);
}

/* The updater; on one CPU it also does the reading, a walk after each update. */
static void rst_list_updater(unsigned int cpu)
{
	u32 rnd = 0x9e3779b9u ^ cpu;
	bool up = num_online_cpus() == 1;

	/*
	 * Until the deadline, and then on until every reader has finished a
	 * walk during the updates: with hundreds of vCPUs on one host thread
	 * a reader's kthread may first run seconds after the others (3 of
	 * 254 had not by a 2.6-s deadline in one run).
	 */
	while (local_clock() < rl.deadline ||
	       (atomic_read(&rl.readers_walked) < rl.nreaders && local_clock() < rl.hard_deadline)) {
		if (rst_list_backlog()) {
			msleep(1);
			continue;
		}
		rnd = rnd * 1664525u + 1013904223u;
		rst_list_update_one(rnd >> 8, rnd >> 24, false);
		if (up)
			rst_list_walk(cpu);
		cond_resched();
	}
	WRITE_ONCE(rl.stop, true);
}

static void rst_list_reader(unsigned int cpu)
{
	u64 hard_end = rl.hard_deadline + 2 * NSEC_PER_SEC;	/* in case the updater never stops */
	u32 rnd = 0x12345678u ^ cpu;
	bool queued = false;

	while (!READ_ONCE(rl.stop) && local_clock() < hard_end) {
		rst_list_walk(cpu);
		/* Between read-side sections: a quiescent state when RCU asks for one. */
		cond_resched();
		/*
		 * Free callbacks on every CPU. After every walk until one went
		 * through (a reader may walk only a few times with hundreds of
		 * vCPUs on one host thread), then every RST_READER_UPDATE_EVERY
		 * walks until the updater's deadline, as long as the backlog
		 * allows: readers walk millions of times on a fast host, and
		 * unchecked their updates flooded the callback lists (50,000
		 * callbacks on one CPU, past qhimark).
		 */
		if (!queued ||
		    (rl.walks[cpu] % RST_READER_UPDATE_EVERY == 0 && local_clock() < rl.deadline &&
		     !rst_list_backlog())) {
			rnd = rnd * 1664525u + 1013904223u;
			queued |= rst_list_update_one(rnd >> 8, rnd >> 24, true);
		}
	}
}

static void rst_list_worker(unsigned int cpu)
{
	if (cpu == rl.updater_cpu)
		rst_list_updater(cpu);
	else
		rst_list_reader(cpu);
}

/*
 * An RCU list of RST_LIST_LEN elements: one updater replaces/moves
 * elements for RST_LIST_MS (readers add an update now and then, so free
 * callbacks are queued on every CPU), freeing each removed element with
 * call_rcu() whose callback poisons it before kfree(). A reader kthread on
 * every other CPU walks the list in read-side sections and checks each
 * element's magic: a poisoned element inside a read-side section means a
 * grace period ended too early. On one CPU the reader shares the CPU.
 */
void rcu_list_readers(void)
{
	unsigned int cpu, ncpus = num_online_cpus();
	struct rst_elem *e, *tmp;
	unsigned long queued_cpus = 0, mismatch = 0, walks = 0;
	bool ok, any_offloaded = false;

	for_each_online_cpu(cpu)
		any_offloaded |= rcu_cpu_is_offloaded(cpu);

	rl.updater_cpu = raw_smp_processor_id();
	rl.stop = false;
	rl.updates = rl.gen = 0;
	atomic_long_set(&rl.alloc_fail, 0);
	atomic_long_set(&rl.queued, 0);
	atomic_long_set(&rl.freed, 0);
	atomic_long_set(&rl.bad, 0);
	atomic_long_set(&rl.too_long, 0);
	rl.max_walk = 0;
	memset(rl.walks, 0, sizeof(rl.walks));
	memset(rl.freed_on, 0, sizeof(rl.freed_on));
	memset(rl.queued_on, 0, sizeof(rl.queued_on));
	for (int i = 0; i < RST_LIST_LEN; i++) {
		e = rst_elem_new();
		if (!KTAP_EXPECT_MSG(e != NULL, "cannot allocate the list"))
			return;
		spin_lock(&rl.lock);
		list_add_tail_rcu(&e->node, &rl.head);
		spin_unlock(&rl.lock);
	}
	rl.deadline = local_clock() + RST_LIST_MS * NSEC_PER_MSEC;
	rl.hard_deadline = rl.deadline + RST_LIST_WAIT_MS * NSEC_PER_MSEC;
	rl.nreaders = ncpus > 1 ? ncpus - 1 : 0;
	atomic_set(&rl.readers_walked, 0);
	/*
	 * The readers spin: on a host with fewer cores than vCPUs each one
	 * may wait a host time slice (QEMU's single-threaded TCG gives a busy
	 * vCPU up to 100 ms) per other reader, and more than once, before it
	 * sees rl.stop (-smp 255 on one host thread: 10-45 s measured).
	 */
	ok = rst_run_on_cpus(cpu_online_mask, rst_list_worker,
			     RST_LIST_MS + RST_LIST_WAIT_MS + 5000 + 200 * ncpus);
	if (ok)
		ok = rst_barrier();
	for_each_online_cpu(cpu)
		walks += rl.walks[cpu];
	ktap_diag("%lu updates, %ld elements freed after a grace period, %lu list walks (longest %lu elements)",
		  rl.updates, atomic_long_read(&rl.freed), walks, rl.max_walk);
	ktap_diag("%d of %u readers walked the list while updates ran", atomic_read(&rl.readers_walked),
		  rl.nreaders);
	if (!KTAP_EXPECT_MSG(atomic_long_read(&rl.bad) == 0,
			     "%ld reads of freed (poisoned) elements: first magic %#lx on CPU %d",
			     atomic_long_read(&rl.bad), rl.bad_magic, rl.bad_cpu))
		pr_err("selftest: RCU list reader saw a freed element: grace period ended too early\n");
	KTAP_EXPECT_MSG(atomic_long_read(&rl.too_long) == 0, "%ld walks found a corrupt list",
			atomic_long_read(&rl.too_long));
	KTAP_EXPECT_MSG(rl.updates > 0, "no updates were made");
	KTAP_EXPECT_MSG(atomic_long_read(&rl.alloc_fail) == 0, "%ld allocations failed",
			atomic_long_read(&rl.alloc_fail));
	for_each_online_cpu(cpu) {
		if (cpu != rl.updater_cpu || ncpus == 1)
			KTAP_EXPECT_MSG(rl.walks[cpu] > 0, "reader on CPU %u never walked the list", cpu);
		if (test_bit(cpu, rl.queued_on))
			queued_cpus++;
		/* Offloaded CPUs' (rcu_nocbs=) run in rcuo kthreads, on other CPUs: no check then. */
		if (test_bit(cpu, rl.freed_on) != test_bit(cpu, rl.queued_on) && !any_offloaded)
			mismatch++;
	}
	if (!ok)
		return;		/* threads or callbacks may still use the list: leak it */
	KTAP_EXPECT_MSG(atomic_long_read(&rl.queued) == atomic_long_read(&rl.freed),
			"%ld elements removed, %ld freed after rcu_barrier()",
			atomic_long_read(&rl.queued), atomic_long_read(&rl.freed));
	/*
	 * Callbacks run on the CPU that queued them. Readers' updates only try
	 * the lock, so not every reader need have queued one: beyond the
	 * updater, at least one must have.
	 */
	ktap_diag("free callbacks queued on %lu of %u CPUs", queued_cpus, ncpus);
	KTAP_EXPECT_MSG(mismatch == 0, "%lu CPUs queued free callbacks but ran none, or ran some but queued none",
			mismatch);
	KTAP_EXPECT_MSG(queued_cpus >= min(ncpus, 2U), "free callbacks queued on only %lu of %u CPUs",
			queued_cpus, ncpus);
	spin_lock(&rl.lock);
	list_for_each_entry_safe(e, tmp, &rl.head, node) {
		list_del(&e->node);
		kfree(e);
	}
	spin_unlock(&rl.lock);
}
