/*
 * Force-included first in host builds: glibc defines __always_inline and
 * kernel/compiler.h redefines it differently (-Werror), so drop glibc's.
 */
#include <sys/cdefs.h>
#undef __always_inline
