#!/usr/bin/env bash
# kvm.sh - build and boot rcutorture scenarios in QEMU guests, several at once, and judge them,
# in the manner of Linux's tools/testing/selftests/rcutorture/bin/kvm.sh.
#
# Usage: tools/testing/rcutorture/bin/kvm.sh [options]
#   --configs "A 2*B ..."  scenarios to run (default: every name in configs/<torture>/CFLIST);
#                          N*NAME runs NAME N times, the word CFLIST stands for the default list;
#                          given twice, the lists add up (as all list options here, as in Linux)
#   --duration D           torture time per guest: minutes, or with an s/m/h/d suffix (default 1)
#   --cpus N               host CPUs to spend on guests (default: nproc, Linux's --allcpus); a
#                          guest counts for min(its vCPUs, N), and guests start while the sum
#                          fits; 0 runs one guest at a time (Linux's default)
#   --allcpus              --cpus with every host CPU (the default here)
#   --guests N             run up to N guests at once, sharing the host CPUs, while their vCPUs
#                          add up to at most 4 x --cpus (a bigger guest runs alone), instead of
#                          the --cpus budget (builds still use make -j<--cpus). Each guest then
#                          runs slower than alone: for scenarios whose checks have the margin
#   --build-cache DIR      keep kernels in DIR/<hash of .config>/ and reuse them in later runs
#                          (make runs there again, so a source change still rebuilds); within one
#                          run, scenarios whose .config comes out identical always share a build
#   --bootargs "ARGS"      extra kernel command-line arguments for every guest
#   --kconfig "CONFIG_X=y ..."  extra Kconfig settings for every scenario (Linux's syntax:
#                          CONFIG_NAME=VALUE words, VALUE y, n, m, a number or a "string",
#                          "#CHECK#" before one only checks it in the .config)
#   --defconfig NAME       the configuration the scenarios start from: arch/x86_64/configs/NAME
#                          (default defconfig), e.g. debug_defconfig
#   --kmake-arg "ARGS"     extra arguments for the kernel's make (e.g. "CC=clang")
#   --trust-make           keep kernels between runs and let make rebuild what changed
#                          (--build-cache RESULTS/build-cache unless given; without it every run
#                          builds afresh, as Linux's make clean)
#   --kcsan                every scenario built with KCSAN (CONFIG_KCSAN=y, each pair of racing
#                          functions reported once per guest: CONFIG_KCSAN_REPORT_ONCE_IN_MS=
#                          100000) and lockdep (CONFIG_PROVE_LOCKING=y), as Linux's kvm.sh
#                          --kcsan; a "BUG: KCSAN:" report fails the guest like any BUG
#                          (Documentation/dev-tools/kcsan.md)
#   --ubsan                UBSAN kernels: arch/x86_64/configs/ubsan.config before --kconfig's
#                          settings (Linux: --kconfig CONFIG_UBSAN=y); a report fails the guest
#   --kasan                every scenario under KASAN (adds CONFIG_KASAN=y, as Linux's kvm.sh;
#                          Documentation/dev-tools/kasan.md); a KASAN report fails the guest
#                          (Linux's also asks for 2G of guest memory: not needed here)
#   --qemu-args "ARGS"     extra QEMU arguments
#   --qemu-cmd CMD         the QEMU binary (default qemu-system-x86_64)
#   --memory SIZE          guest RAM: megabytes, or with an M or G suffix (default: 256M,
#                          scripts/qemu-run.sh's; Linux's is 512M)
#   --gdb                  one scenario only: QEMU starts stopped with its gdb stub on :1234,
#                          kvm.sh says how to attach, and the guest has no host-side time limit
#                          (kernels always carry debug information here; Linux adds nokaslr,
#                          which has no use here)
#   --shutdown-grace N     seconds a guest may run past --duration before it is killed (default:
#                          max(60, duration / 4); Linux's is 180)
#   --datestamp NAME       the run directory's name under --results (default the date and time)
#   --remote               accepted, as kvm-remote.sh passes it to Linux's kvm.sh (there it stops
#                          --cpus being limited to this host's CPUs, which kvm.sh never does)
#   --accel kvm|tcg|tcg-single  QEMU accelerator (default tcg: multi-threaded TCG)
#   --jitter "N [S [P]]"   while guests run, N host processes (-1: one per --cpus) alternate
#                          random busy spins (1 ms to P us, default 100000) and sleeps (up to S
#                          us, default 1000000), perturbing the vCPU threads as Linux's jitter.sh
#                          does (default 0: none; Linux's default is -1)
#   --torture rcu|lock|rcuperf|rcuscale|refscale|scf  which test: scenario directory
#                          configs/<torture>/ (default rcu). lock is locktorture (Linux's
#                          LOCK01-07 and BUSTED; Documentation/locking/locktorture.md): its
#                          boot line comes from configs/lock/ver_functions.sh as in Linux
#                          (CPU hotplug every 3 s after 30 s on CONFIG_HOTPLUG_CPU kernels
#                          unless --bootargs sets locktorture.onoff_*). scf is scftorture, the cross
#                          calls' torture test (Linux's PREEMPT and NOPREEMPT;
#                          Documentation/scftorture.md), its defaults likewise from
#                          configs/scf/ver_functions.sh. rcuscale and refscale are Linux's names and scenarios
#                          (TREE, TREE54, TINY; NOPREEMPT, PREEMPT); rcuperf the article's, with
#                          our scenarios. They: the guest powers off when rcuperf/refscale are done, and
#                          --duration is only its upper bound; the end prints a table of the
#                          summary lines and draws latency histograms (bin/rcuperf-report.sh)
#   --results DIR          where the run directory goes (default tools/testing/rcutorture/res)
#   --dryrun [WORD]        print what would be built and run, build and run nothing (each
#                          scenario's .config is made and checked, in a temporary directory, or
#                          in $KVM_DRYRUN_CONFIGS/NAME/.config when that is set; Linux's WORD
#                          batches|scenarios|sched|script is taken and said to be not
#                          implemented: guests are not run in batches here)
#   --build-only           (or --buildonly) build, and make each guest directory bootable
#                          anywhere, boot nothing:
#                          GUEST/kernel.elf, GUEST/qemu-run.sh and GUEST/job.sh (bash job.sh
#                          boots the guest from its own directory and writes console.log,
#                          qemu.log, qemu.rc, qemu-cmd; it exits 0 whatever the guest did);
#                          RUNDIR/guests lists the guest directories to boot, RUNDIR/timeout
#                          their host-side time limit in seconds (kvm-remote.sh uses this)
#   -h, --help             this text
#   Linux's --debug-info, --no-affinity and --no-initrd are accepted and change nothing (debug
#   information always, guests never bound to host CPUs, no initrd); its --bootimage,
#   --interactive, --mac and --torture X* are refused with "Linux option not
#   implemented here (reason)". Besides the verdicts, each guest directory gets bootargs (its
#   kernel command line; a torture test's stat_interval is Linux's 15 only from 225-s runs
#   on, max(3, duration / 15) below (torture_stat_interval), so that short runs plot), and the
#   run directory accel, duration, grace, memory, qemu_args, torture_suite and log: what
#   bin/kvm-again.sh needs to boot the same kernels again.
#
# A scenario NAME in configs/<torture>/ is a Kconfig fragment NAME (merged over CFcommon, then
# --kconfig), an optional NAME.boot (kernel arguments) and an optional NAME.expect holding one
# word: success (default), failure (a test proven able to fail, e.g. NOBOOST's boost test, must
# end with FAILURE), busted (a broken flavor, BUSTED, must be caught for the right reason: FAILURE
# with "!!!" and reader-pipeline ages of 2 or more, see parse-console.sh) or stall (a provoked stall
# must be reported). An optional NAME.features lists what the scenario is for, one "LABEL REGEX"
# a line: some console line must match each REGEX, or the verdict is "FAIL (feature not
# exercised: LABEL)" (parse-console.sh --features), so a scenario whose feature never ran in the
# time given (e.g. a holdoff longer than --duration) does not pass. Linux's scenario files work as
# they are (bin/scenario.sh):
#   - the guest's CPU count (QEMU -smp) is the fragment's CONFIG_NR_CPUS (1 when CONFIG_SMP=n;
#     without it, --cpus or the maxcpus= of the .boot file, whichever is larger), at most the
#     nr_cpus= of the .boot file and --bootargs, and with an explicit --cpus (no --guests, no
#     --build-only) at most --cpus ("CPU count limited from X to Y"); maxcpus=N boots N of them, and the guest
#     counts N against the --cpus budget. The arguments reach the kernel unchanged;
#   - rcutorture gets Linux's per-flavor defaults (configs/rcu/ver_functions.sh): CPU hotplug
#     (onoff_interval=1000, onoff_holdoff=30) when the .config has CONFIG_HOTPLUG_CPU=y and the
#     scenario sets no torture.onoff_*, n_barrier_cbs=4, stat_interval=15 (fewer seconds for
#     runs under 225 s: max(3, duration / 15)), test_no_idle_hz=1, verbose=1,
#     shutdown_secs=--duration; the scenario's own values and --bootargs win;
#   - after olddefconfig, one line each names the fragment's settings whose symbol this kernel
#     does not have ("not in this kernel"; =n of a missing symbol is what Linux means by it),
#     those that did not stick, and the "#CHECK#CONFIG_X=v" lines the .config contradicts
#     ("#CHECK# improperly set"), also in build/NAME/ConfigFragment.diags;
#   - a fragment with a line "# kvm.sh: not runnable: REASON" (a Linux scenario needing what this
#     kernel lacks, e.g. TRACE01: Tasks Trace RCU) is reported with its reason and not run.
#
# A guest still running max(60 s, duration / 4) past --duration is killed (verdict: overran).
# rcutorture guests also get the kernel's shutdown_secs as a backstop halfway through that grace.
#
# Results: RESULTS/<YYYY.MM.DD-HH.MM.SS>/<NAME>[.N]/ with .config, console.log, qemu.log, qemu.rc,
# qemu-cmd (the QEMU command line), verdict, console.log.diags when the console shows problems
# (the offending lines, as Linux's parse-console.sh writes it) (and for rcuperf durations.ns,
# histogram.dat, histogram.png); build/<NAME>/ holds each kernel and its build.log. A summary
# table at the end: per guest its CPUs, expectation, how it ended (GUEST: poweroff, testfail,
# panic, overran, reset), GPs as Linux's "N GPs (R/s)" (the writer's last ver:) and per second of uptime,
# and the verdict; under it, for each guest not as expected, its first offending console line.
# RUNDIR/index.html is the results page of the run (bin/kvm-html.sh: the table, links to each
# guest's files, plots). Linux's path, tools/testing/selftests/rcutorture/bin/kvm.sh, works too
# (a symlink). Exit status: 0 when every guest did what its
# scenario expects and no test failed; 1 when some guest did not do what its scenario expects; 2
# for a usage error; 3 when every guest did what its scenario expects but some test, as expected,
# ended with FAILURE (BUSTED, NOBOOST): as with Linux's kvm.sh, a failed test is never exit 0.
set -uo pipefail

