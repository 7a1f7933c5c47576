#!/usr/bin/env bash
# scale-curve.sh - how our grace periods grow with the CPU count, beside Linux 6.1's (issue 36):
# perf-vs-linux.sh's sync1, exp1 and async1 kinds (one writer, no readers: synchronize_rcu(),
# synchronize_rcu_expedited(), one call_rcu() at a time) at each size, both kernels built for 256
# CPUs, then scale_curve.py's table (medians, p99, ratios ours/Linux, the growth from one size to
# the next, our grace-period kthread's CPU time per grace period) and a PNG if gnuplot exists.
# Documentation/RCU/performance.md holds the latest curve.
#
# Usage: scale-curve.sh [options]
#   --smp "2 4 ... 255"  guest sizes (default "2 4 8 16 32 64 128 255")
#   --reps N             boots per side, kind and size (default 1)
#   --kinds "K..."       default "sync1 exp1 async1"
#   --holdoff S          seconds both sides wait after boot (default 10, Linux's; shorter runs
#                        shorten it on both sides alike)
#   --single-from N      sizes of N CPUs and more run single-threaded TCG on both sides, smaller
#                        ones multi-threaded TCG (default 2: all single-threaded, one host thread
#                        per guest at every size; multi-threaded TCG on a loaded 2-core host gave
#                        grace-period kthread times of 0.7-2.4 ms at 2-8 CPUs, host preemption)
#   --ours-args "ARGS"   our side's only (e.g. rcuperf.boot_exp_gps=2: two expedited grace
#                        periods before the test, as Linux's boot runs; without them our first
#                        exp1 sample pays the expedited path's first translation, 1.5-24 ms)
#   --append "ARGS"      both sides' extra parameters (tree shapes at 255 CPUs:
#                        rcutree.rcu_fanout_leaf=2 gives 3 levels, 1+2+128 nodes; skew_tick=1)
#   --ours KERNEL        our kernel.elf (default: built by perf-vs-linux.sh with CONFIG_NR_CPUS=256)
#   --linux BZIMAGE      default $LNX/build-hz1000-none-cpus256/arch/x86/boot/bzImage
#                        (`build-linux.sh NONE CPUS=256`)
#   --linux-args "ARGS"  Linux's side only (perf-vs-linux.sh's; the 255-CPU recipe below)
#   --timeout S          seconds a boot may take (default 900; 2400 at the --online-from sizes)
#   --online-from N      sizes of N CPUs and more boot Linux with the onlining recipe below
#                        (default 160)
#   --only SIDE          boot only ours or only linux (e.g. ours alone at a size Linux does not
#                        reach here); a later run with the same --out adds to the same table
#   --out DIR            default $TMPDIR/scale-curve/DATE; table in DIR/curve.md, plot DIR/curve.png
#   --dry-run            print the boots, run none
# Large boots are heavy on a small host: run the script under `nice -n 10`, nothing else in QEMU.
# On the 2-core host of 2026-12-07 (QEMU 7.2), Linux 6.1 booted up to 128 CPUs under
# single-threaded TCG in seconds (with the lpj= perf-vs-linux.sh gives it there) but not 255 in
# 18 minutes: until its clocksource switch (fs_initcall, after SMP bring-up) each online CPU
# takes a 1000 Hz tick even when idle, and QEMU's one vCPU thread must run them all in real
# time. For 255, boot Linux with fewer CPUs and let its init bring the rest online after the
# switch, when idle CPUs stop ticking: `build-linux.sh NONE CPUS=256 ONLINE`, then
#   --linux $LNX/build-hz1000-none-cpus256-online/arch/x86/boot/bzImage
#   --linux-args "maxcpus=64 rcuscale.holdoff=420" --timeout 2400
# (onlining took 160-250 s of guest time at load 7-11; each log's "onliner: ... done" must come
# before rcuscale's "start:"). performance.md, 2026-12-07 17:08-18:28 UTC, has the figures.
# The script does this by itself: sizes from --online-from N (default 160) boot Linux that way,
# in a second perf-vs-linux.sh run into the same --out, when that build exists and the caller
# gave neither --linux nor --linux-args (then every size boots as the caller said). Without the
# build, those sizes are ours alone, with a warning. A Linux boot at 255 takes 8-10 minutes here.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LNX=${LNX:-${TMPDIR:-/tmp}/lnx}
# Our defaults first; perf-vs-linux.sh takes the last value of an option, so the caller's win.
defaults=(--smp "2 4 8 16 32 64 128 255" --reps 1 --kinds "sync1 exp1 async1" --holdoff 10
	--single-from 2 --nr-cpus 256 --linux "$LNX/build-hz1000-none-cpus256/arch/x86/boot/bzImage")
out='' dry=0 args=() smps="2 4 8 16 32 64 128 255" only='' linux_given=0 online_from=160
# --online-from is this script's own: it is not passed on to perf-vs-linux.sh.
while [ $# -gt 0 ]; do
	case $1 in --online-from) online_from=$2; shift 2 ;; *) args+=("$1"); shift ;; esac
done
set -- "${args[@]}"
while [ $# -gt 0 ]; do
	case $1 in
	--reps | --kinds | --holdoff | --single-from | --append | --ours | --ours-args | \
	--timeout) shift ;;
	--smp) smps=$2; shift ;;
	--only) only=$2; shift ;;
	--linux | --linux-args) linux_given=1; shift ;;
	--out) out=$2; shift ;;
	--dry-run) dry=1 ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
	shift
done
if [ -z "$out" ]; then
	out=${TMPDIR:-/tmp}/scale-curve/$(date +%Y.%m.%d-%H.%M.%S)
	args+=(--out "$out")
fi
mkdir -p "$out"
{
	echo "# scale-curve.sh $(date -Is) host: $(nproc) CPUs, $(uname -r), loadavg $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "# args: ${defaults[*]} ${args[*]}"
	echo "# qemu: $(qemu-system-x86_64 --version | head -1)"
} >>"$out/run.txt"
# Split the sizes: below --online-from (or all, when the caller chose Linux's kernel or
# arguments) in one run, the rest with the onlining Linux in a second one.
small='' big=''
for n in $smps; do
	if [ "$linux_given" = 0 ] && [ "$n" -ge "$online_from" ]; then big+=" $n"; else small+=" $n"; fi
done
online=$LNX/build-hz1000-none-cpus256-online/arch/x86/boot/bzImage
[ -z "$small" ] || "$HERE/perf-vs-linux.sh" "${defaults[@]}" "${args[@]}" --smp "${small# }"
if [ -n "$big" ]; then
	if [ -f "$online" ] || [ "$only" = ours ]; then
		"$HERE/perf-vs-linux.sh" "${defaults[@]}" "${args[@]}" --smp "${big# }" --linux "$online" \
			--linux-args "maxcpus=64 rcuscale.holdoff=420" --timeout 2400
	elif [ "$only" != linux ]; then
		echo "scale-curve: no $online (build-linux.sh NONE CPUS=256 ONLINE): sizes${big} ours alone" >&2
		"$HERE/perf-vs-linux.sh" "${defaults[@]}" "${args[@]}" --smp "${big# }" --only ours
	else
		echo "scale-curve: no $online (build-linux.sh NONE CPUS=256 ONLINE): sizes${big} skipped" >&2
	fi
fi
[ "$dry" = 0 ] || exit 0
echo "# ended $(date -Is) loadavg $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/run.txt"
python3 "$HERE/scale_curve.py" "$out/logs" "$out/curve.png" | tee "$out/curve.md"
echo "scale-curve: table $out/curve.md, plot $out/curve.png (if gnuplot exists)"
