/*
 * CPU masks over NR_CPUS bits, and the global masks: possible (found in
 * ACPI, capped at NR_CPUS), online (running). nr_cpu_ids is one more than
 * the highest possible CPU number.
 */
#ifndef _KERNEL_CPUMASK_H
#define _KERNEL_CPUMASK_H

#include <kernel/bitmap.h>
#include <kernel/atomic.h>

#define NR_CPUS		CONFIG_NR_CPUS

struct cpumask { DECLARE_BITMAP(bits, NR_CPUS); };
typedef struct cpumask cpumask_t;

extern unsigned int nr_cpu_ids;
extern struct cpumask __cpu_possible_mask, __cpu_online_mask;
#define cpu_possible_mask	((const struct cpumask *)&__cpu_possible_mask)
#define cpu_online_mask		((const struct cpumask *)&__cpu_online_mask)

#define cpumask_bits(m)		((m)->bits)
static inline void cpumask_set_cpu(unsigned cpu, struct cpumask *m) { set_bit(cpu, m->bits); }
static inline void cpumask_clear_cpu(unsigned cpu, struct cpumask *m) { clear_bit(cpu, m->bits); }
static inline bool cpumask_test_cpu(unsigned cpu, const struct cpumask *m)
{ return (READ_ONCE(m->bits[cpu / BITS_PER_LONG]) >> (cpu % BITS_PER_LONG)) & 1; }
static inline void cpumask_clear(struct cpumask *m) { bitmap_zero(m->bits, NR_CPUS); }
static inline void cpumask_copy(struct cpumask *d, const struct cpumask *s) { bitmap_copy(d->bits, s->bits, NR_CPUS); }
static inline void cpumask_setall(struct cpumask *m) { bitmap_zero(m->bits, NR_CPUS); bitmap_fill(m->bits, nr_cpu_ids); }
static inline bool cpumask_and(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ bitmap_and(d->bits, a->bits, b->bits, NR_CPUS); return !bitmap_empty(d->bits, NR_CPUS); }
static inline void cpumask_or(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ bitmap_or(d->bits, a->bits, b->bits, NR_CPUS); }
static inline void cpumask_andnot(struct cpumask *d, const struct cpumask *a, const struct cpumask *b)
{ bitmap_andnot(d->bits, a->bits, b->bits, NR_CPUS); }
static inline bool cpumask_empty(const struct cpumask *m) { return bitmap_empty(m->bits, NR_CPUS); }
static inline unsigned cpumask_weight(const struct cpumask *m) { return bitmap_weight(m->bits, NR_CPUS); }
static inline unsigned cpumask_first(const struct cpumask *m) { return find_first_bit(m->bits, NR_CPUS); }
static inline unsigned cpumask_next(int n, const struct cpumask *m) { return find_next_bit(m->bits, NR_CPUS, n + 1); }
#define for_each_cpu(cpu, mask)	\
	for ((cpu) = cpumask_first(mask); (cpu) < NR_CPUS; (cpu) = cpumask_next((cpu), (mask)))
/*
 * Every CPU of mask once, from start (or the first after it) round to the
 * CPU before it: so that CPUs scanning one mask start in different places.
 */
static inline unsigned cpumask_first_wrap(unsigned start, const struct cpumask *m)
{
	unsigned c = start < NR_CPUS ? find_next_bit(m->bits, NR_CPUS, start) : NR_CPUS;

	return c < NR_CPUS ? c : cpumask_first(m);
}
/* The CPU of m after n in the order that began at start; NR_CPUS once round. */
static inline unsigned cpumask_next_wrap(unsigned n, const struct cpumask *m, unsigned start)
{
	unsigned c = cpumask_next(n, m);

	if (n >= start) {		/* still in the part from start on */
		if (c < NR_CPUS)
			return c;
		c = cpumask_first(m);	/* wrap round to CPU 0 */
	}
	return c < start ? c : NR_CPUS;	/* stop on coming back to start */
}
#define for_each_cpu_wrap(cpu, mask, start)						\
	for ((cpu) = cpumask_first_wrap((start), (mask)); (cpu) < NR_CPUS;			\
	     (cpu) = cpumask_next_wrap((cpu), (mask), (start)))
/* Set or clear cpu's bit; no atomic write when it already has that value. */
static inline void cpumask_assign_cpu(unsigned cpu, struct cpumask *m, bool val)
{
	if (val != cpumask_test_cpu(cpu, m)) {
		if (val)
			cpumask_set_cpu(cpu, m);
		else
			cpumask_clear_cpu(cpu, m);
	}
}
#define for_each_possible_cpu(cpu)	for_each_cpu((cpu), cpu_possible_mask)
#define for_each_online_cpu(cpu)	for_each_cpu((cpu), cpu_online_mask)
#define cpu_online(cpu)		cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_possible(cpu)	cpumask_test_cpu((cpu), cpu_possible_mask)
#define num_online_cpus()	cpumask_weight(cpu_online_mask)
#define num_possible_cpus()	cpumask_weight(cpu_possible_mask)
static inline void set_cpu_online(unsigned cpu, bool on)
{ if (on) cpumask_set_cpu(cpu, &__cpu_online_mask); else cpumask_clear_cpu(cpu, &__cpu_online_mask); }

#endif
