#!/usr/bin/env bash
# gp-scale.sh - grace-period cost against CPU count and rcu_node tree shape: boots the
# rcutree.gp_bench=4 scale run (kernel/rcu/test/gp_bench.c) at each guest size and tree shape
# and tabulates synchronize_rcu() and synchronize_rcu_expedited() latency (idle and busy), the
# grace-period kthread's CPU time per grace period, FQS scans per grace period, rcu_node lock
# contention, and the time to bring all CPUs online. Figures are reported, never judged.
# Documentation/RCU/scale.md explains the shapes and holds the latest table.
#
# Usage: gp-scale.sh [options]
#   --smp "2 8 32 64 128 255"  guest sizes (default those)
#   --trees "flat default deep" tree shapes (default all three):
#        flat     rcutree.rcu_fanout_leaf=64: one node up to 64 CPUs, one leaf level above
#        default  Linux's defaults (CONFIG_RCU_FANOUT=64, leaf 16)
#        deep     a kernel built with CONFIG_RCU_FANOUT=4 and rcutree.rcu_fanout_leaf=4:
#                 4 levels at 255 CPUs (1+4+16+64 nodes)
#   --samples N      grace periods per line (default 100)
#   --busy N         CPUs the busy load occupies, spread over the CPU numbers (default 7)
#   --accel A        scripts/qemu-run.sh's --accel (default tcg-single: one host thread, the
#                    same share of the host at every size)
#   --out DIR        builds, logs and table.md (default $TMPDIR/gp-scale/DATE)
#   --dry-run        print the boots, run none
# A quiet host matters: latency under TCG follows how promptly the host runs each vCPU.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../../../.." && pwd)
smps="2 8 32 64 128 255" trees="flat default deep" samples=100 busy=7 accel=tcg-single out= dry=0
while [ $# -gt 0 ]; do
	case $1 in
	--smp) smps=$2; shift ;;
	--trees) trees=$2; shift ;;
	--samples) samples=$2; shift ;;
	--busy) busy=$2; shift ;;
	--accel) accel=$2; shift ;;
	--out) out=$2; shift ;;
	--dry-run) dry=1 ;;
	*) echo "gp-scale.sh: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
out=${out:-${TMPDIR:-/tmp}/gp-scale/$(date +%Y.%m.%d-%H.%M.%S)}
mkdir -p "$out/logs"

# build DIR [CONFIG_LINE...]: defconfig with 256 CPUs, the test code and the benchmark.
build() {
	local dir=$1
	shift
	[ "$dry" = 1 ] && return 0
	make -C "$ROOT" O="$dir" defconfig >/dev/null
	printf '%s\n' CONFIG_NR_CPUS=256 CONFIG_KERNEL_TESTS=y CONFIG_RCU_GP_BENCH=y \
		"$@" >>"$dir/.config"
	make -C "$ROOT" O="$dir" olddefconfig >/dev/null 2>&1
	for l in CONFIG_NR_CPUS=256 CONFIG_RCU_GP_BENCH=y "$@"; do
		grep -qx "$l" "$dir/.config" || { echo "gp-scale.sh: $l did not stick" >&2; exit 1; }
	done
	make -C "$ROOT" O="$dir" -j2 >/dev/null
}

need_deep=0
case " $trees " in *" deep "*) need_deep=1 ;; esac
build "$out/build"
[ "$need_deep" = 0 ] || build "$out/build-deep" CONFIG_RCU_EXPERT=y CONFIG_RCU_FANOUT=4

tree_args() {
	case $1 in
	flat) echo "rcutree.rcu_fanout_leaf=64" ;;
	default) echo "" ;;
	deep) echo "rcutree.rcu_fanout_leaf=4" ;;
	*) echo "gp-scale.sh: unknown tree $1" >&2; exit 2 ;;
	esac
}

for tree in $trees; do
	kernel=$out/build/kernel.elf
	[ "$tree" = deep ] && kernel=$out/build-deep/kernel.elf
	for n in $smps; do
		log=$out/logs/$tree-smp$n.log
		args="rcutree.gp_bench=4 rcutree.gp_bench_samples=$samples rcutree.gp_bench_busy=$busy $(tree_args "$tree")"
		mem=512M
		[ "$n" -le 64 ] || mem=1G
		echo "# $tree smp $n: $args" >&2
		[ "$dry" = 1 ] && continue
		# Power-off comes from the benchmark itself; the timeout only catches a hang.
		"$ROOT/scripts/qemu-run.sh" --kernel "$kernel" --smp "$n" --mem "$mem" --accel "$accel" \
			--timeout 900 --quiet --log "$log" --append "$args" >/dev/null 2>&1 || true
		grep -a 'rcu-bench: synchronize' "$log" | sed 's/^\[[^]]*\] //' >&2 || echo "  (no result)" >&2
	done
done
[ "$dry" = 1 ] && exit 0
python3 "$HERE/gp-scale-table.py" "$out/logs" | tee "$out/table.md"
echo "gp-scale.sh: logs and table in $out" >&2
