#!/usr/bin/env bash
# kvm-remote.sh - run kvm.sh's guests on other machines over ssh, as Linux's kvm-remote.sh does:
# build the scenarios once here (kvm.sh --build-only), ship each guest's kernel, job script and
# launcher (scripts/qemu-run.sh) to the hosts with GNU parallel, spread the guests over the hosts
# by their CPU counts, bring console.log, qemu.log, qemu.rc and qemu-cmd back into one local run
# directory (kvm.sh's layout), then judge them and print kvm.sh's summary table (kvm_summary) and
# results page (kvm-html.sh).
#
# Usage: tools/testing/rcutorture/bin/kvm-remote.sh "HOST1 HOST2 ..." [--retry] [kvm.sh options]
#        tools/testing/rcutorture/bin/kvm-remote.sh "HOST1 HOST2 ..." [--retry] --reuse RUN_DIR
#   HOST     an ssh destination ([user@]host or a Host alias of ~/.ssh/config); the ssh command
#            is $KVM_REMOTE_SSH (default "ssh"; e.g. "ssh -F my_config -p 2222")
#   --retry  rerun, on the hosts still up, the guests of a host that died or timed out mid-run
#   --reuse RUN_DIR  no build: boot again the guests of an earlier kvm-remote.sh (or kvm.sh
#            --build-only, or kvm-again.sh --remote) run directory, with their kernels
#            (GUEST/kernel.elf, else RUN_DIR/build/SCENARIO/kernel.elf) and job scripts,
#            into a new run directory next to it (as Linux's kvm-again.sh)
#   kvm.sh options: --configs, --duration, --bootargs, --kconfig, --qemu-args, --accel,
#            --torture, --results, --cpus (build parallelism here), --dryrun, --kcsan, --kasan,
#            --ubsan, --defconfig, --kmake-arg, --trust-make, --memory, --shutdown-grace,
#            --datestamp...; not --jitter nor --gdb. kvm.sh gets --remote, as from Linux's
#   -h, --help  this text
#
# Each host is checked up front (one line per host): it must answer ssh without a password
# (BatchMode) and have bash and qemu-system-x86_64, and, for GNU parallel's own remote side,
# perl and rsync. A host failing the check gets one error line and no guests; with no usable
# host the exit status is 2. A host runs max(1, its CPUs / the largest guest's vCPUs) guests at
# a time (parallel --sshlogin N/HOST); files go to a per-job directory under the remote
# ~/.parallel/tmp, removed afterwards (parallel --workdir ... --cleanup).
#
# A guest whose host dies or stops answering (ssh ServerAlive: 30 s) or whose job outlives its
# time limit by 120 s is judged "FAIL (host HOST unreachable)": never a pass, never dropped.
# With --retry such guests run once more on the other hosts that are still up. GUEST/host says
# where each guest ran; RUNDIR/remote.joblog (and remote.joblog.retry) is parallel's job log.
# Exit status as kvm.sh's: 0 all as expected, 1 some guest not as expected, 2 usage error or no
# usable host, 3 all as expected with some test ending in FAILURE as its scenario requires.
set -uo pipefail

KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
# shellcheck source=functions.sh
. "$KVM/bin/functions.sh"

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "kvm-remote: $*" >&2; exit 2; }

case ${1-} in -h | --help) usage; exit 0 ;; '' | -*) usage >&2; exit 2 ;; esac
read -r -a hosts <<<"$1"
shift
[ ${#hosts[@]} -gt 0 ] || die "no hosts given"
retry=0 dryrun=0 reuse="" kvm_args=()
while [ $# -gt 0 ]; do
	case $1 in
	--retry) retry=1 ;;
	--reuse) [ $# -ge 2 ] || die "--reuse needs a run directory"; reuse=$2; shift ;;
	--dryrun) dryrun=1 ;;
	--jitter) die "--jitter is not supported remotely" ;;
	-h | --help) usage; exit 0 ;;
	--build-only | --buildonly | --remote) ;;
	# kvm.sh's options that take no value (its own and Linux's).
	--kcsan | --kasan | --ubsan | --trust-make | --allcpus | --debug-info | --debuginfo | --no-affinity | --no-initrd)
		kvm_args+=("$1") ;;
	--gdb) die "--gdb is for a local run (kvm.sh --gdb)" ;;
	--*) [ $# -ge 2 ] || die "option $1 needs an argument"; kvm_args+=("$1" "$2"); shift ;;
	*) die "unknown argument '$1' (try --help)" ;;
	esac
	shift
done

