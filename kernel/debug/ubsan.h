/*
 * The data GCC passes to UBSAN's __ubsan_handle_* entry points (the ABI
 * GCC and Clang share with their user-space runtime), for the checks
 * CONFIG_UBSAN enables. Each instrumented site has one such record in
 * .data: the source location, then the type descriptors the check needs.
 * Values arrive as a "handle": the value itself when its type is at most
 * 64 bits wide, else a pointer to it.
 */
#ifndef _KERNEL_DEBUG_UBSAN_H
#define _KERNEL_DEBUG_UBSAN_H

#include <kernel/types.h>

/* type_kind of a type descriptor; type_info of an integer type is
 * (log2(width in bits) << 1) | signed. */
enum {
	UBSAN_TYPE_KIND_INT = 0,
	UBSAN_TYPE_KIND_FLOAT = 1,
	UBSAN_TYPE_KIND_UNKNOWN = 0xffff,
};

struct ubsan_type_descriptor {
	u16 type_kind;
	u16 type_info;
	char type_name[];	/* quoted by the compiler: 'int', 'int [4]' */
};

/*
 * Writable: the runtime sets UBSAN_REPORTED in column once it has
 * reported the site, so each site reports once (Linux's "reported" bit).
 */
struct ubsan_source_location {
	const char *file_name;
	u32 line;
	u32 column;
};

struct ubsan_out_of_bounds_data {
	struct ubsan_source_location location;
	const struct ubsan_type_descriptor *array_type;
	const struct ubsan_type_descriptor *index_type;
};

struct ubsan_shift_out_of_bounds_data {
	struct ubsan_source_location location;
	const struct ubsan_type_descriptor *lhs_type;
	const struct ubsan_type_descriptor *rhs_type;
};

/* Division (and GCC's other arithmetic checks): the operands' type. */
struct ubsan_overflow_data {
	struct ubsan_source_location location;
	const struct ubsan_type_descriptor *type;
};

struct ubsan_invalid_value_data {
	struct ubsan_source_location location;
	const struct ubsan_type_descriptor *type;
};

struct ubsan_unreachable_data {
	struct ubsan_source_location location;
};

/* The entry points GCC 12 calls (recovering variants), kernel/debug/ubsan.c. */
void __ubsan_handle_out_of_bounds(void *data, void *index);
void __ubsan_handle_shift_out_of_bounds(void *data, void *lhs, void *rhs);
void __ubsan_handle_divrem_overflow(void *data, void *lhs, void *rhs);
void __ubsan_handle_load_invalid_value(void *data, void *val);
void __ubsan_handle_builtin_unreachable(void *data) __attribute__((noreturn));

#endif
