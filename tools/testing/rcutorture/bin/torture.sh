#!/usr/bin/env bash
# torture.sh - a long rcutorture campaign through kvm.sh, judged and summed up in one table
# (named after Linux's tools/testing/selftests/rcutorture/bin/torture.sh; this one is smaller).
#
# Usage: tools/testing/rcutorture/bin/torture.sh [options]
#   --configs "A B ..."    scenarios (default: the TREE*, POLL*, NOCB* and TINY* names of
#                          configs/rcu/CFLIST, and our ONOFF*, FQS*, BOOST*, EXP*, FWD*, DEEP*,
#                          FASTNOHZ* and ALONE* ones; not runnable ones are reported by kvm.sh);
#                          N*NAME runs NAME N times, as with kvm.sh
#   --duration D           torture time of every scenario (overrides the two below); minutes, or
#                          with an s/m/h suffix, as kvm.sh's --duration
#   --tree-duration D      torture time of each TREE* scenario and of any other non-TINY one
#                          (default 20)
#   --tiny-duration D      torture time of each TINY* scenario (default 10)
#   --cpus N               host CPUs to spend on guests (kvm.sh --cpus; default: nproc)
#   --jitter N             host jitter processes while guests run (kvm.sh --jitter; default 0)
#   --do-fuzz              also run FUZZ01 (the system-call fuzzer on every CPU beside rcutorture,
#                          PROVE_RCU; Documentation/user-mode.md) for --duration or --tree-duration;
#                          its guests are also judged on their kills: every kill the power-off
#                          line counts has its one-line report (a report may precede a kill the
#                          power-off cut short: at most one per process still running)
#   --kvm-args "ARGS"      more kvm.sh options, e.g. "--accel tcg-single --bootargs X=Y"
#   --do-kcsan, --do-no-kcsan  also run every kvm.sh call a second time with --kcsan, into
#                          <DURATION>s-kcsan/ (as Linux's torture.sh; default: not)
#   --do-ubsan, --do-no-ubsan  every kernel with UBSAN (kvm.sh --ubsan), or not (the default)
#   --do-kasan, --do-no-kasan  also run every kvm.sh call again with --kasan, into
#                          <DURATION>s-kasan/ (as Linux's torture.sh; default here: not, Linux's: yes)
#   --do-locktorture, --do-no-locktorture  also run locktorture (kvm.sh --torture lock) over
#                          --configs-locktorture (default: configs/lock/CFLIST; its not runnable
#                          scenarios are reported by kvm.sh) for --duration or --tree-duration,
#                          into <DURATION>s-lock/ (as Linux's torture.sh; default here: not,
#                          Linux's: yes)
#   --configs-locktorture "A B ..."  those scenarios (Linux's option)
#   --do-scftorture, --do-no-scftorture  also run scftorture (kvm.sh --torture scf, Linux's
#                          configs/scf/ scenarios; Documentation/scftorture.md) the same way, into
#                          <DURATION>s-scf/ (as Linux's torture.sh; default here: not, Linux's: yes)
#   --configs-scftorture "A B"  its scenarios (Linux's option; default: configs/scf/CFLIST)
#   --do-rcutorture, --do-no-rcutorture  run the rcutorture scenarios (default) or not, e.g.
#                          --do-no-rcutorture --do-locktorture for locktorture alone (Linux's)
#   --results DIR          where the campaign directory goes (default tools/testing/rcutorture/res)
#   --dryrun               print the kvm.sh calls and their --dryrun output; run nothing
#   --summarize DIR        only (re)write DIR/summary.txt of an existing campaign directory DIR
#                          and exit as the campaign would have
#   -h, --help             this text
#
# Scenarios of equal duration run in one kvm.sh call (guests in parallel as --cpus allows); the
# calls run one after another. Results: RESULTS/torture.<YYYY.MM.DD-HH.MM.SS>/ with per call
# kvm.<DURATION>s.log (kvm.sh's output) and <DURATION>s/<stamp>/ (kvm.sh's run directory: per
# guest console.log, verdict, ...), and summary.txt: one line per guest with kvm.sh's verdict,
# grace periods completed (normal and expedited), callbacks invoked, the longest grace period,
# the error counts and the final Reader Pipe histogram, all read from the console by
# parse-console.sh --stats. The table is printed at the end too.
#
# Exit status, as kvm.sh's: 0 when every guest did what its scenario expects (its verdict file
# says PASS) and no test failed; 1 when some guest did not (or has no verdict); 2 for a usage
# error; 3 when every guest did what its scenario expects but some test, as expected, ended with
# FAILURE (BUSTED, NOBOOST given in --configs).
set -uo pipefail

KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KVM_SH=$KVM/bin/kvm.sh
PARSE=$KVM/bin/parse-console.sh
# shellcheck source=functions.sh
. "$KVM/bin/functions.sh"
CFDIR=$KVM/configs/rcu
# The default campaign's scenarios of CFLIST, by name: Linux's TREE and TINY ones, and ours that
# were TREE ones before Linux's took those names (tools/testing/rcutorture/README.md, the scenario table).
TORTURE_KINDS='TREE|POLL|NOCB|TINY|ONOFF|FQS|BOOST|EXP|FWD|DEEP|FASTNOHZ|ALONE'

configs=""
duration=""
tree_duration=20
tiny_duration=10
cpus=""
jitter=0
kvm_args=""
results=$KVM/res
dryrun=0
summarize=""
do_kcsan=0
do_ubsan=0
do_kasan=0
do_fuzz=0
# Other suites (kvm.sh --torture SUITE): one kvm.sh call each, after rcutorture's.
suites=()
declare -A suite_configs=()
do_rcu=1

usage() { sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; }
die() { echo "torture.sh: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
	case $1 in
	--configs) configs=$2; shift ;;
	--duration) duration=$2; shift ;;
	--tree-duration) tree_duration=$2; shift ;;
	--tiny-duration) tiny_duration=$2; shift ;;
	--cpus) cpus=$2; shift ;;
	--jitter) jitter=$2; shift ;;
	--kvm-args) kvm_args=$2; shift ;;
	--do-kasan) do_kasan=1 ;;
	--do-no-kasan) do_kasan=0 ;;
	--results) results=$2; shift ;;
	--summarize) summarize=$2; shift ;;
	--do-kcsan) do_kcsan=1 ;;
	--do-no-kcsan) do_kcsan=0 ;;
	--dryrun) dryrun=1 ;;
	--do-ubsan) do_ubsan=1 ;;
	--do-no-ubsan) do_ubsan=0 ;;
	--do-fuzz) do_fuzz=1; shift; continue ;;
	--do-locktorture) [[ " ${suites[*]-} " == *" lock "* ]] || suites+=(lock) ;;
	--do-no-locktorture) suites=("${suites[@]/lock/}") ;;
	--configs-locktorture) suite_configs[lock]=$2; shift ;;
	--do-scftorture) [[ " ${suites[*]-} " == *" scf "* ]] || suites+=(scf) ;;
	--do-no-scftorture) suites=("${suites[@]/scf/}") ;;
	--configs-scftorture) suite_configs[scf]=$2; shift ;;
	--do-rcutorture) do_rcu=1 ;;
	--do-no-rcutorture) do_rcu=0 ;;
	-h | --help) usage; exit 0 ;;
	*) die "unknown option '$1' (try --help)" ;;
	esac
	shift || die "option needs an argument"
done
# Sanitizers: options kvm.sh adds to every call.
[ "$do_ubsan" = 0 ] || kvm_args+="${kvm_args:+ }--ubsan"

# ----- the summary table -----------------------------------------------------------------------

