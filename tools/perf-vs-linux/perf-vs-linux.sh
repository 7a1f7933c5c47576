#!/usr/bin/env bash
# perf-vs-linux.sh - our RCU against Linux 6.1's, measured side by side: the same QEMU (multi-threaded
# TCG, -M pc), the same -smp, the same test shapes, our kernel and Linux's booted alternately so
# that both see the same host. Linux's own rcuscale, refscale and rcutorture run in Linux; ours
# run their counterparts (rcuperf, refscale, rcutorture) with the same parameters. Figures are
# reported (a markdown table with ratios ours/Linux), never judged. See
# Documentation/RCU/performance.md for what the shapes mean and the latest table.
#
# Usage: perf-vs-linux.sh [options]
#   --smp "2 4 8"        guest sizes (default "2 4 8")
#   --reps N             boots per side, kind and size (default 3); samples are pooled over them
#   --kinds "K..."       of: sync1 exp1 sync exp async refscale torture fwd kfree (default: all), and
#                        async1, ref-TYPE, gp-FLAVOR (below; never by default)
#   --holdoff S          seconds both sides wait after boot before measuring (default 10, Linux's)
#   --ref-args "A..."    appended to both sides' ref-* command lines (the refscale. names are the
#                        same on both): e.g. "refscale.loops=1000 refscale.nruns=3" for a short shape
#   --ours KERNEL        our kernel.elf (default: built here from defconfig + the three tests)
#   --ours-args "ARGS"   extra command-line arguments for our side only (e.g.
#                        rcuperf.boot_exp_gps=2, which runs expedited grace periods before the
#                        test as Linux's boot does; say so wherever the figures go)
#   --linux BZIMAGE      Linux's (default: $LNX/build-hz1000-none/..., built by build-linux.sh)
#   --out DIR            logs and results (default $TMPDIR/perf-vs-linux/DATE)
#   --nr-cpus N          our kernel's CONFIG_NR_CPUS when built here (default: defconfig's 64;
#                        256 for guests above 64 CPUs, with Linux from build-linux.sh CPUS=256)
#   --single-from N      sizes of N CPUs and more run single-threaded TCG (-accel tcg,thread=single)
#                        on both sides, smaller ones multi-threaded TCG (default: never). Each
#                        log's "# accel:" line says which one a boot used. Linux then gets
#                        lpj=<host TSC kHz> (its TSC runs at the host's under TCG): its per-CPU
#                        delay calibration fails under single-threaded TCG and took 4-5 s a CPU
#                        (CPU 134 of 255 up after 10 minutes); ours has none.
#   --append "ARGS"      added to both sides' command lines (e.g. rcutree.rcu_fanout_leaf=2
#                        skew_tick=1: parameters both kernels take under the same name)
#   --linux-args "ARGS" Linux's side only, last on its command line (so they override): e.g.
#                        for 255 CPUs "maxcpus=64 rcuscale.holdoff=S" with build-linux.sh ONLINE,
#                        whose init brings the other CPUs online after boot (S must cover that;
#                        each log's "onliner: ... done" line and rcuscale's "start:" tell)
#   --timeout S          seconds a boot may take before it is killed (default 900)
#   --only SIDE          boot only ours or only linux (e.g. a second configuration of ours, to
#                        summarise together with an earlier run's Linux logs)
#   --dry-run            print the boots, run none
# Kinds: sync1/exp1 one writer, no readers, synchronize_rcu()/_expedited(); sync/exp the default
# shape (a writer and a reader per CPU); async call_rcu() round trips (Linux: gp_async=1);
# async1 one call_rcu() at a time on an otherwise idle system (one writer, no readers,
# gp_async_max=1: each writer step waits in rcu_barrier() for the previous callback, on both
# sides), read as duration / samples (the time from one call_rcu() to the next, a callback's
# round trip plus the rcu_barrier() hand-off) and, ours only, call_rcu() to callback;
# refscale the "rcu" reader pair; torture rcutorture for 60 s, writer updates ("ver") per second;
# fwd the same with a forward-progress flood every 5 s: peak callbacks held per flood (memory);
# kfree rcuscale's kfree_rcu() test with Linux's defaults (a thread per CPU, 10 loops of 8000
# kfree_rcu()s of 24-byte objects, both forms): total time and memory footprint.
# ref-TYPE refscale's other reader types, Linux 6.1's names: ref-srcu ref-rcu-tasks ref-refcnt
# ref-rwlock ref-rwsem ref-lock ref-lock-irq ref-acqrel ref-clock (ns per section, as refscale);
# gp-FLAVOR the sync1 shape for another flavor: gp-srcu, gp-tasks (rcuscale.scale_type=FLAVOR,
# ours rcuperf.perf_type=FLAVOR), also gp-tasks-rude and gp-tasks-tracing. The Tasks kinds (and
# ref-rcu-trace) need the flavors in both kernels: ours is then built with FORCE_TASKS_RCU,
# FORCE_TASKS_RUDE_RCU and FORCE_TASKS_TRACE_RCU; Linux's plain build has none of them (Linux then
# reports the type invalid and the Linux column stays empty): use `build-linux.sh NONE TASKS` and
# --linux $LNX/build-hz1000-none-tasks/arch/x86/boot/bzImage for those.
# A quiet host matters: our figures swing with host load more than Linux's (see the doc).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
LNX=${LNX:-${TMPDIR:-/tmp}/lnx}
smps="2 4 8" reps=3 kinds="sync1 exp1 sync exp async refscale torture fwd kfree" holdoff=10
ref_args='' ours='' ours_extra='' linux=$LNX/build-hz1000-none/arch/x86/boot/bzImage out='' dry=0 only=''
nr_cpus='' single_from='' append='' linux_extra='' tmo=900
while [ $# -gt 0 ]; do
	case $1 in
	--smp) smps=$2; shift ;;
	--reps) reps=$2; shift ;;
	--kinds) kinds=$2; shift ;;
	--holdoff) holdoff=$2; shift ;;
	--ref-args) ref_args=$2; shift ;;
	--ours) ours=$2; shift ;;
	--ours-args) ours_extra=$2; shift ;;
	--linux-args) linux_extra=$2; shift ;;
	--timeout) tmo=$2; shift ;;
	--linux) linux=$2; shift ;;
	--out) out=$2; shift ;;
	--only) only=$2; shift ;;
	--nr-cpus) nr_cpus=$2; shift ;;
	--append) append=$2; shift ;;
	--single-from) single_from=$2; shift ;;
	--dry-run) dry=1 ;;
	*) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
	shift