if [ -n "$reuse" ]; then
	{ [ ${#kvm_args[@]} = 0 ] && [ $dryrun = 0 ]; } || die "--reuse takes no kvm.sh options"
	{ [ -f "$reuse/guests" ] && [ -f "$reuse/timeout" ]; } ||
		die "$reuse is no kvm-remote.sh or kvm.sh --build-only run directory (no guests or timeout file)"
	reuse=$(cd "$reuse" && pwd -P)
fi
if [ $dryrun = 1 ]; then
	echo "kvm-remote: hosts: ${hosts[*]}"
	exec "$KVM/bin/kvm.sh" --remote --dryrun "${kvm_args[@]}"
fi
command -v parallel >/dev/null 2>&1 || die "GNU parallel is not installed (scripts/install-deps.sh installs it)"

read -r -a ssh_cmd <<<"${KVM_REMOTE_SSH:-ssh}"
ssh_opts=(-o BatchMode=yes -o ConnectTimeout=10 -o ServerAliveInterval=10 -o ServerAliveCountMax=3)

# The up-front check: one line per host.
declare -A hcpus
usable=()
for h in "${hosts[@]}"; do
	# shellcheck disable=SC2016 # expanded on the remote side
	out=$("${ssh_cmd[@]}" "${ssh_opts[@]}" "$h" 'm=; for t in bash qemu-system-x86_64 perl rsync; do command -v $t >/dev/null 2>&1 || m="$m $t"; done; if [ -n "$m" ]; then echo "missing:$m"; exit 3; fi; nproc' </dev/null 2>&1)
	rc=$?
	n=$(tail -1 <<<"$out" | tr -d '\r')
	if [ $rc = 0 ] && [[ $n =~ ^[1-9][0-9]*$ ]]; then
		hcpus[$h]=$n
		usable+=("$h")
		echo "kvm-remote: host $h: $n CPUs"
	elif [ $rc = 3 ]; then
		echo "kvm-remote: host $h: unusable, ${n#missing: } not installed (a host needs bash and QEMU, and perl and rsync for GNU parallel)" >&2
	elif [ $rc = 255 ]; then
		echo "kvm-remote: host $h: unreachable: $(grep -v '^Warning: Permanently added' <<<"$out" | tail -1 | tr -d '\r')" >&2
	else
		echo "kvm-remote: host $h: unusable (check exit $rc): $n" >&2
	fi
done
[ ${#usable[@]} -gt 0 ] || die "no usable host among: ${hosts[*]}"

# --reuse: a new run directory next to the old one, with the old guests' files and kernels.
reuse_rundir() {
	local r g name k n=2
	r=$(dirname "$reuse")/$(date -u +%Y.%m.%d-%H.%M.%S)
	while [ -e "$r" ]; do r=${r%.again*}.again$n; n=$((n + 1)); done
	mkdir -p "$r" && cp "$reuse/torture" "$reuse/timeout" "$reuse/guests" "$r/" || return 1
	for g in "$reuse"/*/; do
		g=$(basename "$g")
		[ -f "$reuse/$g/scenario" ] || continue
		mkdir -p "$r/$g"
		for f in scenario cpus expect .config job.sh; do
			[ ! -f "$reuse/$g/$f" ] || cp "$reuse/$g/$f" "$r/$g/"
		done
		grep -qxF "$g" "$r/guests" || { cp "$reuse/$g/verdict" "$r/$g/" 2>/dev/null; continue; }
		name=$(cat "$r/$g/scenario")
		# The guest's own kernel (kvm-again.sh --remote), else its scenario's build.
		k=$reuse/$g/kernel.elf
		[ -f "$k" ] || k=$reuse/build/$name/kernel.elf
		ln -f "$k" "$r/$g/kernel.elf" 2>/dev/null || cp "$k" "$r/$g/kernel.elf" || return 1
		cp "$KVM/../../../scripts/qemu-run.sh" "$r/$g/qemu-run.sh" || return 1
	done
	[ ! -d "$reuse/build" ] || ln -s "$reuse/build" "$r/build"
	echo "$r"
}

if [ -n "$reuse" ]; then
	RUNDIR=$(reuse_rundir) || die "could not copy $reuse"
	echo "kvm-remote: guests of $reuse again, results in $RUNDIR"
else
	# Build here; kvm.sh prepares every guest directory (kernel.elf, qemu-run.sh, job.sh).
	buildlog=$(mktemp "${TMPDIR:-/tmp}/kvm-remote.XXXXXX")
	"$KVM/bin/kvm.sh" --remote --build-only "${kvm_args[@]}" 2>&1 | tee "$buildlog"
	rc=${PIPESTATUS[0]}
	out=$(cat "$buildlog")
	rm -f "$buildlog"
	[ "$rc" = 0 ] || exit "$rc"
	RUNDIR=$(sed -n 's/^kvm.sh: results in //p' <<<"$out")
fi
{ [ -d "$RUNDIR" ] && [ -f "$RUNDIR/guests" ]; } || die "kvm.sh --build-only left no run directory"
torture=$(cat "$RUNDIR/torture")
limit=$(cat "$RUNDIR/timeout")
mapfile -t guests <"$RUNDIR/guests"
alldirs=()
for d in "$RUNDIR"/*/; do
	d=${d%/}
	[ -f "$d/scenario" ] && alldirs+=("$d")
done

# run_on JOBLOG HOST... -- GUEST...: boot the guests on the hosts; sets failed (the guests whose
# job did not come back) and dead (their hosts).
failed=() dead=()
run_on() {
	local joblog=$1 h g maxc=1 c slogins=() list=()
	shift
	while [ "$1" != -- ]; do list+=("$1"); shift; done
	shift
	for g in "$@"; do
		c=$(cat "$RUNDIR/$g/cpus")
		[ "$c" -gt "$maxc" ] && maxc=$c
	done
	for h in "${list[@]}"; do
		c=$((hcpus[$h] / maxc))
		slogins+=(-S "$((c > 0 ? c : 1))/$h")
	done
	echo "kvm-remote: $# guest(s) on ${slogins[*]//-S /} (slots/host), up to $((limit + 120)) s each"
	(
		cd "$RUNDIR" || exit 1
		printf '%s\n' "$@" | parallel --ssh "${ssh_cmd[*]} ${ssh_opts[*]}" "${slogins[@]}" \
			--workdir ... --cleanup --joblog "$joblog" --timeout $((limit + 120)) \
			--tf '{}/job.sh' --tf '{}/kernel.elf' --tf '{}/qemu-run.sh' \
			--return '{}/console.log' --return '{}/qemu.log' --return '{}/qemu.rc' \
			--return '{}/qemu-cmd' bash '{}/job.sh'
	) >"$joblog.out" 2>&1
	failed=() dead=()
	local host rt ev sig
	for g in "$@"; do
		read -r _ host _ rt _ _ ev sig _ < <(awk -F'\t' -v c="bash $g/job.sh" '$9 == c' "$joblog" | tail -1)
		host=${host#*/}
		echo "${host:-?}" >"$RUNDIR/$g/host"
		if [ "${ev:-x}" = 0 ] && [ "${sig:-x}" = 0 ] && [ -s "$RUNDIR/$g/qemu.rc" ]; then
			echo "kvm-remote: $g ran on $host (${rt%.*} s)"
		else
			echo "kvm-remote: $g: host ${host:-?} unreachable or timed out (job exit ${ev:-?}, signal ${sig:-?})"
			failed+=("$g")
			[[ " ${dead[*]-} " == *" $host "* ]] || dead+=("$host")
		fi
	done
}

[ ${#guests[@]} = 0 ] || run_on "$RUNDIR/remote.joblog" "${usable[@]}" -- "${guests[@]}"
if [ $retry = 1 ] && [ ${#failed[@]} -gt 0 ]; then
	alive=()
	for h in "${usable[@]}"; do [[ " ${dead[*]} " == *" $h "* ]] || alive+=("$h"); done
	if [ ${#alive[@]} -gt 0 ]; then
		echo "kvm-remote: --retry: ${failed[*]} again on ${alive[*]}"
		for g in "${failed[@]}"; do rm -f "$RUNDIR/$g"/{console.log,qemu.log,qemu.rc,qemu-cmd}; done
		run_on "$RUNDIR/remote.joblog.retry" "${alive[@]}" -- "${failed[@]}"
	else
		echo "kvm-remote: --retry: no host left to rerun ${failed[*]}"
	fi
fi
for g in "${failed[@]}"; do
	echo "FAIL (host $(cat "$RUNDIR/$g/host") unreachable)" >"$RUNDIR/$g/verdict"
done
# The remote copies are gone; the local ones only duplicate build/.
for g in "${guests[@]}"; do rm -f "$RUNDIR/$g/kernel.elf" "$RUNDIR/$g/qemu-run.sh"; done

kvm_summary "$KVM/configs/$torture" "$torture" "${alldirs[@]}"
if perf_suite "$torture"; then
	echo
	"$KVM/bin/rcuperf-report.sh" "${alldirs[@]}"
fi
"$KVM/bin/kvm-html.sh" "$RUNDIR" | sed 's/^/kvm-remote: /'
echo
echo "kvm-remote: $((${#alldirs[@]} - kvm_fail)) of ${#alldirs[@]} guests as expected ($RUNDIR)"
[ "$kvm_fail" -eq 0 ] || exit 1
if [ "$kvm_expected_failures" -gt 0 ]; then
	echo "kvm-remote: $kvm_expected_failures test(s) ended with FAILURE, as their scenarios require: exit 3"
	exit 3
fi
exit 0
