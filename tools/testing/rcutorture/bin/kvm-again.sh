#!/usr/bin/env bash
# kvm-again.sh - boot again, without building, the kernels of an earlier kvm.sh run, as Linux's
# script of the same name does: the same guests (scenario, vCPUs, kernel command line) in a new
# run directory, judged and summed up as kvm.sh does (table, results page).
#
# Usage: tools/testing/rcutorture/bin/kvm-again.sh OLD_RUN [options]
#   OLD_RUN                a run directory of kvm.sh (or of kvm.sh --build-only, kvm-remote.sh)
#   --bootargs "ARGS"      more kernel arguments for every guest, after the old ones (later
#                          ones win); given twice, they add up
#   --duration D           a new torture time (minutes, or N with s/m/h/d): the guests'
#                          <suite>torture.shutdown_secs and the kernel's shutdown_secs backstop are
#                          set anew, as kvm.sh would have set them
#   --link hard|soft|copy|inplace|inplace-force  how OLD_RUN's files (its guests' files and
#                          kernels, not its build trees) reach the new run directory (default
#                          copy; soft with --remote): copies, hard links or symbolic links;
#                          inplace boots in OLD_RUN itself if its guests have no console.log yet
#                          (a --build-only run), inplace-force even then (old results removed)
#   --rundir DIR           the new run directory (absolute path; must not exist)
#   --datestamp NAME       the new run directory is NAME next to OLD_RUN (one of the two at most;
#                          default: the date and time, then "-again")
#   --cpus N               host CPUs to spend on guests, as kvm.sh's (default: nproc)
#   --remote               prepare the new run directory and boot nothing: its guests then run on
#                          other machines with kvm-remote.sh "HOSTS" --reuse NEW_RUN
#   --dryrun               say what would be booted, with which command line; change nothing
#   -h, --help             this text
#
# Each guest needs the GUEST/bootargs and RUN_DIR/accel, duration, grace, memory and qemu_args
# files kvm.sh writes (runs of an older kvm.sh lack them: boot those with kvm.sh again), and its
# kernel: GUEST/kernel.elf or RUN_DIR/build/SCENARIO/kernel.elf. The new directory gets the old
# guests' scenario, cpus, expect and .config, the new bootargs, and a job.sh as kvm.sh
# --build-only writes it; console.log and the other results are written anew. A guest whose build
# had failed keeps its verdict. The rcutorture.stat_interval kvm.sh chose for the old duration is
# kept. Exit status as kvm.sh's: 0 all as expected, 1 some guest not, 2 usage error, 3 all as
# expected with some test ending in FAILURE as its scenario requires.
set -uo pipefail

KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
SRCTREE=$(cd "$KVM/../../.." && pwd -P)
# shellcheck source=functions.sh
. "$KVM/bin/functions.sh"

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "kvm-again.sh: $*" >&2; exit 2; }