done
out=${out:-${TMPDIR:-/tmp}/perf-vs-linux/$(date +%Y.%m.%d-%H.%M.%S)}
mkdir -p "$out/logs"

if [ -z "$ours" ]; then
	ours=$out/build-ours/kernel.elf
	if [ "$dry" = 0 ]; then
		make -C "$ROOT" O="$out/build-ours" defconfig >/dev/null
		printf '%s\n' CONFIG_KERNEL_TESTS=y CONFIG_RCU_PERF_TEST=y CONFIG_RCU_REF_SCALE_TEST=y \
			CONFIG_RCU_TORTURE_TEST=y ${nr_cpus:+CONFIG_NR_CPUS=$nr_cpus} >>"$out/build-ours/.config"
		case " $kinds " in *tasks* | *rcu-trace*)
			printf '%s\n' CONFIG_RCU_EXPERT=y CONFIG_FORCE_TASKS_RCU=y CONFIG_FORCE_TASKS_RUDE_RCU=y \
				CONFIG_FORCE_TASKS_TRACE_RCU=y >>"$out/build-ours/.config" ;;
		esac
		make -C "$ROOT" O="$out/build-ours" olddefconfig >/dev/null
		for o in RCU_PERF_TEST RCU_REF_SCALE_TEST RCU_TORTURE_TEST PREEMPT_NONE; do
			grep -qx "CONFIG_$o=y" "$out/build-ours/.config" ||
				{ echo "perf-vs-linux.sh: CONFIG_$o did not stick" >&2; exit 1; }
		done
		[ -z "$nr_cpus" ] || grep -qx "CONFIG_NR_CPUS=$nr_cpus" "$out/build-ours/.config" ||
			{ echo "perf-vs-linux.sh: CONFIG_NR_CPUS=$nr_cpus did not stick" >&2; exit 1; }
		make -C "$ROOT" O="$out/build-ours" -j2 >/dev/null
	fi
fi
[ "$dry" = 1 ] || [ "$only" = ours ] || [ -f "$linux" ] || { echo "perf-vs-linux.sh: no Linux kernel at $linux (build-linux.sh)" >&2; exit 1; }