# Physical paths: Linux's tools/testing/selftests/rcutorture/ is a symlink to this directory.
KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
SRCTREE=$(cd "$KVM/../../.." && pwd -P)
PARSE=$KVM/bin/parse-console.sh
# shellcheck source=functions.sh
. "$KVM/bin/functions.sh"
# shellcheck source=scenario.sh
. "$KVM/bin/scenario.sh"

configs=""
duration=1m
cpus=$(nproc 2>/dev/null || echo 2)
cpus_given=0
bootargs=""
kconfig=""
kcsan=0
kasan_kconfig=""
qemu_args=""
accel=tcg
torture=rcu
results=$KVM/res
dryrun=0
build_only=0
jitter=0
guests_max=0
build_cache=""
ubsan=0
# Linux's options (kvm-options.sh): --defconfig, --kmake-arg, --memory, --gdb, --remote,
# --shutdown-grace, --trust-make, --datestamp, --qemu-cmd and the jitter's sleep and spin bounds.
defconfig=defconfig
kmake_args=""
memory=""
gdb=0
remote=0
shutdown_grace=""
trust_make=0
datestamp=""
jitter_sleep_us=1000000
jitter_spin_us=100000

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "kvm.sh: $*" >&2; exit 2; }
# shellcheck source=kvm-options.sh
. "$KVM/bin/kvm-options.sh"