case ${1-} in -h | --help) usage; exit 0 ;; '' | -*) usage >&2; exit 2 ;; esac
[ -d "$1" ] || die "no run directory $1"
oldrun=$(cd "$1" && pwd -P)
shift
again_args="$*"
bootargs="" duration="" link="" rundir="" datestamp="" remote=0 dryrun=0
cpus=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
	case $1 in
	--bootargs | --bootarg | --duration | --link | --rundir | --datestamp | --cpus)
		[ $# -ge 2 ] && [[ $2 != --* ]] || die "$1 needs an argument (try --help)" ;;&
	--bootargs | --bootarg) bootargs="$bootargs${bootargs:+ }$2"; shift ;;
	--duration) duration=$(duration_secs "$2") || die "bad --duration '$2'"; shift ;;
	--link)
		case $2 in hard | soft | copy | inplace | inplace-force) link=$2 ;; *) die "bad --link '$2'" ;; esac
		shift ;;
	--rundir)
		[[ $2 == /* ]] || die "--rundir wants an absolute path"
		[ -z "$datestamp" ] || die "Only one of --datestamp or --rundir may be specified"
		rundir=$2; shift ;;
	--datestamp)
		[ -z "$rundir" ] || die "Only one of --datestamp or --rundir may be specified"
		[[ $2 =~ ^[a-zA-Z0-9._/-]+$ ]] || die "bad --datestamp '$2'"
		datestamp=$2; shift ;;
	--cpus) [[ $2 =~ ^[1-9][0-9]*$ ]] || die "bad --cpus '$2'"; cpus=$2; shift ;;
	--remote) remote=1 ;;
	--dryrun) dryrun=1 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown argument '$1' (try --help)" ;;
	esac
	shift
done
[ -n "$link" ] || { if [ $remote = 1 ]; then link=soft; else link=copy; fi; }
case $link in
inplace | inplace-force)
	[ -z "$rundir$datestamp" ] || die "--link $link boots in $oldrun itself: no --rundir or --datestamp"
	rundir=$oldrun ;;
*)
	[ -n "$datestamp" ] && rundir=$(dirname "$oldrun")/$datestamp
	[ -n "$rundir" ] || rundir=$(dirname "$oldrun")/$(date -u +%Y.%m.%d-%H.%M.%S)-again
	[ ! -e "$rundir" ] || die "$rundir: Already exists."
	;;
esac
for f in accel duration grace memory qemu_args; do
	[ -f "$oldrun/$f" ] || die "$oldrun has no $f file (made by an older kvm.sh: run kvm.sh again)"
done
torture=$(cat "$oldrun/torture" 2>/dev/null || echo rcu)
oldsecs=$(cat "$oldrun/duration") grace=$(cat "$oldrun/grace")
secs=${duration:-$oldsecs}
# A grace kvm.sh computed from the duration is computed again; one given (--shutdown-grace) stays.
if [ "$grace" = $((oldsecs / 4 > 60 ? oldsecs / 4 : 60)) ]; then grace=$((secs / 4 > 60 ? secs / 4 : 60)); fi

mapfile -t guests < <(for d in "$oldrun"/*/; do [ -f "$d/scenario" ] && basename "$d"; done)
[ ${#guests[@]} -gt 0 ] || die "$oldrun holds no guest directories"
kernel_of() { # GUEST: the kernel, relative to the run directory
	if [ -f "$oldrun/$1/kernel.elf" ]; then echo "$1/kernel.elf"
	elif [ -f "$oldrun/build/$(cat "$oldrun/$1/scenario")/kernel.elf" ]; then echo "build/$(cat "$oldrun/$1/scenario")/kernel.elf"
	fi
}
# The old command line with the new duration and the extra arguments.
new_args() { # GUEST
	local a
	a=$(cat "$oldrun/$1/bootargs")
	if [ -n "$duration" ]; then
		if perf_suite "$torture"; then
			a=$(sed -E "s/(^| )shutdown_secs=[0-9]+/\\1shutdown_secs=$secs/g" <<<"$a")
		else
			# <suite>torture.shutdown_secs: rcutorture's, locktorture's.
			a=$(sed -E -e "s/(^| )${torture}torture\\.shutdown_secs=[0-9]+/\\1${torture}torture.shutdown_secs=$secs/g" \
				-e "s/(^| )shutdown_secs=[0-9]+/\\1shutdown_secs=$((secs + grace / 2))/g" <<<"$a")
		fi
	fi
	echo "$a${bootargs:+ $bootargs}"
}

boot=()
for g in "${guests[@]}"; do
	if [ "$(cat "$oldrun/$g/verdict" 2>/dev/null)" = "FAIL (build failed)" ]; then continue; fi
	[ -f "$oldrun/$g/bootargs" ] || die "$oldrun/$g has no bootargs file (made by an older kvm.sh: run kvm.sh again)"
	[ -n "$(kernel_of "$g")" ] || die "$oldrun/$g: no kernel (neither $g/kernel.elf nor build/$(cat "$oldrun/$g/scenario")/kernel.elf)"
	boot+=("$g")
done
echo "kvm-again.sh: ${#boot[@]} guest(s) of $oldrun again, ${secs}s each, in $rundir"
if [ $dryrun = 1 ]; then
	for g in "${boot[@]}"; do
		echo "dryrun: $g: boot $(kernel_of "$g") -smp $(cat "$oldrun/$g/cpus") --accel $(cat "$oldrun/accel"), expect $(cat "$oldrun/$g/expect" 2>/dev/null || echo success)"
		echo "dryrun: $g: cmdline: $(new_args "$g" | tr -s ' ')"
	done
	exit 0
fi

# The new run directory: the old one's run and guest files (not its build trees, not its
# results), each copied, hard-linked or symbolically linked as --link says.
case $link in copy) cpl=(cp) ;; hard) cpl=(cp -l) ;; soft) cpl=(cp -s) ;; *) cpl=() ;; esac
if [ ${#cpl[@]} -gt 0 ]; then
	mkdir -p "$rundir" || die "cannot create $rundir"
	for f in torture torture_suite accel memory qemu_args log; do
		[ ! -f "$oldrun/$f" ] || "${cpl[@]}" "$oldrun/$f" "$rundir/$f" || die "cannot copy $oldrun/$f"
	done
	for g in "${guests[@]}"; do
		mkdir -p "$rundir/$g"
		for f in scenario cpus expect .config verdict; do
			[ ! -f "$oldrun/$g/$f" ] || "${cpl[@]}" "$oldrun/$g/$f" "$rundir/$g/$f" || die "cannot copy $oldrun/$g/$f"
		done
	done
	for g in "${boot[@]}"; do
		rm -f "$rundir/$g/verdict"
		"${cpl[@]}" "$oldrun/$(kernel_of "$g")" "$rundir/$g/kernel.elf" || die "cannot copy the kernel of $g"
	done
else
	for g in "${boot[@]}"; do
		[ $link = inplace-force ] || [ ! -e "$rundir/$g/console.log" ] ||
			die "$rundir/$g already ran (--link inplace-force boots it again)"
	done
	for g in "${boot[@]}"; do
		( cd "$rundir/$g" && rm -f console.log console.log.diags qemu.log qemu.rc qemu-cmd verdict verdict.old \
			stats.dat stats.png stats.gnuplot.log histogram.* cdf.* durations.ns )
		k=$(kernel_of "$g")
		[ "$k" = "$g/kernel.elf" ] || ln -f "$rundir/$k" "$rundir/$g/kernel.elf" 2>/dev/null ||
			cp "$rundir/$k" "$rundir/$g/kernel.elf" || die "cannot copy the kernel of $g"
	done
fi
# Files written anew are removed first: with --link soft or hard they are the old run's.
rm -f "$rundir/index.html" "$rundir/duration" "$rundir/grace" "$rundir/guests" "$rundir/timeout"
echo "$secs" >"$rundir/duration"
echo "$grace" >"$rundir/grace"
echo $((secs + grace)) >"$rundir/timeout"
echo "$0 $oldrun $again_args" >>"$rundir/log.again"
: >"$rundir/guests"
accel=$(cat "$oldrun/accel") memory=$(cat "$oldrun/memory") qemu_args=$(cat "$oldrun/qemu_args")
for g in "${boot[@]}"; do
	rm -f "$rundir/$g/bootargs" "$rundir/$g/job.sh" "$rundir/$g/qemu-run.sh"
	new_args "$g" >"$rundir/$g/bootargs"
	cp "$SRCTREE/scripts/qemu-run.sh" "$rundir/$g/qemu-run.sh"
	job_script "boot guest $g again (kvm-again.sh of $oldrun)" "$(cat "$rundir/$g/cpus")" "$accel" \
		"$(cat "$rundir/$g/bootargs")" $((secs + grace)) "$qemu_args" "$memory" >"$rundir/$g/job.sh"
	echo "$g" >>"$rundir/guests"
done
if [ $remote = 1 ]; then
	echo "kvm-again.sh: prepared; boot on other machines with: kvm-remote.sh \"HOSTS\" --reuse $rundir"
	exit 0
fi

# Boot while the guests' vCPUs (each counted as at most --cpus) fit in --cpus.
pids=() costs=() inuse=0 next=0
while [ $next -lt ${#boot[@]} ] || [ ${#pids[@]} -gt 0 ]; do
	while [ $next -lt ${#boot[@]} ]; do
		c=$(cat "$rundir/${boot[$next]}/cpus")
		[ "$c" -le "$cpus" ] || c=$cpus
		[ $((inuse + c)) -le "$cpus" ] || [ $inuse -eq 0 ] || break
		bash "$rundir/${boot[$next]}/job.sh" &
		pids+=($!) costs+=("$c") inuse=$((inuse + c)) next=$((next + 1))
	done
	sleep 0.5
	for i in "${!pids[@]}"; do
		kill -0 "${pids[$i]}" 2>/dev/null && continue
		wait "${pids[$i]}"
		inuse=$((inuse - costs[i]))
		unset "pids[$i]" "costs[$i]"
	done
	pids=("${pids[@]}") costs=("${costs[@]}")
done

mapfile -t dirs < <(for g in "${guests[@]}"; do echo "$rundir/$g"; done)
kvm_summary "$KVM/configs/$torture" "$torture" "${dirs[@]}"
if perf_suite "$torture"; then echo; "$KVM/bin/rcuperf-report.sh" "${dirs[@]}"; fi
"$KVM/bin/kvm-html.sh" "$rundir" | sed 's/^/kvm-again.sh: /'
echo
echo "kvm-again.sh: $(( ${#dirs[@]} - kvm_fail )) of ${#dirs[@]} guests as expected ($rundir)"
[ "$kvm_fail" -eq 0 ] || exit 1
[ "$kvm_expected_failures" -eq 0 ] || exit 3
exit 0
