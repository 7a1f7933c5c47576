/*
 * A small lockdep (CONFIG_LOCKDEP, selected by CONFIG_PROVE_LOCKING): every
 * lock belongs to a class (one per initialisation site, or per static lock),
 * each task keeps a stack of the locks it holds, and taking lock B while
 * holding A records the class dependency A -> B. A new dependency that
 * closes a cycle is a possible deadlock, reported once even if it never
 * happened. Releasing a lock the task does not hold is reported too. After
 * the first report debug_locks is 0 and lockdep stops checking, as in Linux.
 *
 * Off, every hook here is an empty static inline and the lock structures
 * carry no lockdep_map: the locks cost exactly what they did before.
 */
#ifndef _LOCKING_LOCKDEP_H
#define _LOCKING_LOCKDEP_H

#include <kernel/types.h>
#include <kernel/compiler.h>

struct task_struct;

/* The address of the code here (inlined into the caller: the lock's call site). */
#define _THIS_IP_	({ __label__ __here; __here: (unsigned long)&&__here; })
/* The caller of the function using it. */
#define _RET_IP_	((unsigned long)__builtin_return_address(0))
/*
 * The ip to pass from an inlined lock operation: 0 makes lock_acquire() and
 * lock_release() record their own return address, which is the lock's call
 * site exactly (a label address, Linux's _THIS_IP_, may be hoisted by the
 * compiler to the start of the function).
 */
#define LOCKDEP_HERE	0UL

/* A class key: only its address matters (one static object per init site). */
struct lock_class_key {
	char unused;
};

#ifdef CONFIG_LOCKDEP

struct lock_class;

/* Embedded in each tracked lock. A NULL key means "the lock is static: its address is the key". */
struct lockdep_map {
	struct lock_class_key *key;
	const char *name;
	struct lock_class *class;	/* cached on first use */
};

/* One entry of a task's held-lock stack. */
struct held_lock {
	struct lockdep_map *map;
	struct lock_class *class;
	unsigned long ip;		/* where it was taken */
	u8 trylock;
	u8 irq_ctx;			/* taken in interrupt context (dependencies stay per context) */
	u8 irqs_off;			/* interrupts were off when taken */
	u8 nograph;			/* reader-style map (RCU): listed, no dependencies */
};

#define MAX_LOCK_DEPTH	48

/* The per-task part, embedded in struct task_struct. */
struct task_lockdep {
	int depth;
	int recursion;			/* inside lockdep itself: do not track */
	struct held_lock held[MAX_LOCK_DEPTH];
};

/* 1 until the first lockdep report (then 0: nothing is checked any more). */
extern int debug_locks;

#define STATIC_LOCKDEP_MAP_INIT(_name, _key)	{ .key = (_key), .name = (_name) }

/* Tracked acquire/release; ip is the caller. lock_release() returns false after a bad-unlock report. */
void lock_acquire(struct lockdep_map *map, bool trylock, bool nograph, unsigned long ip);
bool lock_release(struct lockdep_map *map, unsigned long ip);
/* True when the current task holds the lock (true too once lockdep is off: nothing to check). */
bool lock_is_held(const struct lockdep_map *map);
/* "N locks held by comm/pid:" and the list, as Linux prints it. */
void lockdep_print_held_locks(struct task_struct *p);
/* Print the current task's held locks, if any (scheduling-while-atomic reports). */
void debug_show_held_locks(struct task_struct *p);
/* Power-off statistics: classes, dependencies, debug_locks (one "lockdep:" line). */
void lockdep_show_stats(void);
/* Turn lockdep off; returns true for the caller that turned it off (it reports). */
bool debug_locks_off(void);

/* Give a lock its class from a static key at this source line (spin_lock_init(), mutex_init()). */
#define lockdep_init_site(map, _name)						\
	do {									\
		static struct lock_class_key __lockdep_key;			\
		(map)->key = &__lockdep_key;					\
		(map)->name = (_name);						\
		(map)->class = NULL;						\
	} while (0)

#define lockdep_is_held(lock)	lock_is_held(&(lock)->dep_map)

#else /* !CONFIG_LOCKDEP */

struct lockdep_map { };

/* Macros, not inlines: the arguments (current, return addresses) are not even evaluated. */
#define lockdep_init_site(map, name)		do { } while (0)
#define lock_acquire(map, trylock, nograph, ip)	do { } while (0)
#define lock_release(map, ip)			(true)
#define debug_show_held_locks(p)		do { } while (0)
#define lockdep_show_stats()			do { } while (0)
/* Without lockdep a lock's holder is not known per task: answer "held" (nothing to check). */
#define lockdep_is_held(lock)	((void)(lock), 1)

#endif /* CONFIG_LOCKDEP */

#endif