kvm_cmdline="$*"
while [ $# -gt 0 ]; do
	case $1 in
	--configs | --config) need_arg "$@"; configs="$configs${configs:+ }$2"; shift ;;	# Linux: repeats add up
	--duration) need_arg "$@"; duration=$2; shift ;;
	--cpus) need_arg "$@"; cpus=$2 cpus_given=1; shift ;;
	--bootargs | --bootarg) need_arg "$@"; bootargs="$bootargs${bootargs:+ }$2"; shift ;;
	--kconfig | --kconfigs) need_arg "$@"; kconfig_arg "$2"; shift ;;
	--kcsan) kcsan=1 ;;
	--ubsan) ubsan=1 ;;
	--kasan) kasan_kconfig="CONFIG_KASAN=y" ;;	# --- KASAN ---
	--qemu-args | --qemu-arg) need_arg "$@"; qemu_args="$qemu_args${qemu_args:+ }$2"; shift ;;
	--accel) need_arg "$@"; accel=$2; shift ;;
	--torture) need_arg "$@"; torture=$2; torture_arg "$torture"; shift ;;
	--results) need_arg "$@"; results=$2; shift ;;
	--jitter) need_arg "$@"; jitter_arg "$2"; shift ;;
	--guests) need_arg "$@"; guests_max=$2; shift ;;
	--build-cache) need_arg "$@"; build_cache=$2; shift ;;
	--dryrun) dryrun=1; dryrun_arg "${2-}" && shift ;;
	--build-only | --buildonly) build_only=1 ;;
	-h | --help) usage; exit 0 ;;
	--allcpus | --defconfig | --gdb | --memory | --remote | --shutdown-grace | --trust-make | \
		--datestamp | --kmake-arg | --kmake-args | --qemu-cmd | --debug-info | --debuginfo | \
		--no-affinity | --no-initrd)
		linux_option "$@"; shift "$opt_shift" ;;
	*) linux_unimplemented "$1" || die "unknown option '$1' (try --help)" ;;
	esac
	shift || die "option needs an argument"
