/*
 * UBSAN's runtime (CONFIG_UBSAN): the __ubsan_handle_* entry points GCC
 * calls when an instrumented check fails, printing Linux's report:
 *
 *   ================================================================================
 *   UBSAN: shift-out-of-bounds in kernel/foo.c:12:9
 *   shift exponent 40 is too large for 32-bit type 'int'
 *   CPU: 0 PID: 1 Comm: init
 *   Call Trace:
 *   ...
 *   ================================================================================
 *
 * Each site reports once: the first report sets a bit in its source
 * location (atomically, so two CPUs failing the same check print one
 * report). A check that fails while this CPU is printing a report (in the
 * printk or backtrace code it calls, instrumented like the rest) is not
 * reported and stays unmarked. The kernel carries on after a report, as
 * GCC's recovering checks expect; only __builtin_unreachable() panics,
 * since the compiler left no code after it. This file is not instrumented
 * (kernel/debug/Kbuild).
 */
#define pr_fmt(fmt) fmt

#include <kernel/bug.h>
#include <kernel/irqflags.h>
#include <kernel/percpu.h>
#include <kernel/printk.h>
#include <kernel/sprintf.h>
#include <kernel/string.h>
#include "ubsan.h"

/* Bit 31 of a location's column: reported already (columns never get that big). */
#define UBSAN_REPORTED		(1U << 31)
#define UBSAN_COLUMN_MASK	(~UBSAN_REPORTED)

/* Linux's separator: 80 '=' signs. */
#define UBSAN_SEPARATOR \
	"================================================================================\n"

/* Longest value text: a 128-bit value in hex, "0x" and 32 digits. */
#define UBSAN_VALUE_LEN		40

/* Non-zero while this CPU prints a report (interrupts are off meanwhile). */
static DEFINE_PER_CPU(unsigned int, ubsan_in_report);

/*
 * Should the site at @loc stay quiet: this CPU is already reporting, or
 * the site has been reported (by any CPU)? Marks it reported otherwise.
 */
static bool ubsan_suppress(struct ubsan_source_location *loc)
{
	if (this_cpu_read(ubsan_in_report))
		return true;
	/* Relaxed: the bit orders nothing, it only has to be set once. */
	return __atomic_fetch_or(&loc->column, UBSAN_REPORTED, __ATOMIC_RELAXED) & UBSAN_REPORTED;
}

/* The file as Linux names it, relative to the source tree (see scripts/Makefile.ubsan). */
static const char *ubsan_file_name(const char *file)
{
#ifdef UBSAN_SRCTREE
	size_t n = strlen(UBSAN_SRCTREE);

	if (!strncmp(file, UBSAN_SRCTREE, n))
		return file + n;
#endif
	return file;
}

static unsigned long ubsan_prologue(const struct ubsan_source_location *loc, const char *reason)
{
	unsigned long flags;

	/* Off, so the report stays on this CPU and its per-CPU flag stays ours. */
	local_irq_save(flags);
	this_cpu_inc(ubsan_in_report);
	pr_err(UBSAN_SEPARATOR);
	pr_err("UBSAN: %s in %s:%u:%u\n", reason, ubsan_file_name(loc->file_name), loc->line,
	       loc->column & UBSAN_COLUMN_MASK);
	return flags;
}

static void ubsan_epilogue(unsigned long flags)
{
	dump_stack();
	pr_err(UBSAN_SEPARATOR);
	this_cpu_dec(ubsan_in_report);
	local_irq_restore(flags);
}

static bool type_is_int(const struct ubsan_type_descriptor *t)
{
	return t->type_kind == UBSAN_TYPE_KIND_INT;
}

static bool type_is_signed(const struct ubsan_type_descriptor *t)
{
	return t->type_info & 1;
}

static unsigned int type_bit_width(const struct ubsan_type_descriptor *t)
{
	return 1U << (t->type_info >> 1);
}

/* Values of types wider than a pointer are passed by reference. */
static bool is_inline_int(const struct ubsan_type_descriptor *t)
{
	return type_bit_width(t) <= 8 * sizeof(void *);
}

static s64 get_signed_val(const struct ubsan_type_descriptor *t, void *val)
{
	unsigned int extra;

	if (!is_inline_int(t))
		return (s64)*(__int128 *)val;	/* low 64 bits: enough for a shift count */
	/* Sign-extend from the type's width (the handle's upper bits are not defined). */
	extra = 64 - type_bit_width(t);
	return (s64)((u64)(uintptr_t)val << extra) >> extra;
}

static u64 get_unsigned_val(const struct ubsan_type_descriptor *t, void *val)
{
	unsigned int bits = type_bit_width(t);

	if (!is_inline_int(t))
		return (u64)*(unsigned __int128 *)val;
	return bits >= 64 ? (u64)(uintptr_t)val : (u64)(uintptr_t)val & ((1ULL << bits) - 1);
}

