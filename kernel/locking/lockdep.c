/*
 * A small lockdep (CONFIG_LOCKDEP): lock classes, per-task held-lock stacks,
 * a class dependency graph checked for cycles, hardirq usage states, and
 * Linux's reports. What it proves is "this order can deadlock", from one
 * run, whether or not the deadlock ever happened: A->B recorded once on
 * one CPU and B->A later on another closes a cycle in the graph.
 *
 * Classes: a lock initialised by spin_lock_init()/mutex_init() belongs to
 * the class of that call site (the static key the macro defines); a lock
 * initialised statically is its own class, keyed by its address. A lock
 * whose key is neither (a static initialiser copied into dynamic memory) is
 * not tracked: its address would name a new class per object.
 *
 * The graph is a bit matrix of class pairs (is A -> B known?) for the fast
 * "already recorded" test and the breadth-first cycle search, plus a list of
 * the edges with the code address that recorded each, for the report.
 * graph_lock (a raw spinlock, itself untracked) serialises changes.
 *
 * After the first report debug_locks is 0 and everything here returns at
 * once: the graph and the held-lock stacks may be inconsistent from then
 * on, and Linux stops for the same reason.
 */
#include <locking/lockdep.h>
#include <locking/spinlock.h>
#include <sched/task.h>
#include <kernel/irqflags.h>
#include <kernel/preempt.h>
#include <kernel/printk.h>
#include <kernel/bug.h>
#include <kernel/string.h>
#include <kernel/sprintf.h>
#include <kernel/bitmap.h>
#include <mm/mm.h>

#define MAX_LOCKDEP_KEYS	512	/* classes */
#define CLASS_HASH_SIZE		1024	/* open addressing, power of two */
#define MAX_LOCKDEP_ENTRIES	4096	/* dependency edges */
#define CLASS_WORDS		(MAX_LOCKDEP_KEYS / BITS_PER_LONG)

/* Hardirq usage states of a class (the "irq-state tracking"). */
#define USED_IN_HARDIRQ		0	/* taken inside a hardirq handler */
#define ENABLED_HARDIRQ		1	/* taken with hardirqs enabled */

struct lock_class {
	const void *key;
	const char *name;
	u8 usage;			/* bit per USED_IN_HARDIRQ/ENABLED_HARDIRQ */
	unsigned long usage_ip[2];	/* where each usage state was first seen */
};

struct lock_dep {
	u16 from, to;			/* class indices */
	unsigned long ip;		/* where `to` was taken with `from` held */
};

int debug_locks = 1;