done
linux_options_check

# --kcsan: KCSAN's settings go first, so that --kconfig can still override them. Linux's also
# turns lockdep on (and KCSAN_STRICT, KCSAN_VERBOSE, DEBUG_LOCK_ALLOC and DEBUG_INFO, which are
# not symbols here: this KCSAN is always strict and verbose, kernels always have debug info).
[ "$kcsan" = 0 ] || kconfig="CONFIG_KCSAN=y CONFIG_KCSAN_REPORT_ONCE_IN_MS=100000 CONFIG_PROVE_LOCKING=y${kconfig:+ $kconfig}"
# --ubsan: the sanitizer's fragment first, so --kconfig can still turn one of its checks off.
[ $ubsan = 0 ] || kconfig="$(grep -h '^CONFIG_' "$SRCTREE/arch/x86_64/configs/ubsan.config" | tr '\n' ' ')$kconfig"
# --kasan: after the scenario's fragment and --kconfig, so it wins.
kconfig="$kconfig${kasan_kconfig:+ $kasan_kconfig}"

# --duration: minutes by default, or Ns / Nm / Nh.
secs=$(duration_secs "$duration") || die "bad --duration '$duration'"
[[ $cpus =~ ^[0-9]+$ ]] || die "bad --cpus '$cpus'"
# --cpus 0, as in Linux: one guest at a time (builds still use every host CPU).
[ "$cpus" != 0 ] || { cpus=$(nproc 2>/dev/null || echo 2) guests_max=1; }
grace=$((secs / 4 > 60 ? secs / 4 : 60))	# how long past --duration a guest may run
[ -z "$shutdown_grace" ] || grace=$shutdown_grace
[[ $jitter =~ ^[0-9]+$ ]] || die "bad --jitter '$jitter'"
[[ $guests_max =~ ^[0-9]+$ ]] || die "bad --guests '$guests_max'"
case $accel in kvm | tcg | tcg-single) ;; *) die "bad --accel '$accel' (kvm, tcg or tcg-single)" ;; esac

CFDIR=$KVM/configs/$torture
[ -d "$CFDIR" ] || die "no scenario directory configs/$torture"
# A suite other than rcu brings Linux's per_version_boot_params in its ver_functions.sh.
if [ "$torture" != rcu ] && ! perf_suite "$torture"; then
	# shellcheck source=/dev/null
	. "$CFDIR/ver_functions.sh" || die "configs/$torture/ver_functions.sh: cannot read it"
fi
[ -n "$configs" ] || configs=$(cflist_of "$CFDIR")
# As in Linux, the word CFLIST in --configs stands for the default list.
configs=$(for c in $configs; do if [ "$c" = CFLIST ]; then cflist_of "$CFDIR"; else echo "$c"; fi; done | tr '\n' ' ')

# Expand N*NAME and check every scenario exists.
runs=() not_runnable=()
for c in $configs; do
	n=1 name=$c
	if [[ $c =~ ^([0-9]+)\*(.+)$ ]]; then n=${BASH_REMATCH[1]} name=${BASH_REMATCH[2]}; fi
	[ -f "$CFDIR/$name" ] || die "no scenario $name in configs/$torture; the scenarios are: $(cflist_of "$CFDIR" | tr '\n' ' ')"
	# A scenario of Linux's that needs what this kernel lacks says so; it is reported, not run.
	if why=$(scen_not_runnable "$CFDIR/$name"); then
		[[ " ${not_runnable[*]-} " == *" $name "* ]] || {
			not_runnable+=("$name")
			echo "kvm.sh: $name: not runnable in this kernel: $why"
		}
		continue
	fi
	for ((i = 1; i <= n; i++)); do runs+=("$name"); done