# stats_of CONSOLE: parse-console.sh --stats of one console into the array ST (KEY -> VALUE).
declare -A ST
stats_of() {
	local k v
	ST=()
	while IFS='=' read -r k v; do ST[$k]=$v; done < <("$PARSE" --stats "$1" 2>/dev/null)
}

# errors_of: the non-zero error counts in ST, "0" if none.
errors_of() {
	local out="" k
	for k in bang rtmbe rtmbkf rtbe rtbke rtbre rtbf bug warning stall; do
		if [ -n "${ST[$k]-}" ] && [ "${ST[$k]}" != 0 ]; then
			out+="$([ $k = bang ] && echo '!!!' || echo $k)=${ST[$k]},"
		fi
	done
	out=${out%,}
	echo "${out:-0}"
}

# fuzz_kills CONSOLE: for a fuzzer guest, "" when every kill has its report, else the problem.
fuzz_kills() {
	local c=$1 reports started exited killed
	reports=$(grep -cE '^\[ *[0-9]+\.[0-9]+\] (traps: fuzz\[[0-9]+\] |fuzz\[[0-9]+\]: segfault at )' "$c")
	read -r started exited killed < <(sed -nE \
		's/^\[ *[0-9.]+\] user: ([0-9]+) processes started, ([0-9]+) exited, ([0-9]+) killed.*/\1 \2 \3/p' "$c")
	if [ -z "${killed-}" ]; then
		echo "fuzz: no power-off process line"
	elif [ "$reports" -lt "$killed" ] || [ "$reports" -gt $((started - exited)) ]; then
		echo "fuzz: $reports kill reports for $killed kills ($started started, $exited exited)"
	fi
}

# summary_table CAMPAIGN: the table of every guest directory (one holding console.log or a
# verdict) under CAMPAIGN/*/*/; a footnote gives each verdict that is not a plain PASS. Sets
# sum_fail (guests not as expected) and sum_xfail (tests that failed as expected), sum_n.
summary_table() {
	local camp=$1 d name v res lg pipe notes="" dur rows="" fk
	sum_fail=0 sum_xfail=0 sum_n=0
	printf '%-10s %5s %-5s %8s %8s %11s %10s  %-12s %s\n' SCENARIO DUR RES GPS EXP-GPS CBS-INVOKED \
		LONGEST-GP ERRORS "READER PIPE (final)"
	for d in "$camp"/*/*/*/; do
		d=${d%/}
		name=${d##*/}
		[ "$name" != build ] || continue
		[ -f "$d/console.log" ] || [ -f "$d/verdict" ] || continue
		sum_n=$((sum_n + 1))
		# The duration group: <N>s/<stamp>/<guest>.
		dur=${d%/*/*}
		dur=${dur##*/}
		v=$(cat "$d/verdict" 2>/dev/null || echo "FAIL (no verdict: kvm.sh did not judge this guest)")
		stats_of "$d/console.log"
		case $v in
		"PASS (expected failure)"*) res=XFAIL sum_xfail=$((sum_xfail + 1)) ;;
		PASS*) res=PASS ;;
		*) res=FAIL sum_fail=$((sum_fail + 1)) ;;
		esac
		[[ $v == "PASS (expected success)" ]] || notes+="$name: $v"$'\n'
		if [[ $name == FUZZ* ]] && [ -f "$d/console.log" ]; then
			fk=$(fuzz_kills "$d/console.log")
			if [ -n "$fk" ]; then
				notes+="$name: FAIL ($fk)"$'\n'
				[ $res = FAIL ] || { res=FAIL; sum_fail=$((sum_fail + 1)); }
			fi
		fi
		lg=${ST[longest_gp]-}
		# Tiny RCU prints no longest GP: each of its grace periods ends at once.
		[ -n "$lg" ] || [ "${ST[flavor]-}" != rcu_tiny ] || lg=n/a
		pipe=${ST[pipe]-}
		pipe=${pipe//,/ }
		rows+=$(printf '%-10s %5s %-5s %8s %8s %11s %10s  %-12s %s' "$name" "$dur" "$res" \
			"${ST[gps]:--}" "${ST[exp_gps]:--}" "${ST[cbs_invoked]:--}" "${lg:--}" "$(errors_of)" \
			"${pipe:--}")$'\n'
	done
	printf '%s' "$rows" | sort -V
	echo
	echo "GPS: grace periods completed (EXP-GPS: expedited ones), CBS-INVOKED: callbacks invoked on"
	echo "all CPUs, LONGEST-GP: jiffies (all from the power-off statistics); ERRORS: non-zero counts of"
	echo "'!!!' lines, rcutorture's rtmbe/rtmbkf/rtbe/rtbke/rtbre/rtbf, BUG/WARNING/stall lines."
	[ -z "$notes" ] || { echo; printf '%s' "$notes" | sort -V; }
	echo
	echo "torture.sh: $((sum_n - sum_fail)) of $sum_n guests as expected ($camp)"
}

