# shellcheck shell=bash
# functions.sh - helpers shared by kvm.sh and torture.sh (sourced, not run).
#
#   duration_secs D    print D in seconds: D is minutes, or N with an s, m, h or d suffix;
#                      returns 1 (printing nothing) unless D is a whole positive duration
#   cflist_of CFDIR    print the scenario names of CFDIR/CFLIST, comments left out
#   perf_suite T       true when torture suite T is a performance test (rcuperf, or Linux's
#                      names rcuscale and refscale): judged by its summary lines, not rcutorture's
#   guest_dirs RUN_DIR one guest directory of a kvm.sh run a line (those with a console.log or a
#                      verdict: not build/)
#   job_script WHAT SMP ACCEL ARGS TIMEOUT QEMU_ARGS MEMORY
#                      print a guest's job.sh (kvm.sh --build-only, kvm-again.sh): from its own
#                      directory, anywhere QEMU and bash are, "bash job.sh" boots kernel.elf there
#                      and writes console.log, qemu.log, qemu.rc (qemu-run.sh's exit status) and
#                      qemu-cmd; it exits 0 whatever the guest did. WHAT goes in its header.
#   kvm_summary CFDIR TORTURE GUESTDIR...
#                      judge each guest directory that has no verdict yet (parse-console.sh
#                      with its expect file and CFDIR/<scenario>.features; console.log.diags on
#                      problems), print the summary table and the first offending line of each
#                      guest not as expected; sets kvm_fail and kvm_expected_failures

duration_secs() {
	local d=$1 s
	case $d in
	*s) s=${d%s} ;;
	*m) s=${d%m} ;;
	*h) s=${d%h} ;;
	*d) s=${d%d} ;;
	*) s=$d ;;
	esac
	[[ $s =~ ^[0-9]+$ ]] || return 1
	s=$((10#$s))
	case $d in
	*s) ;;
	*h) s=$((s * 3600)) ;;
	*d) s=$((s * 86400)) ;;
	*) s=$((s * 60)) ;;
	esac
	[ "$s" -gt 0 ] || return 1
	echo "$s"
}

cflist_of() { grep -v '^#' "$1/CFLIST"; }
perf_suite() { case $1 in rcuperf | rcuscale | refscale) return 0 ;; *) return 1 ;; esac; }

guest_dirs() {
	local d
	for d in "$1"/*/; do
		d=${d%/}
		[ -f "$d/console.log" ] || [ -f "$d/verdict" ] || continue
		echo "$d"
	done
}

job_script() {
	# shellcheck disable=SC2016 # the job script's own expansions
	echo '#!/usr/bin/env bash'
	echo "# job.sh - $1: bash job.sh."
	echo '# Writes console.log, qemu.log, qemu.rc (qemu-run.sh exit status) and qemu-cmd; exits 0'
	echo '# whatever the guest did.'
	# shellcheck disable=SC2016
	echo 'cd "$(dirname "$0")" || exit 1'
	printf 'bash ./qemu-run.sh --kernel kernel.elf --smp %q --accel %q --append %q --timeout %q --quiet --log console.log --qemu-args %q%s --verbose >qemu.log 2>&1\n' \
		"$2" "$3" "$4" "$5" "$6" "${7:+ --mem $7}"
	# shellcheck disable=SC2016
	echo 'echo $? >qemu.rc'
	echo "sed -n 's/^qemu-run: command: //p' qemu.log >qemu-cmd"
	echo 'exit 0'
}

# How a guest ended, in words (qemu-run.sh's exit status; the raw QEMU codes are in README.md).
exit_word() {
	case $1 in
	0) echo poweroff ;; 35) echo testfail ;; 7) echo panic ;; 124) echo overran ;;
	2) echo reset ;; 130) echo interrupted ;; - | '') echo - ;; *) echo "exit$1" ;;
	esac
}

kvm_summary() {
	local cfdir=$1 torture=$2 d name exp rc v st g up gps rate o cpus
	local parse
	parse=$(dirname "${BASH_SOURCE[0]}")/parse-console.sh
	shift 2
	local offending=()
	kvm_fail=0 kvm_expected_failures=0
	printf '\n%-16s %-5s %-8s %-11s %-8s %-8s %s\n' SCENARIO CPUS EXPECT GUEST GPS GP/S VERDICT
	for d in "$@"; do
		# kvm.sh writes scenario, cpus and expect; a run from before it did: guess from the name
		# (NAME or NAME.N) and the .config.
		name=$(cat "$d/scenario" 2>/dev/null) || { name=$(basename "$d"); name=${name%.[0-9]*}; }
		exp=$(cat "$d/expect" 2>/dev/null || echo success)
		if [ ! -f "$d/verdict" ]; then
			rc=$(cat "$d/qemu.rc" 2>/dev/null || echo "?")
			local feat=()
			[ -f "$cfdir/$name.features" ] && feat=(--features "$cfdir/$name.features")
			v=$("$parse" --expect "$exp" --torture "$torture" "${feat[@]}" --diags "$d/console.log.diags" \
				"$d/console.log")
			case $rc in
			0) ;;
			35) [ "$exp" = failure ] || [ "$exp" = busted ] || v="FAIL (guest exit 35: test failure) ${v#PASS }" ;;
			124) v="FAIL (guest killed: overran its time) ${v#* }" ;;
			*) v="FAIL (qemu-run exit $rc) ${v#* }" ;;
			esac
			echo "$v" >"$d/verdict"
		fi
		v=$(cat "$d/verdict")
		[[ $v == PASS* ]] || kvm_fail=$((kvm_fail + 1))
		[[ $v == "PASS (expected failure)"* ]] && kvm_expected_failures=$((kvm_expected_failures + 1))
		# Grace periods and their rate as Linux's kvm-recheck-rcu.sh counts them ("N GPs (R/s)"):
		# the writer's version number in rcutorture's last statistics line, one per grace period
		# the writer waited for; the results page plots the same number over time.
		gps=- rate=-
		# locktorture's acquisitions and scftorture's handler invocations (Linux's
		# kvm-recheck-lock.sh, kvm-recheck-scf.sh), the same way.
		if { [ "$torture" = rcu ] || [ "$torture" = lock ] || [ "$torture" = scf ]; } && [ -f "$d/console.log" ]; then
			st=$("$parse" --stats "$d/console.log")
			# locktorture: lock acquisitions instead (Linux's kvm-recheck-lock.sh's count).
			if [ "$torture" = lock ]; then g=$(sed -n 's/^writes=//p' <<<"$st"); else
				g=$(sed -n 's/^ver=//p' <<<"$st"); fi
			up=$(sed -n 's/^uptime=//p' <<<"$st")
			if [ -n "$g" ]; then
				gps=$g
				[ -z "$up" ] || rate=$(awk -v n="$gps" -v t="$up" 'BEGIN { printf "%.1f", (t > 0 ? n / t : 0) }')
			fi
		fi
		cpus=$(cat "$d/cpus" 2>/dev/null) || cpus=$(sed -n 's/^CONFIG_NR_CPUS=//p' "$d/.config" 2>/dev/null)
		printf '%-16s %-5s %-8s %-11s %-8s %-8s %s\n' "$(basename "$d")" "${cpus:--}" \
			"$exp" "$(exit_word "$(cat "$d/qemu.rc" 2>/dev/null || echo -)")" "$gps" "$rate" "$v"
		if [[ $v != PASS* ]] && [ -s "$d/console.log.diags" ]; then
			offending+=("$(basename "$d"): $(sed -n '2p' "$d/console.log.diags")")
		fi
	done
	for o in "${offending[@]}"; do echo "  first offending console line of $o"; done
}