done
[ ${#runs[@]} -gt 0 ] || { [ ${#not_runnable[@]} -eq 0 ] && die "no scenarios to run"; echo "kvm.sh: no runnable scenario"; exit 1; }
gdb_check

# The settings a scenario asks for: CFcommon, its fragment, then --kconfig (later lines win).
fragment_of() {
	cat "$CFDIR/CFcommon" "$CFDIR/$1" 2>/dev/null
	for kv in $kconfig; do echo "$kv"; done
}
# A scenario's .boot file as one line of kernel arguments, comment lines left out.
boot_of() { if [ -f "$CFDIR/$1.boot" ]; then grep -v '^#' "$CFDIR/$1.boot" | tr '\n' ' '; fi; }
# The scenario's own kernel arguments: its .boot, then --bootargs.
scen_args() { echo "$(boot_of "$1") $bootargs"; }
# vCPUs of a scenario (QEMU -smp), as Linux's kvm.sh: CONFIG_NR_CPUS (1 when CONFIG_SMP is off),
# then nr_cpus= (scenario.sh: scen_cpus); with an explicit --cpus (and neither --guests nor
# --build-only) at most that.
guest_cpus_untrimmed() { scen_cpus "$(fragment_of "$1")" "$(scen_args "$1")" "$cpus"; }
guest_cpus() {
	local n
	n=$(guest_cpus_untrimmed "$1")
	# --build-only guests boot elsewhere (kvm-remote.sh, whose --cpus is only make's -j): no trim.
	if [ $cpus_given = 1 ] && [ "$guests_max" = 0 ] && [ $build_only = 0 ] && [ "$n" -gt "$cpus" ]; then
		n=$cpus
	fi
	echo "$n"
}
# CPUs a guest keeps busy from boot: maxcpus= brings up only that many (the rest can come online
# later through hotplug), as Linux's scheduler counts it (configfrag_boot_maxcpus).
guest_boot_cpus() {
	local n mc
	n=$(guest_cpus "$1")
	mc=$(boot_param "$(scen_args "$1")" maxcpus)
	[ -z "$mc" ] || [ "$mc" -ge "$n" ] || n=$mc
	echo "$n"
}
expect_of() { if [ -f "$CFDIR/$1.expect" ]; then tr -d ' \n' <"$CFDIR/$1.expect"; else echo success; fi; }

# Kernel arguments: for rcutorture Linux's per-flavor defaults (scenario.sh: rcu_boot_defaults,
# which needs the scenario's .config), then its .boot and --bootargs (later ones win).
cfg_of() { echo "$CFGROOT/$1/.config"; }
guest_args() {
	local boot
	boot=$(boot_of "$1")
	if perf_suite "$torture"; then
		echo "$boot rcuperf.shutdown=1 refscale.shutdown=1 shutdown_secs=$secs $bootargs"
	elif [ "$torture" != rcu ]; then
		# Another suite (lock, scf): its configs/<suite>/ver_functions.sh as Linux's kvm.sh uses it,
		# after the kernel's shutdown_secs backstop.
		echo "shutdown_secs=$((secs + grace / 2)) $(per_version_boot_params "$boot $bootargs" "$(cfg_of "$1")" "$secs")"
	else
		# The kernel's own shutdown_secs is a backstop, should rcutorture never power off.
		echo "rcutorture.torture_runnable=1 shutdown_secs=$((secs + grace / 2)) $(rcu_boot_defaults "$boot $bootargs" "$(cfg_of "$1")" "$secs")"
	fi
}
# What kvm.sh says about a scenario's CPUs and Kconfig, before it runs (and with --dryrun).
scen_notes() { # NAME
	local want got
	want=$(guest_cpus_untrimmed "$1") got=$(guest_cpus "$1")
	[ "$want" = "$got" ] || echo "kvm.sh: $1: CPU count limited from $want to $got (--cpus $cpus)"
	[ -f "$(cfg_of "$1")" ] && kconfig_report "$1" "$(fragment_of "$1")" "$(cfg_of "$1")" "$SRCTREE"
	return 0
}

stamp=${datestamp:-$(date -u +%Y.%m.%d-%H.%M.%S)}
RUNDIR=$results/$stamp
echo "kvm.sh: ${#runs[@]} guest(s) of $torture for ${secs}s each, --cpus $cpus, accel $accel"
echo "kvm.sh: results in $RUNDIR"
[ "$kcsan" = 0 ] || echo "kvm.sh: --kcsan: CONFIG_KCSAN=y CONFIG_KCSAN_REPORT_ONCE_IN_MS=100000 CONFIG_PROVE_LOCKING=y in every scenario"
[ $dryrun = 1 ] || { mkdir -p "$RUNDIR" && echo "$torture" >"$RUNDIR/torture" && record_run "$RUNDIR"; }
[ ${#not_runnable[@]} -eq 0 ] || [ $dryrun = 1 ] || printf '%s\n' "${not_runnable[@]}" >"$RUNDIR/not-runnable"
# Each scenario's .config: RUNDIR/build/NAME/.config. --dryrun makes it too (make defconfig and
# olddefconfig only, so that its boot line and Kconfig checks are those of a real run), in a
# temporary directory it removes, or in $KVM_DRYRUN_CONFIGS when set (tests read them there).
CFGROOT=$RUNDIR/build
if [ $dryrun = 1 ]; then
	if [ -n "${KVM_DRYRUN_CONFIGS-}" ]; then
		CFGROOT=$KVM_DRYRUN_CONFIGS
	else
		CFGROOT=$(mktemp -d "${TMPDIR:-/tmp}/kvm-dryrun.XXXXXX") || die "cannot make a temporary directory"
		trap 'rm -rf "$CFGROOT"' EXIT
	fi
fi

# One directory per guest; the build is shared by every run of the same scenario, and by every
# scenario whose .config comes out the same (by_config: .config hash -> build directory).
declare -A built by_config by_config_name
dirs=()
for name in "${runs[@]}"; do
	d=$RUNDIR/$name
	k=2
	while [ -e "$d" ] || [[ " ${dirs[*]-} " == *" $d "* ]]; do d=$RUNDIR/$name.$k; k=$((k + 1)); done
	dirs+=("$d")
	if [ $dryrun = 1 ]; then
		if [ ! -f "$CFGROOT/$name/.config" ]; then
			mkdir -p "$CFGROOT/$name"
			{ make -s -C "$SRCTREE" O="$CFGROOT/$name" "$defconfig" && fragment_of "$name" >>"$CFGROOT/$name/.config" &&
				make -s -C "$SRCTREE" O="$CFGROOT/$name" olddefconfig; } >/dev/null 2>&1 ||
				echo "kvm.sh: $name: cannot make its .config"
			scen_notes "$name"
		fi
		echo "dryrun: $name: build $RUNDIR/build/$name ($defconfig + CFcommon + $name${kconfig:+ + --kconfig}), boot -smp $(guest_cpus "$name") --accel $accel${launch_extra[*]:+ ${launch_extra[*]}}, expect $(expect_of "$name")"
		echo "dryrun: $name: cmdline: $(guest_args "$name" | tr -s ' ')"
		continue
	fi
	mkdir -p "$d"
	[ -n "${built[$name]-}" ] && continue
	b=$RUNDIR/build/$name
	mkdir -p "$b"
	echo "kvm.sh: building $name"
	if ! {
		make -s -C "$SRCTREE" O="$b" "$defconfig" &&
			fragment_of "$name" >>"$b/.config" &&
			make -s -C "$SRCTREE" O="$b" olddefconfig
	} >"$b/build.log" 2>&1; then
		echo "kvm.sh: build of $name FAILED (see $b/build.log)"
		built[$name]=failed
		continue
	fi
	# The same .config builds the same kernel: build each configuration once.
	key=$(sha256sum <"$b/.config" | cut -c1-16)
	kb=$b
	if [ -n "${by_config[$key]-}" ]; then
		echo "kvm.sh: $name: same .config as ${by_config_name[$key]}, sharing its kernel" |
			tee -a "$b/build.log"
		kb=${by_config[$key]}
	elif [ -n "$build_cache" ]; then
		mkdir -p "$build_cache/$key" && kb=$(cd "$build_cache/$key" && pwd -P) || {
			echo "kvm.sh: cannot create $build_cache/$key"
			built[$name]=failed
			continue
		}
		# Unchanged .config, unchanged mtime: make then rebuilds only what the sources changed.
		cmp -s "$b/.config" "$kb/.config" || cp "$b/.config" "$kb/.config"
		echo "kvm.sh: $name: kernel in $kb" >>"$b/build.log"
	fi
	# flock: another run using the same --build-cache may be building this configuration.
	# shellcheck disable=SC2086 # --kmake-arg: words for make
	if [ -z "${by_config[$key]-}" ] && ! { flock 9 && make -s -C "$SRCTREE" O="$kb" -j"$cpus" $kmake_args; } 9>>"$kb/.build.lock" >>"$b/build.log" 2>&1 ||
		[ ! -f "$kb/kernel.elf" ]; then
		echo "kvm.sh: build of $name FAILED (see $b/build.log)"
		built[$name]=failed
		continue
	fi
	built[$name]=$kb
	[ -n "${by_config[$key]-}" ] || by_config[$key]=$kb by_config_name[$key]=$name
	# The kernel also in build/NAME/, where kvm-remote.sh --reuse and users look for it.
	[ "$kb" = "$b" ] || ln -f "$kb/kernel.elf" "$b/kernel.elf" 2>/dev/null || cp "$kb/kernel.elf" "$b/kernel.elf"
	# Linux's configcheck (and its CPU-count note): GUEST's build/NAME/ConfigFragment.diags.
	scen_notes "$name" | tee "$b/ConfigFragment.diags"
	[ -s "$b/ConfigFragment.diags" ] || rm -f "$b/ConfigFragment.diags"
done
[ $dryrun = 1 ] && exit 0

# Guest files kvm-recheck.sh and kvm_summary need, written before the guest boots.
guest_files() { # index
	local d=${dirs[$1]} name=${runs[$1]}
	echo "$name" >"$d/scenario"
	guest_cpus "$name" >"$d/cpus"
	expect_of "$name" >"$d/expect"
	guest_args "$name" >"$d/bootargs"
}

# --build-only: every guest directory gets its kernel, the launcher and a job script.
if [ $build_only = 1 ]; then
	: >"$RUNDIR/guests"
	echo $((secs + grace)) >"$RUNDIR/timeout"
	for i in "${!runs[@]}"; do
		d=${dirs[$i]} name=${runs[$i]} b=${built[${runs[$i]}]}
		guest_files "$i"
		if [ "$b" = failed ]; then
			echo "FAIL (build failed)" >"$d/verdict"
			continue
		fi
		cp "$b/.config" "$d/.config"
		ln -f "$b/kernel.elf" "$d/kernel.elf" 2>/dev/null || cp "$b/kernel.elf" "$d/kernel.elf"
		cp "$SRCTREE/scripts/qemu-run.sh" "$d/qemu-run.sh"
		job_script "boot guest $(basename "$d") (scenario $name) of a kvm.sh --build-only run from this directory" \
			"$(guest_cpus "$name")" "$accel" "$(guest_args "$name")" $((secs + grace)) "$qemu_args" "$memory" >"$d/job.sh"
		basename "$d" >>"$RUNDIR/guests"
	done
	echo "kvm.sh: built; $(wc -l <"$RUNDIR/guests") guest(s) ready to boot in $RUNDIR (bash GUEST/job.sh)"
	exit 0
fi

# Launch guests while their CPU budget fits; a guest is killed $grace s past its duration.
pids=() pid_dir=() pid_cost=()
inuse=0 started=0 finished=0 nrun=0
# guest_cost NAME: what a guest counts against the budget: its vCPUs with --guests, else
# min(its vCPUs, --cpus).
guest_cost() {
	local smp
	smp=$(guest_boot_cpus "$1")
	if [ "$guests_max" -gt 0 ] || [ "$smp" -lt "$cpus" ]; then echo "$smp"; else echo "$cpus"; fi
}
start_guest() { # index
	local d=${dirs[$1]} name=${runs[$1]} b=${built[${runs[$1]}]}
	cp "$b/.config" "$d/.config"
	local smp cost
	smp=$(guest_cpus "$name")
	# What kvm-recheck.sh needs to judge this guest again without its scenario arguments.
	echo "$name" >"$d/scenario"
	echo "$smp" >"$d/cpus"
	expect_of "$name" >"$d/expect"
	guest_args "$name" >"$d/bootargs"	# for kvm-again.sh
	cost=$(guest_cost "$name")
	[ $gdb = 0 ] || gdb_banner "$b/kernel.elf"
	(
		"$SRCTREE/scripts/qemu-run.sh" --kernel "$b/kernel.elf" --smp "$smp" --accel "$accel" \
			--append "$(cat "$d/bootargs")" --timeout "$(guest_timeout)" --quiet --log "$d/console.log" \
			--qemu-args "$qemu_args" "${launch_extra[@]}" --verbose >"$d/qemu.log" 2>&1
		echo $? >"$d/qemu.rc"
		# The QEMU command line, as Linux's kvm.sh keeps it (to rerun one guest by hand).
		sed -n 's/^qemu-run: command: //p' "$d/qemu.log" >"$d/qemu-cmd"
	) &
	pids+=($!) pid_dir+=("$d") pid_cost+=("$cost")
	inuse=$((inuse + cost))
	nrun=$((nrun + 1))
}

# Host-side jitter: each loop spins 1 ms to the longest spin (default 100 ms), then sleeps up to
# the longest sleep (default 1 s), until killed.
jitter_pids=()
# jitter_secs MAX_MS [MIN_MS]: a random time in seconds from MIN_MS (default 1) to MAX_MS.
jitter_secs() {
	local ms=$((RANDOM * 32768 + RANDOM))
	ms=$((${2-1} + ms % ($1 - ${2-1} + 1)))
	printf '%d.%03d' $((ms / 1000)) $((ms % 1000))
}
jitter_loop() {
	while :; do
		timeout "$(jitter_secs $((jitter_spin_us / 1000)))" sh -c 'while :; do :; done'
		sleep "$(jitter_secs $((jitter_sleep_us / 1000 + 1)) 0)"
	done
}
for ((j = 0; j < jitter; j++)); do
	jitter_loop &
	jitter_pids+=($!)
done

t0=$SECONDS
last_print=$SECONDS
next=0
while [ $finished -lt ${#runs[@]} ]; do
	while [ $next -lt ${#runs[@]} ]; do
		b=${built[${runs[$next]}]}
		if [ "$b" = failed ]; then
			echo "FAIL (build failed)" >"${dirs[$next]}/verdict"
			echo "${runs[$next]}" >"${dirs[$next]}/scenario"
			guest_cpus "${runs[$next]}" >"${dirs[$next]}/cpus"
			expect_of "${runs[$next]}" >"${dirs[$next]}/expect"
			next=$((next + 1)) finished=$((finished + 1))
			continue
		fi
		cost=$(guest_cost "${runs[$next]}")
		if [ "$guests_max" -gt 0 ]; then
			[ "$nrun" -lt "$guests_max" ] && { [ $inuse -eq 0 ] || [ $((inuse + cost)) -le $((4 * cpus)) ]; } ||
				break
		else
			[ $((inuse + cost)) -le "$cpus" ] || [ $inuse -eq 0 ] || break
		fi
		start_guest $next
		next=$((next + 1)) started=$((started + 1))
	done
	# Short: a finished guest's successor starts within half a second.
	sleep 0.5
	for i in "${!pids[@]}"; do
		[ -n "${pids[$i]}" ] || continue
		if ! kill -0 "${pids[$i]}" 2>/dev/null; then
			wait "${pids[$i]}" 2>/dev/null
			pids[$i]=""
			inuse=$((inuse - pid_cost[i]))
			nrun=$((nrun - 1))
			finished=$((finished + 1))
		fi
	done
	# Progress: when a guest starts or ends, and every 30 s in between.
	state="$started/$finished"
	if [ "$state" != "${last_state-}" ] || [ $((SECONDS - last_print)) -ge 30 ]; then
		printf 'kvm.sh: %d/%d guests done, %d running, %ds elapsed\n' \
			"$finished" "${#runs[@]}" $((started - finished)) $((SECONDS - t0))
		last_state=$state last_print=$SECONDS
	fi
done

for p in "${jitter_pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done

# Verdicts and the summary table (functions.sh: kvm_summary, shared with kvm-recheck.sh).
kvm_summary "$CFDIR" "$torture" "${dirs[@]}"
if perf_suite "$torture"; then
	echo
	"$KVM/bin/rcuperf-report.sh" "${dirs[@]}"
fi
# The results page, RUNDIR/index.html (bin/kvm-html.sh).
"$KVM/bin/kvm-html.sh" "$RUNDIR" | sed 's/^/kvm.sh: /'
echo
for n in "${not_runnable[@]}"; do
	echo "kvm.sh: $n: not run: $(scen_not_runnable "$CFDIR/$n")"
done
echo "kvm.sh: $(( ${#runs[@]} - kvm_fail )) of ${#runs[@]} guests as expected ($RUNDIR)"
[ $kvm_fail -eq 0 ] || exit 1
if [ $kvm_expected_failures -gt 0 ]; then
	echo "kvm.sh: $kvm_expected_failures test(s) ended with FAILURE, as their scenarios require: exit 3"
	exit 3
fi
exit 0