# summarize CAMPAIGN: write CAMPAIGN/summary.txt, print it, exit as kvm.sh would.
summarize() {
	local camp=$1
	summary_table "$camp" >"$camp/summary.txt"
	cat "$camp/summary.txt"
	[ "$sum_n" -gt 0 ] || { echo "torture.sh: no guests under $camp"; exit 1; }
	[ "$sum_fail" -eq 0 ] || exit 1
	[ "$sum_xfail" -eq 0 ] || exit 3
	exit 0
}

if [ -n "$summarize" ]; then
	[ -d "$summarize" ] || die "no campaign directory $summarize"
	summarize "$summarize"
fi

# ----- the campaign ------------------------------------------------------------------------------

for d in "$tree_duration" "$tiny_duration" ${duration:+"$duration"}; do
	duration_secs "$d" >/dev/null || die "bad duration '$d'"
done
[ -z "$cpus" ] || [[ $cpus =~ ^[1-9][0-9]*$ ]] || die "bad --cpus '$cpus'"
[[ $jitter =~ ^[0-9]+$ ]] || die "bad --jitter '$jitter'"
[ -n "$configs" ] || configs=$(cflist_of "$CFDIR" | grep -E "^($TORTURE_KINDS)")
[ $do_fuzz = 0 ] || configs+=" FUZZ01"

