#!/bin/sh
# rcu-size-compare.sh - the footprint of Tiny RCU against Tree RCU: builds (or, with --no-build,
# only measures) a Tiny kernel (arch/x86_64/configs/tiny_defconfig: SMP=n, PREEMPT_NONE) and a
# Tree kernel (defconfig) out of tree, then prints binutils `size` of both kernel.elf images and
# the size of their kernel/rcu objects, split into the RCU implementation and RCU's tests
# (self-tests, rcutorture, rcuperf/refscale, benchmarks: each has its own Kconfig switch).
#
# Usage: scripts/rcu-size-compare.sh [--no-build] TINY_DIR TREE_DIR
#   (`make size-compare` runs it with $(O)/size-compare/tiny and $(O)/size-compare/tree)
#   --no-build  measure the builds already in TINY_DIR and TREE_DIR (their .config must select
#               TINY_RCU and TREE_RCU respectively); nothing is configured or compiled
#
# The last lines are one summary line each, for scripts (decimal bytes, from `size`):
#   rcu-size: FLAVOR kernel.elf text=T data=D bss=B
#   rcu-size: FLAVOR kernel/rcu implementation text=T data=D bss=B objects=N
#   rcu-size: FLAVOR kernel/rcu tests text=T data=D bss=B objects=N
# Exit status: 0, or 1 when a build or a measurement failed.
set -u
srctree=$(cd "$(dirname "$0")/.." && pwd)
build=1
if [ "${1:-}" = --no-build ]; then build=0; shift; fi
[ $# -eq 2 ] || { sed -n '8,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
tiny_dir=$1 tree_dir=$2

# Objects of kernel/rcu that only test or measure RCU live in kernel/rcu/test/ and
# kernel/rcu/torture/; every other one is the implementation.
TEST_DIRS='/kernel/rcu/(test|torture)/'

build_one() { # DIR DEFCONFIG
	echo "rcu-size-compare: building $2 in $1"
	mkdir -p "$1" &&
		make -s -C "$srctree" O="$1" "$2" >/dev/null &&
		make -s -C "$srctree" O="$1" -j"$(nproc 2>/dev/null || echo 2)" >"$1/build.log" 2>&1 ||
		{ echo "rcu-size-compare: build of $2 in $1 failed:" >&2; tail -20 "$1/build.log" >&2; return 1; }
}

# check_flavor DIR SYMBOL: the build exists and its .config selects CONFIG_SYMBOL.
check_flavor() {
	[ -f "$1/kernel.elf" ] || { echo "rcu-size-compare: no $1/kernel.elf" >&2; return 1; }
	grep -qx "CONFIG_$2=y" "$1/.config" || { echo "rcu-size-compare: $1/.config lacks CONFIG_$2=y" >&2; return 1; }
}

# rcu_objs DIR KIND: the kernel/rcu objects of that kind (impl or tests) that DIR's kernel links,
# as the Makefile lists them for DIR's configuration (its database, printed without building).
rcu_objs() {
	make -pq -C "$srctree" O="$1" all 2>/dev/null | sed -n 's/^KERNEL_OBJS :\{0,1\}= //p' |
		tr ' ' '\n' | grep '/kernel/rcu/.*\.o$' | while read -r o; do
		if echo "$o" | grep -Eq "$TEST_DIRS"; then k=tests; else k=impl; fi
		[ "$k" = "$2" ] && echo "$o"
	done
}

# sum_size KIND FILES...: "text=T data=D bss=B objects=N" summed over FILES (size -t).
sum_size() {
	if [ $# -eq 0 ]; then echo "text=0 data=0 bss=0 objects=0"; return; fi
	size -t "$@" | awk -v n=$# 'END { printf "text=%s data=%s bss=%s objects=%d\n", $1, $2, $3, n }'
}

status=0
if [ $build = 1 ]; then
	build_one "$tiny_dir" tiny_defconfig || status=1
	build_one "$tree_dir" defconfig || status=1
fi
check_flavor "$tiny_dir" TINY_RCU || status=1
check_flavor "$tree_dir" TREE_RCU || status=1
[ $status = 0 ] || exit 1

summary=""
for flavor in tiny tree; do
	if [ $flavor = tiny ]; then dir=$tiny_dir; else dir=$tree_dir; fi
	impl=$(rcu_objs "$dir" impl)
	tests=$(rcu_objs "$dir" tests)
	[ -n "$impl" ] || { echo "rcu-size-compare: no kernel/rcu objects found for $dir" >&2; exit 1; }
	echo
	echo "== $flavor RCU: $dir"
	size "$dir/kernel.elf"
	echo "-- kernel/rcu objects (implementation, then tests):"
	# shellcheck disable=SC2086
	size $impl $tests | sed "s|$dir/||"
	# shellcheck disable=SC2086
	summary="$summary
rcu-size: $flavor kernel.elf $(size "$dir/kernel.elf" | awk 'NR == 2 { printf "text=%s data=%s bss=%s", $1, $2, $3 }')
rcu-size: $flavor kernel/rcu implementation $(sum_size $impl)
rcu-size: $flavor kernel/rcu tests $(sum_size $tests)"
done
echo "$summary"