static spinlock_t graph_lock = __SPIN_LOCK_UNLOCKED(graph_lock);
static struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
static unsigned int nr_lock_classes;
static u16 class_hash[CLASS_HASH_SIZE];		/* index + 1; 0 = empty */
static unsigned long dep_bits[MAX_LOCKDEP_KEYS][CLASS_WORDS];
static struct lock_dep lock_deps[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_lock_deps;

/* Breadth-first search state, used under graph_lock only. */
static u16 bfs_queue[MAX_LOCKDEP_KEYS];
static s16 bfs_parent[MAX_LOCKDEP_KEYS];

static inline unsigned int class_idx(const struct lock_class *c) { return c - lock_classes; }

static bool dep_known(unsigned int a, unsigned int b)
{
	return READ_ONCE(dep_bits[a][b / BITS_PER_LONG]) & (1UL << (b % BITS_PER_LONG));
}

/*
 * Turn the checks off for good. Only the first caller gets true and
 * prints; everybody else sees debug_locks == 0 and leaves.
 */
bool debug_locks_off(void)
{
	return __atomic_exchange_n(&debug_locks, 0, __ATOMIC_RELAXED) != 0;
}

static const char *lock_name(const struct lock_class *c)
{
	return c && c->name ? c->name : "(unknown)";
}

/* A static object lies in the image's data or bss (not in the per-CPU template). */
static bool static_obj(const void *p)
{
	unsigned long a = (unsigned long)p;

	return a >= (unsigned long)_sdata && a < (unsigned long)__bss_end;
}

/* Find or create the class of `map`; NULL when the lock cannot be tracked. */
static struct lock_class *map_class(struct lockdep_map *map)
{
	const void *key = map->key ? (const void *)map->key : (const void *)map;
	struct lock_class *c = NULL;
	unsigned int h, i;

	if (likely(map->class))
		return map->class;
	if (!map->key && !static_obj(map))
		return NULL;
	h = ((unsigned long)key >> 3) * 0x9e3779b97f4a7c15UL >> 54;
	do_raw_spin_lock(&graph_lock, _THIS_IP_);
	for (i = 0; i < CLASS_HASH_SIZE; i++, h = (h + 1) & (CLASS_HASH_SIZE - 1)) {
		unsigned int slot = class_hash[h];

		if (!slot) {
			if (nr_lock_classes >= MAX_LOCKDEP_KEYS)
				break;
			c = &lock_classes[nr_lock_classes];
			c->key = key;
			c->name = map->name;
			class_hash[h] = ++nr_lock_classes;
			break;
		}
		if (lock_classes[slot - 1].key == key) {
			c = &lock_classes[slot - 1];
			break;
		}
	}
	do_raw_spin_unlock(&graph_lock);
	if (!c && debug_locks_off())
		printk(KERN_ERR "BUG: MAX_LOCKDEP_KEYS too low!\nturning off the locking correctness validator.\n");
	map->class = c;
	return c;
}

static void print_lock(const char *prefix, const struct held_lock *h)
{
	printk(KERN_ERR "%s%016lx (%s), at: %pS\n", prefix, (unsigned long)h->map,
	       lock_name(h->class), (void *)h->ip);
}

/*
 * One line at power-off, as Linux's /proc/lockdep_stats would say it, so a
 * clean run shows that lockdep did run (and kept debug_locks on).
 */
void lockdep_show_stats(void)
{
	printk(KERN_INFO "lockdep: %u lock classes, %u direct dependencies, debug_locks=%d\n",
	       READ_ONCE(nr_lock_classes), READ_ONCE(nr_lock_deps), READ_ONCE(debug_locks));
}

void lockdep_print_held_locks(struct task_struct *p)
{
	int i, depth = p->lockdep.depth;
	char prefix[8];

	if (!depth) {
		printk(KERN_ERR "no locks held by %s/%d.\n", p->comm, p->pid);
		return;
	}
	printk(KERN_ERR "%d lock%s held by %s/%d:\n", depth, depth > 1 ? "s" : "",
	       p->comm, p->pid);
	for (i = 0; i < depth && i < MAX_LOCK_DEPTH; i++) {
		snprintf(prefix, sizeof(prefix), " #%d: ", i);
		print_lock(prefix, &p->lockdep.held[i]);
	}
}

void debug_show_held_locks(struct task_struct *p)
{
	if (p && READ_ONCE(debug_locks) && p->lockdep.depth)
		lockdep_print_held_locks(p);
}

static void print_banner(const char *title)
{
	size_t n = strlen(title);
	char line[64];

	if (n >= sizeof(line))
		n = sizeof(line) - 1;
	memset(line, '=', n);
	line[n] = 0;
	printk(KERN_ERR "\n");
	printk(KERN_ERR "%s\n", line);
	printk(KERN_ERR "%s\n", title);
	memset(line, '-', n);
	printk(KERN_ERR "%s\n", line);
}

static void print_tail(struct task_struct *p)
{
	lockdep_print_held_locks(p);
	printk(KERN_ERR "\nstack backtrace:\n");
	dump_stack();
}

/*
 * The cycle found: path[0] = the class being taken, ..., path[n-1] = a class
 * already held, each path[i] -> path[i+1] a recorded dependency. ips[i] is
 * where that dependency was recorded.
 */
static void print_circular(struct task_struct *p, const struct held_lock *held,
			   struct lockdep_map *map, struct lock_class *next, unsigned long ip,
			   const u16 *path, const unsigned long *ips, int n)
{
	struct lock_class *src = next, *tgt = held->class;
	int i;

	print_banner("WARNING: possible circular locking dependency detected");
	printk(KERN_ERR "%s/%d is trying to acquire lock:\n", p->comm, p->pid);
	printk(KERN_ERR "%016lx (%s), at: %pS\n", (unsigned long)map, lock_name(next), (void *)ip);
	printk(KERN_ERR "\nbut task is already holding lock:\n");
	print_lock("", held);
	printk(KERN_ERR "\nwhich lock already depends on the new lock.\n\n");
	printk(KERN_ERR "\nthe existing dependency chain (in reverse order) is:\n");
	for (i = n - 1; i >= 1; i--) {
		printk(KERN_ERR "\n-> #%d (%s):\n", i, lock_name(&lock_classes[path[i]]));
		printk(KERN_ERR "       taken with (%s) held at %pS\n",
		       lock_name(&lock_classes[path[i - 1]]), (void *)ips[i - 1]);
	}
	printk(KERN_ERR "\n-> #0 (%s):\n", lock_name(next));
	printk(KERN_ERR "       taken with (%s) held at %pS\n", lock_name(tgt), (void *)ip);
	printk(KERN_ERR "\nother info that might help us debug this:\n\n");
	if (n == 2) {
		printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
		printk(KERN_ERR "       CPU0                    CPU1\n");
		printk(KERN_ERR "       ----                    ----\n");
		printk(KERN_ERR "  lock(%s);\n", lock_name(tgt));
		printk(KERN_ERR "                               lock(%s);\n", lock_name(src));
		printk(KERN_ERR "                               lock(%s);\n", lock_name(tgt));
		printk(KERN_ERR "  lock(%s);\n", lock_name(src));
		printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	} else {
		printk(KERN_ERR "Chain exists of:\n  ");
		for (i = n - 1; i >= 0; i--)
			printk(KERN_CONT "%s%s", lock_name(&lock_classes[path[i]]), i ? " --> " : "\n\n");
	}
	print_tail(p);
}

/*
 * Is `from` reachable from `start` (an edge start -> ... -> from)? On success
 * fill path/ips from start to from and return the number of classes on it.
 * Called under graph_lock.
 */
static int find_path(unsigned int start, unsigned int from, u16 *path, unsigned long *ips)
{
	unsigned int head = 0, tail = 0, i, w, n;

	for (i = 0; i < nr_lock_classes; i++)
		bfs_parent[i] = -1;
	bfs_parent[start] = start;
	bfs_queue[tail++] = start;
	while (head < tail) {
		unsigned int c = bfs_queue[head++];

		if (c == from)
			goto found;
		for (w = 0; w < CLASS_WORDS; w++) {
			unsigned long bits = dep_bits[c][w];

			while (bits) {
				unsigned int b = w * BITS_PER_LONG + __builtin_ctzl(bits);

				bits &= bits - 1;
				if (bfs_parent[b] < 0) {
					bfs_parent[b] = c;
					bfs_queue[tail++] = b;
				}
			}
		}
	}
	return 0;
found:
	/* Walk back from `from` to `start`, then reverse. */
	n = 0;
	for (i = from; ; i = bfs_parent[i]) {
		path[n++] = i;
		if (i == start || n == MAX_LOCKDEP_KEYS)
			break;
	}
	for (i = 0; i < n / 2; i++) {
		u16 t = path[i];

		path[i] = path[n - 1 - i];
		path[n - 1 - i] = t;
	}
	for (i = 0; i + 1 < n; i++) {
		ips[i] = 0;
		for (w = 0; w < nr_lock_deps; w++)
			if (lock_deps[w].from == path[i] && lock_deps[w].to == path[i + 1]) {
				ips[i] = lock_deps[w].ip;
				break;
			}
	}
	return n;
}

/* Record held->class -> next; report and return false if it closes a cycle. */
static bool add_dependency(struct task_struct *p, const struct held_lock *held,
			   struct lockdep_map *map, struct lock_class *next, unsigned long ip)
{
	unsigned int a = class_idx(held->class), b = class_idx(next);
	static u16 path[MAX_LOCKDEP_KEYS];
	static unsigned long ips[MAX_LOCKDEP_KEYS];
	int n;

	if (dep_known(a, b))
		return true;
	do_raw_spin_lock(&graph_lock, _THIS_IP_);
	if (dep_known(a, b) || !READ_ONCE(debug_locks)) {
		do_raw_spin_unlock(&graph_lock);
		return true;
	}
	n = find_path(b, a, path, ips);
	if (n) {
		bool first = debug_locks_off();

		do_raw_spin_unlock(&graph_lock);
		if (first)
			print_circular(p, held, map, next, ip, path, ips, n);
		return false;
	}
	if (nr_lock_deps >= MAX_LOCKDEP_ENTRIES) {
		bool first = debug_locks_off();

		do_raw_spin_unlock(&graph_lock);
		if (first)
			printk(KERN_ERR "BUG: MAX_LOCKDEP_ENTRIES too low!\nturning off the locking correctness validator.\n");
		return false;
	}
	lock_deps[nr_lock_deps++] = (struct lock_dep){ .from = a, .to = b, .ip = ip };
	WRITE_ONCE(dep_bits[a][b / BITS_PER_LONG], dep_bits[a][b / BITS_PER_LONG] | (1UL << (b % BITS_PER_LONG)));
	do_raw_spin_unlock(&graph_lock);
	return true;
}

static const char *const usage_names[] = { "IN-HARDIRQ-W", "HARDIRQ-ON-W" };

/*
 * A class used inside a hardirq handler and also taken with hardirqs
 * enabled can deadlock against itself on one CPU: report the first
 * occurrence of the second state.
 */
static bool mark_usage(struct task_struct *p, struct lockdep_map *map, struct lock_class *c,
		       unsigned long ip, bool irqs_off)
{
	int bit = in_hardirq() ? USED_IN_HARDIRQ : (!irqs_off ? ENABLED_HARDIRQ : -1);
	int other;

	if (bit < 0 || (READ_ONCE(c->usage) & (1U << bit)))
		return true;
	do_raw_spin_lock(&graph_lock, _THIS_IP_);
	if (!(c->usage & (1U << bit))) {
		c->usage_ip[bit] = ip;
		WRITE_ONCE(c->usage, c->usage | (1U << bit));
	}
	other = !bit;
	if (!(c->usage & (1U << other)) || !debug_locks_off()) {
		do_raw_spin_unlock(&graph_lock);
		return true;
	}
	do_raw_spin_unlock(&graph_lock);
	print_banner("WARNING: inconsistent lock state");
	printk(KERN_ERR "inconsistent {%s} -> {%s} usage.\n", usage_names[other], usage_names[bit]);
	printk(KERN_ERR "%s/%d [HC%u[%u]:SC%u[%u]:HE%u:SE%u] takes:\n", p->comm, p->pid,
	       in_hardirq() ? 1 : 0, (preempt_count() & HARDIRQ_MASK) >> 16,
	       in_softirq() ? 1 : 0, (preempt_count() & SOFTIRQ_MASK) >> 8,
	       !irqs_off, !in_softirq());
	printk(KERN_ERR "%016lx (%s), at: %pS\n", (unsigned long)map, lock_name(c), (void *)ip);
	printk(KERN_ERR "{%s} state was registered at:\n  %pS\n", usage_names[other],
	       (void *)c->usage_ip[other]);
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	printk(KERN_ERR " Possible unsafe locking scenario:\n\n");
	printk(KERN_ERR "       CPU0\n       ----\n");
	printk(KERN_ERR "  lock(%s);\n  <Interrupt>\n    lock(%s);\n", lock_name(c), lock_name(c));
	printk(KERN_ERR "\n *** DEADLOCK ***\n\n");
	print_tail(p);
	return false;
}

/* Lockdep may look at the current task: not in NMIs, not before it exists, not recursively. */
static struct task_struct *lockdep_task(void)
{
	struct task_struct *p;

	if (unlikely(!READ_ONCE(debug_locks)) || in_nmi())
		return NULL;
	p = current;
	if (!p || p->lockdep.recursion)
		return NULL;
	return p;
}

void lock_acquire(struct lockdep_map *map, bool trylock, bool nograph, unsigned long ip)
{
	struct task_struct *p;
	struct lock_class *c;
	struct held_lock *h;
	unsigned long flags;
	bool irq_ctx, irqs_off;
	int i, depth;

	if (!ip)
		ip = _RET_IP_;
	local_irq_save(flags);
	irqs_off = irqs_disabled_flags(flags);
	p = lockdep_task();
	if (!map || !p)
		goto out;
	p->lockdep.recursion++;
	c = map_class(map);
	if (!c)
		goto done;
	depth = p->lockdep.depth;
	if (depth >= MAX_LOCK_DEPTH) {
		if (debug_locks_off()) {
			printk(KERN_ERR "BUG: MAX_LOCK_DEPTH too low!\nturning off the locking correctness validator.\n");
			lockdep_print_held_locks(p);
			dump_stack();
		}
		goto done;
	}
	irq_ctx = in_interrupt() != 0;
	if (!nograph) {
		if (!mark_usage(p, map, c, ip, irqs_off))
			goto done;
		/*
		 * Every lock held in this context comes before the new one.
		 * A trylock cannot wait, so it adds no dependency on itself,
		 * but locks taken later do depend on it.
		 */
		for (i = 0; !trylock && i < depth; i++) {
			struct held_lock *prev = &p->lockdep.held[i];

			if (prev->nograph || prev->class == c || prev->irq_ctx != irq_ctx)
				continue;
			if (!add_dependency(p, prev, map, c, ip))
				goto done;
		}
	}
	h = &p->lockdep.held[depth];
	h->map = map;
	h->class = c;
	h->ip = ip;
	h->trylock = trylock;
	h->irq_ctx = irq_ctx;
	h->irqs_off = irqs_off;
	h->nograph = nograph;
	p->lockdep.depth = depth + 1;
done:
	p->lockdep.recursion--;
out:
	local_irq_restore(flags);
}

static void print_bad_unlock(struct task_struct *p, struct lockdep_map *map, unsigned long ip)
{
	print_banner("WARNING: bad unlock balance detected!");
	printk(KERN_ERR "%s/%d is trying to release lock (%s) at:\n", p->comm, p->pid,
	       map->name ? map->name : "(unknown)");
	printk(KERN_ERR "%pS\n", (void *)ip);
	printk(KERN_ERR "but there are no more locks to release!\n");
	printk(KERN_ERR "\nother info that might help us debug this:\n");
	print_tail(p);
}

bool lock_release(struct lockdep_map *map, unsigned long ip)
{
	struct task_struct *p;
	unsigned long flags;
	bool ok = true;
	int i;

	if (!ip)
		ip = _RET_IP_;
	local_irq_save(flags);
	p = lockdep_task();
	if (!map || !p)
		goto out;
	p->lockdep.recursion++;
	if (!map_class(map))
		goto done;	/* never tracked */
	/* Usually the last one taken; otherwise take it out of the middle. */
	for (i = p->lockdep.depth - 1; i >= 0; i--)
		if (p->lockdep.held[i].map == map)
			break;
	if (i >= 0) {
		p->lockdep.depth--;
		for (; i < p->lockdep.depth; i++)
			p->lockdep.held[i] = p->lockdep.held[i + 1];
	} else {
		ok = false;
		if (debug_locks_off())
			print_bad_unlock(p, map, ip);
	}
done:
	p->lockdep.recursion--;
out:
	local_irq_restore(flags);
	return ok;
}

bool lock_is_held(const struct lockdep_map *map)
{
	struct task_struct *p = current;
	int i;

	if (!READ_ONCE(debug_locks) || !p)
		return true;
	for (i = 0; i < p->lockdep.depth; i++)
		if (p->lockdep.held[i].map == map)
			return true;
	return false;
}