# Group the scenarios by duration (seconds), in the order they first appear.
declare -A group
order=()
for c in $configs; do
	name=${c#*\*}
	[ -f "$CFDIR/$name" ] || die "no scenario $name in configs/rcu"
	if [ -n "$duration" ]; then
		d=$duration
	elif [[ $name == TINY* ]]; then
		d=$tiny_duration
	else
		d=$tree_duration
	fi
	s=$(duration_secs "$d")
	[ -n "${group[$s]-}" ] || order+=("$s")
	group[$s]+="${group[$s]:+ }$c"
done
[ $do_rcu = 1 ] || order=()
# The other suites' calls: SUITE -> seconds, scenarios (default: the suite's CFLIST).
declare -A suite_secs=()
for suite in ${suites[@]+"${suites[@]}"}; do
	[ -n "$suite" ] || continue
	[ -n "${suite_configs[$suite]-}" ] || suite_configs[$suite]=$(cflist_of "$KVM/configs/$suite" | paste -sd ' ')
	suite_secs[$suite]=$(duration_secs "${duration:-$tree_duration}")
done
[ ${#order[@]} -gt 0 ] || [ ${#suite_secs[@]} -gt 0 ] || die "no scenarios to run"

# Passes over the groups: the plain one, then one per sanitizer asked for (--do-kcsan: kvm.sh
# --kcsan, results in <DURATION>s-kcsan/; --do-kasan: kvm.sh --kasan, <DURATION>s-kasan/).
passes=("")
[ "$do_kcsan" = 0 ] || passes+=(kcsan)
[ "$do_kasan" = 0 ] || passes+=(kasan)

# wall_secs S CONFIGS: the wall-clock torture time of one kvm.sh call running CONFIGS for S
# seconds each. kvm.sh counts a guest as min(its vCPUs, --cpus) host CPUs and starts guests while
# they fit, so the call lasts about ceil(sum of those / --cpus) rounds of S (10 guests of 2 vCPUs
# on --cpus 2: 10 x S, not S). The vCPU counts are kvm.sh --dryrun's own "-smp N".
wall_secs() { # S CONFIGS [SUITE]
	local s=$1 c=${cpus:-$(nproc)} n need=0
	while read -r n; do
		need=$((need + (n < c ? n : c)))
	done < <("$KVM_SH" --configs "$2" --duration "${s}s" --cpus "$c" --dryrun ${3:+--torture "$3"} 2>/dev/null |
		sed -n 's/.* boot -smp \([0-9]*\) .*/\1/p')
	# No "-smp N" read (kvm.sh's dry run changed?): assume one guest at a time.
	[ "$need" -gt 0 ] || need=$(($(wc -w <<<"$2") * c))
	# shellcheck disable=SC2017 # whole rounds of S: the division rounds up on purpose
	echo $(((need + c - 1) / c * s))
}

CAMP=$results/torture.$(date -u +%Y.%m.%d-%H.%M.%S)
total=0
for s in ${order[@]+"${order[@]}"}; do total=$((total + $(wall_secs "$s" "${group[$s]}") * ${#passes[@]})); done
for suite in "${!suite_secs[@]}"; do
	total=$((total + $(wall_secs "${suite_secs[$suite]}" "${suite_configs[$suite]}" "$suite")))
done
echo "torture.sh: $((${#order[@]} * ${#passes[@]} + ${#suite_secs[@]})) kvm.sh call(s), torture time about $((total / 3600))h$((total % 3600 / 60))m$((total % 60))s on ${cpus:-$(nproc)} host CPUs, plus builds and boots"
echo "torture.sh: campaign directory $CAMP"
# run_kvm SUB ARGS...: one kvm.sh call, its run directory under CAMP/SUB (or its dry run).
run_kvm() {
	local sub=$1 rc=0
	shift
	echo "torture.sh: kvm.sh$(printf ' %q' "$@")"
	if [ $dryrun = 1 ]; then
		"$KVM_SH" "$@" --dryrun || exit 2
		return
	fi
	mkdir -p "$CAMP/$sub"
	"$KVM_SH" "$@" 2>&1 | tee "$CAMP/kvm.$sub.log" || rc=$?
	[ $rc != 2 ] || { echo "torture.sh: kvm.sh refused its arguments" >&2; exit 2; }
}
for pass in "${passes[@]}"; do
	for s in ${order[@]+"${order[@]}"}; do
		sub=${s}s${pass:+-$pass}
		# shellcheck disable=SC2206 # --kvm-args is split into words on purpose
		run_kvm "$sub" --configs "${group[$s]}" --duration "${s}s" ${cpus:+--cpus "$cpus"} --jitter "$jitter" \
			--results "$CAMP/$sub" $kvm_args ${pass:+"--$pass"}
	done
done
# The other suites (--do-locktorture, --do-scftorture): one call each, into <DURATION>s-<suite>/.
for suite in "${!suite_secs[@]}"; do
	s=${suite_secs[$suite]} sub=${suite_secs[$suite]}s-$suite
	# shellcheck disable=SC2086 # --kvm-args is split into words on purpose
	run_kvm "$sub" --torture "$suite" --configs "${suite_configs[$suite]}" --duration "${s}s" \
		${cpus:+--cpus "$cpus"} --jitter "$jitter" --results "$CAMP/$sub" $kvm_args
done
[ $dryrun = 1 ] && exit 0

echo
echo "torture.sh: summary ($CAMP/summary.txt)"
summarize "$CAMP"