static bool val_is_negative(const struct ubsan_type_descriptor *t, void *val)
{
	return type_is_int(t) && type_is_signed(t) && get_signed_val(t, val) < 0;
}

/* The value as Linux prints it: decimal, or hex for a 128-bit one. */
static void val_to_string(char *buf, size_t len, const struct ubsan_type_descriptor *t, void *val)
{
	if (!type_is_int(t)) {
		snprintf(buf, len, "<unknown>");
	} else if (!is_inline_int(t)) {
		unsigned __int128 v = *(unsigned __int128 *)val;

		snprintf(buf, len, "0x%016llx%016llx", (u64)(v >> 64), (u64)v);
	} else if (type_is_signed(t)) {
		snprintf(buf, len, "%lld", get_signed_val(t, val));
	} else {
		snprintf(buf, len, "%llu", get_unsigned_val(t, val));
	}
}

/* -fsanitize=bounds: an index outside an array of known size. */
void __ubsan_handle_out_of_bounds(void *_data, void *index)
{
	struct ubsan_out_of_bounds_data *data = _data;
	char index_str[UBSAN_VALUE_LEN];
	unsigned long flags;

	if (ubsan_suppress(&data->location))
		return;
	flags = ubsan_prologue(&data->location, "array-index-out-of-bounds");
	val_to_string(index_str, sizeof(index_str), data->index_type, index);
	pr_err("index %s is out of range for type %s\n", index_str, data->array_type->type_name);
	ubsan_epilogue(flags);
}

/* -fsanitize=shift: which of the four rules the shift broke, checked in Linux's order. */
void __ubsan_handle_shift_out_of_bounds(void *_data, void *lhs, void *rhs)
{
	struct ubsan_shift_out_of_bounds_data *data = _data;
	const struct ubsan_type_descriptor *lt = data->lhs_type, *rt = data->rhs_type;
	char lhs_str[UBSAN_VALUE_LEN], rhs_str[UBSAN_VALUE_LEN];
	unsigned long flags;

	if (ubsan_suppress(&data->location))
		return;
	flags = ubsan_prologue(&data->location, "shift-out-of-bounds");
	val_to_string(lhs_str, sizeof(lhs_str), lt, lhs);
	val_to_string(rhs_str, sizeof(rhs_str), rt, rhs);
	if (val_is_negative(rt, rhs))
		pr_err("shift exponent %s is negative\n", rhs_str);
	else if (get_unsigned_val(rt, rhs) >= type_bit_width(lt))
		pr_err("shift exponent %s is too large for %u-bit type %s\n", rhs_str,
		       type_bit_width(lt), lt->type_name);
	else if (val_is_negative(lt, lhs))
		pr_err("left shift of negative value %s\n", lhs_str);
	else
		pr_err("left shift of %s by %s places cannot be represented in type %s\n",
		       lhs_str, rhs_str, lt->type_name);
	ubsan_epilogue(flags);
}

/*
 * -fsanitize=integer-divide-by-zero; GCC uses the same entry point for
 * MIN / -1 under -fsanitize=signed-integer-overflow (not enabled here).
 */
void __ubsan_handle_divrem_overflow(void *_data, void *lhs, void *rhs)
{
	struct ubsan_overflow_data *data = _data;
	char lhs_str[UBSAN_VALUE_LEN];
	unsigned long flags;

	if (ubsan_suppress(&data->location))
		return;
	flags = ubsan_prologue(&data->location, "division-overflow");
	val_to_string(lhs_str, sizeof(lhs_str), data->type, lhs);
	if (type_is_signed(data->type) && get_signed_val(data->type, rhs) == -1)
		pr_err("division of %s by -1 cannot be represented in type %s\n", lhs_str,
		       data->type->type_name);
	else
		pr_err("division by zero\n");
	ubsan_epilogue(flags);
}

/* -fsanitize=bool and -fsanitize=enum: a load of a value the type cannot hold. */
void __ubsan_handle_load_invalid_value(void *_data, void *val)
{
	struct ubsan_invalid_value_data *data = _data;
	char val_str[UBSAN_VALUE_LEN];
	unsigned long flags;

	if (ubsan_suppress(&data->location))
		return;
	flags = ubsan_prologue(&data->location, "invalid-load");
	val_to_string(val_str, sizeof(val_str), data->type, val);
	pr_err("load of value %s is not a valid value for type %s\n", val_str, data->type->type_name);
	ubsan_epilogue(flags);
}

/*
 * -fsanitize=unreachable: always reported (as Linux), then a panic: the
 * compiler emitted nothing after the call, so returning would run
 * whatever code follows in memory.
 */
void __ubsan_handle_builtin_unreachable(void *_data)
{
	struct ubsan_unreachable_data *data = _data;
	unsigned long flags;

	flags = ubsan_prologue(&data->location, "unreachable");
	pr_err("calling __builtin_unreachable()\n");
	ubsan_epilogue(flags);
	panic("can't return from __builtin_unreachable()");
}