# KIND -> each side's command line. Linux runs one torture-framework test per boot, so
# initcall_blacklist= keeps the other two from starting.
linux_args() {
	local bl_scale="initcall_blacklist=rcu_torture_init,ref_scale_init rcuscale.shutdown=1 rcuscale.holdoff=$holdoff"
	case $1 in
	sync1) echo "$bl_scale rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gp_exp=0" ;;
	exp1) echo "$bl_scale rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gp_exp=1" ;;
	sync) echo "$bl_scale rcuscale.gp_exp=0" ;;
	exp) echo "$bl_scale rcuscale.gp_exp=1" ;;
	async) echo "$bl_scale rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gp_async=1" ;;
	async1) echo "$bl_scale rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gp_async=1 rcuscale.gp_async_max=1" ;;
	refscale) echo "initcall_blacklist=rcu_torture_init,rcu_scale_init refscale.scale_type=rcu refscale.shutdown=1 refscale.holdoff=$holdoff" ;;
	torture) echo "initcall_blacklist=rcu_scale_init,ref_scale_init rcutorture.shutdown_secs=60 rcutorture.stat_interval=15" ;;
	fwd) echo "initcall_blacklist=rcu_scale_init,ref_scale_init rcutorture.shutdown_secs=60 rcutorture.stat_interval=15 rcutorture.fwd_progress_holdoff=5" ;;
	kfree) echo "$bl_scale rcuscale.kfree_rcu_test=1" ;;
	ref-*) echo "initcall_blacklist=rcu_torture_init,rcu_scale_init refscale.scale_type=${1#ref-} refscale.shutdown=1 refscale.holdoff=$holdoff $ref_args" ;;
	gp-*) echo "$bl_scale rcuscale.scale_type=${1#gp-} rcuscale.nwriters=1 rcuscale.nreaders=0 rcuscale.gp_exp=0" ;;
	esac
}
ours_args() {
	local perf="rcuperf.perf_runnable=1 rcuperf.holdoff=$holdoff"
	case $1 in
	sync1) echo "$perf rcuperf.nwriters=1 rcuperf.nreaders=0" ;;
	exp1) echo "$perf rcuperf.nwriters=1 rcuperf.nreaders=0 rcuperf.gp_exp=1" ;;
	sync) echo "$perf" ;;
	exp) echo "$perf rcuperf.gp_exp=1" ;;
	async) echo "$perf rcuperf.nwriters=1 rcuperf.nreaders=0 rcuperf.gp_async=1" ;;
	async1) echo "$perf rcuperf.nwriters=1 rcuperf.nreaders=0 rcuperf.gp_async=1 rcuperf.gp_async_max=1" ;;
	refscale) echo "refscale.scale_runnable=1 refscale.scale_type=rcu refscale.holdoff=$holdoff" ;;
	torture) echo "rcutorture.torture_runnable=1 rcutorture.shutdown_secs=60 rcutorture.stat_interval=15" ;;
	fwd) echo "rcutorture.torture_runnable=1 rcutorture.shutdown_secs=60 rcutorture.stat_interval=15 rcutorture.fwd_progress_holdoff=5" ;;
	kfree) echo "rcuperf.kfree_rcu_test=1" ;;
	ref-*) echo "refscale.scale_runnable=1 refscale.scale_type=${1#ref-} refscale.holdoff=$holdoff $ref_args" ;;
	gp-*) echo "$perf rcuperf.perf_type=${1#gp-} rcuperf.nwriters=1 rcuperf.nreaders=0" ;;
	esac
}

boot() { # SIDE KIND SMP REP
	local side=$1 kind=$2 smp=$3 rep=$4 log args accel=tcg
	[ -z "$only" ] || [ "$only" = "$side" ] || return 0
	[ -z "$single_from" ] || [ "$smp" -lt "$single_from" ] || accel=tcg-single
	# QEMU's own spelling of qemu-run.sh's two TCG modes (its default tcg is multi-threaded).
	local qaccel=tcg lpj=
	[ "$accel" = tcg ] || { qaccel=tcg,thread=single; lpj="lpj=$(awk '/^cpu MHz/ { printf "%d", $4 * 1000; exit }' /proc/cpuinfo)"; }
	log=$out/logs/$side-$kind-smp$smp-rep$rep.log
	if [ "$side" = linux ]; then
		args=(timeout -k 10 "$tmo" qemu-system-x86_64 -M pc -accel "$qaccel" -smp "$smp" -m 512M -nographic
			-no-reboot -kernel "$linux" -append "console=ttyS0 panic=-1 $(linux_args "$kind")${lpj:+ $lpj}${append:+ $append}${linux_extra:+ $linux_extra}")
	else
		args=("$ROOT/scripts/qemu-run.sh" --kernel "$ours" --smp "$smp" --accel "$accel" --mem 512M
			--timeout "$tmo" --append "$(ours_args "$kind")${ours_extra:+ $ours_extra}${append:+ $append}")
	fi
	if [ "$dry" = 1 ]; then
		echo "${args[*]}"
		return
	fi
	{
		echo "# host: $(date -Is) loadavg: $(cut -d' ' -f1-3 /proc/loadavg)"
		echo "# accel: $accel"
		echo "# cmd: ${args[*]}"
	} >"$log"
	"${args[@]}" </dev/null >>"$log" 2>&1 || echo "# exit $?" >>"$log"
	echo "perf-vs-linux: $side $kind smp$smp rep$rep: $(grep -c "writer-duration\|Runs.Time\|rtc:\|fwd_prog_cr Duration\|Total time taken by all kfree'ers" "$log") result lines"
}

for rep in $(seq 1 "$reps"); do
	for smp in $smps; do
		for kind in $kinds; do
			# Alternate which side goes first, so a slow drift in host load hits both alike.
			if [ $((rep % 2)) = 1 ]; then
				boot ours "$kind" "$smp" "$rep"; boot linux "$kind" "$smp" "$rep"
			else
				boot linux "$kind" "$smp" "$rep"; boot ours "$kind" "$smp" "$rep"
			fi
		done
	done
done
[ "$dry" = 1 ] && exit 0
python3 "$HERE/summarize.py" "$out/logs" | tee "$out/table.md"
echo "perf-vs-linux: logs and table in $out"
