/*
 * torture_param(): one line declares a torture or performance test's boot
 * parameter (Linux's torture_param() idea, on top of <kernel/param.h>):
 * the variable with its default, and its KPARAM entry with range and
 * description. The name prefix is set once per file:
 *
 *   #define TORTURE_PARAM_PREFIX "rcutorture."
 *   torture_param(int, stutter, 5, 0, 3600, "seconds to run, then to pause");
 *   torture_param_bool(gp_exp, false, "writer uses synchronize_rcu_expedited()");
 *   torture_param_string(torture_type, 16, "rcu", "type of RCU to torture");
 *
 * The variables are static: a test's parameters are not kernel-wide
 * names. A test whose parameters are the fields of one struct (rcutorture: its
 * parts read them through a const view) registers each field with the
 * torture_param_field*() forms instead; the struct's initializer holds
 * the defaults:
 *
 *   torture_param_field(rcu_torture_param_store, int, stutter, 0, 3600, "...");
 *
 * All are test parameters (KPARAM_F_TEST): torture tests exist only in
 * test kernels.
 */
#ifndef _KERNEL_TORTURE_PARAM_H
#define _KERNEL_TORTURE_PARAM_H

#include <kernel/param.h>

#ifndef TORTURE_PARAM_PREFIX
#error "define TORTURE_PARAM_PREFIX (\"rcutorture.\") before including <kernel/torture_param.h>"
#endif

/* The KPARAM type of a C integer type. */
#define __torture_kparam_type(type)						\
	_Generic((type)0, int: KPARAM_INT, unsigned int: KPARAM_UINT,		\
		 long: KPARAM_LONG, unsigned long: KPARAM_ULONG)

/* "<prefix><name>" setting var, a test parameter (KPARAM_F_TEST). */
#define __torture_kparam(name, var, type, min, max, desc)			\
	__KPARAM(TORTURE_PARAM_PREFIX #name, var, type, min, max,		\
		 __kparam_default_size(type, var), KPARAM_F_TEST, desc,	\
		 __KPARAM_PASTE(__kparam_, __COUNTER__))

/* An integer parameter: C type (int, unsigned int, long, unsigned long), name, default, range. */
#define torture_param(type, name, def, min, max, desc)				\
	static type name = (def);				\
	__torture_kparam(name, name, __torture_kparam_type(type), min, max, desc)

/* A boolean parameter ("name" alone means true). */
#define torture_param_bool(name, def, desc)					\
	static bool name = (def);				\
	__torture_kparam(name, name, KPARAM_BOOL, 1, 0, desc)

/* A string parameter held in a char array of size bytes. */
#define torture_param_string(name, size, def, desc)				\
	static char name[size] = def;				\
	__torture_kparam(name, name, KPARAM_STRING, 1, 0, desc)

/* The same three, for a field of the struct store (its default is in store's initializer). */
#define torture_param_field(store, type, name, min, max, desc)			\
	__torture_kparam(name, (store).name, __torture_kparam_type(type), min, max, desc)
#define torture_param_field_bool(store, name, desc)				\
	__torture_kparam(name, (store).name, KPARAM_BOOL, 1, 0, desc)
#define torture_param_field_string(store, name, desc)				\
	__torture_kparam(name, (store).name, KPARAM_STRING, 1, 0, desc)

#endif
