# shellcheck shell=bash
# tests/boot/44-kvm-tools.sh - the rcutorture scripts a Linux RCU hacker types, on the host only
# (no QEMU): kvm.sh's Linux options through --dryrun (and the words for those not implemented),
# parse-console.sh FILE TITLE and console-badness.sh on canned consoles, kvm-find-errors.sh,
# kvm-end-run-stats.sh and kvm-again.sh on a fabricated run directory, config2csv.sh on two
# fragments (Linux's CSV, byte for byte), and the results page: its GPs column is the number its
# plot ends at (tests/fixtures/torture/TREE02-stat3.console.log); locktorture's kvm.sh, torture.sh
# and parse-console.sh parts. A few seconds.
# Sourced by tests/run-all.sh with tests/lib.sh loaded.

KT_BIN=$TESTS_ROOT/tools/testing/rcutorture/bin
KT_RES=$LOGDIR/kvm-tools-res

# kt_has OUT REGEX...: each extended REGEX matches a line of OUT (the failing one is printed).
kt_has() {
	local out=$1 re
	shift
	for re in "$@"; do grep -qE -- "$re" <<<"$out" || { echo "MISSING: $re"; return 1; }; done
}

kvm_linux_options() {
	local out
	out=$("$KT_BIN/kvm.sh" --dryrun --allcpus --configs TREE02 --configs "2*TREE04" --duration 30s \
		--defconfig debug_defconfig --memory 512M --kconfig CONFIG_NR_CPUS=3 --kconfig "CONFIG_RCU_EXPERT=y" \
		--bootargs "a=1" --bootarg "b=2" --shutdown-grace 7 --trust-make --kmake-arg "V=0" \
		--results "$KT_RES" --datestamp tools-dry 2>&1) || return 1
	echo "$out"
	kt_has "$out" "^kvm.sh: 3 guest\(s\) of rcu for 30s each, --cpus $(nproc)," \
		"^kvm.sh: results in $KT_RES/tools-dry$" \
		"^kvm.sh: --trust-make: kernels kept in $KT_RES/build-cache/" \
		'^dryrun: TREE02: build .*\(debug_defconfig \+ CFcommon \+ TREE02 \+ --kconfig\), boot -smp 3 --accel tcg --mem 512M, expect success' \
		'^dryrun: TREE02: cmdline: .* rcutorture.stat_interval=3 rcutorture.shutdown_secs=30 .* a=1 b=2$' || return 1
	# Decided once (scenario.sh: rcu_boot_defaults): one stat_interval= per command line.
	[ "$(grep '^dryrun: TREE02: cmdline:' <<<"$out" | head -1 | grep -o 'stat_interval=' | wc -l)" = 1 ] || return 1
	[ "$(grep -c '^dryrun: TREE04: build' <<<"$out")" = 2 ] || return 1
	# A scenario (SRCU01.boot) or --bootargs that sets stat_interval keeps it; long runs get 15.
	out=$("$KT_BIN/kvm.sh" --dryrun --configs "SRCU01 TREE02" --duration 1d --results "$KT_RES" 2>&1) || return 1
	echo "$out"
	kt_has "$out" '^dryrun: TREE02: cmdline: .*rcutorture.stat_interval=15 rcutorture.shutdown_secs=86400 ' || return 1
	[ "$(grep '^dryrun: SRCU01: cmdline:' <<<"$out" | grep -o 'stat_interval=[0-9]*')" = stat_interval=5 ] || return 1
	out=$("$KT_BIN/kvm.sh" --dryrun --configs TREE02 --bootargs rcutorture.stat_interval=2 --results "$KT_RES") || return 1
	[ "$(grep '^dryrun: TREE02: cmdline:' <<<"$out" | grep -o 'stat_interval=[0-9]*')" = stat_interval=2 ] || return 1
	# CFLIST in --configs, --cpus 0, --gdb with one scenario, Linux's names of the perf suites.
	out=$("$KT_BIN/kvm.sh" --dryrun --configs "CFLIST BUSTED" --cpus 0 --results "$KT_RES" 2>&1) || return 1
	# Every CFLIST scenario but those marked not runnable in this kernel, and BUSTED once more.
	local runnable=0 c
	for c in $(grep -v '^#' "$KT_BIN/../configs/rcu/CFLIST"); do
		grep -q '^# kvm.sh: not runnable:' "$KT_BIN/../configs/rcu/$c" || runnable=$((runnable + 1))
	done
	[ "$(grep -c '^dryrun: .*: build' <<<"$out")" = $((runnable + 1)) ] || return 1
	kt_has "$("$KT_BIN/kvm.sh" --dryrun --gdb --configs FQS01 --results "$KT_RES")" 'boot -smp 4 --accel tcg --gdb,' || return 1
	kt_has "$("$KT_BIN/kvm.sh" --dryrun --torture rcuscale --results "$KT_RES")" \
		'^kvm.sh: 2 guest\(s\) of rcuscale' '^dryrun: TREE: cmdline: rcuscale.perf_runnable=1 ' '^dryrun: TREE54: build ' || return 1
	kt_has "$("$KT_BIN/kvm.sh" --dryrun --torture refscale --duration 45s --results "$KT_RES")" \
		'^dryrun: NOPREEMPT: cmdline: refscale.scale_runnable=1 .*shutdown_secs=45' '^dryrun: PREEMPT: build ' || return 1
	kt_has "$("$KT_BIN/kvm.sh" --dryrun --torture rcuscale --configs TINY --results "$KT_RES")" '^dryrun: TINY: build .*boot -smp 1 ' || return 1
	# scftorture: Linux's configs/scf and its ver_functions.sh defaults (hotplug: defconfig has it).
	kt_has "$("$KT_BIN/kvm.sh" --dryrun --torture scf --duration 45s --results "$KT_RES")" \
		'^kvm.sh: 2 guest\(s\) of scf for 45s' \
		'^dryrun: NOPREEMPT: cmdline: shutdown_secs=[0-9]+ scftorture.onoff_interval=1000 scftorture.onoff_holdoff=30 scftorture.stat_interval=3 scftorture.shutdown_secs=45 scftorture.verbose=1 nohz_full=1' \
		'^dryrun: PREEMPT: build ' || return 1
	kt_has "$("$KT_BIN/kvm.sh" --dryrun --torture scf --configs PREEMPT --bootargs scftorture.onoff_interval=0 --results "$KT_RES")" \
		'^dryrun: PREEMPT: cmdline: shutdown_secs=[0-9]+ scftorture.stat_interval=4 scftorture.shutdown_secs=60 scftorture.verbose=1 scftorture.onoff_interval=0' || return 1
	kt_has "$("$KT_BIN/torture.sh" --dryrun --do-scftorture --do-no-rcutorture --duration 30s --cpus 2 --results "$KT_RES")" \
		'^torture.sh: kvm.sh --torture scf --configs NOPREEMPT\\ PREEMPT --duration 30s ' || return 1
	kt_has "$("$KT_BIN/kvm.sh" --dryrun sched --configs TREE02 --results "$KT_RES")" \
		'^kvm.sh: --dryrun sched: Linux option not implemented here' '^dryrun: TREE02: build' || return 1
	# Linux 6.1's kvm.sh's other options: accepted, or refused as not implemented (exit 2).
	"$KT_BIN/kvm.sh" --dryrun --no-initrd --no-affinity --remote --debug-info --configs TREE02 --results "$KT_RES" >/dev/null || return 1
	local o
	for o in "--mac 00:11:22:33:44:55" "--bootimage arch/x86/boot/bzImage" --interactive "--torture XFOO"; do
		# shellcheck disable=SC2086 # option and value
		out=$("$KT_BIN/kvm.sh" $o --dryrun 2>&1)
		[ $? = 2 ] && kt_has "$out" "^kvm.sh: ${o% *}.*: Linux option not implemented here \(.+\)$" || return 1
	done
	out=$("$KT_BIN/kvm.sh" --no-such-option 2>&1)
	[ $? = 2 ] && kt_has "$out" "unknown option '--no-such-option'" || return 1
	out=$("$KT_BIN/kvm.sh" --dryrun --gdb --configs "TREE02 TREE04" 2>&1)
	[ $? = 2 ] && kt_has "$out" '^kvm.sh: --gdb: only one scenario' || return 1
	for o in "--kconfig CONFIG_X=yes" "--memory 1T" "--defconfig nosuch_defconfig" "--jitter x" "--shutdown-grace -1"; do
		# shellcheck disable=SC2086 # option and value
		"$KT_BIN/kvm.sh" --dryrun $o >/dev/null 2>&1
		[ $? = 2 ] || { echo "not refused: $o"; return 1; }
	done
	kt_has "$("$KT_BIN/kvm.sh" --help)" '--allcpus' '--defconfig NAME' '--gdb' '--memory SIZE' '--remote' \
		'--shutdown-grace N' '--trust-make' '--torture rcu\|lock\|rcuperf\|rcuscale\|refscale\|scf'
}
run_cmd_test kvm-linux-options kvm_linux_options

# locktorture's tools (kvm.sh --torture lock, torture.sh --do-locktorture, parse-console.sh
# --torture lock): Linux's boot defaults from configs/lock/ver_functions.sh (hotplug every 3 s
# after 30 s unless --bootargs sets locktorture.onoff_*), the scenarios of lock types this kernel
# lacks reported, not run; a lock_busted console judged caught, a spin_lock one passed, neither
# the other way round (tests/fixtures/torture/LOCK-BUSTED and LOCK01.console.log, trimmed from
# tests/boot/41-locktorture.sh's guests).
kvm_locktorture_tools() {
	local out fx=$TESTS_ROOT/tests/fixtures/torture
	out=$("$KT_BIN/kvm.sh" --dryrun --torture lock --configs "CFLIST BUSTED" --duration 45s --results "$KT_RES" 2>&1) || return 1
	echo "$out"
	kt_has "$out" '^kvm.sh: LOCK03: not runnable in this kernel: rwsem_lock needs' \
		'^kvm.sh: LOCK07: not runnable in this kernel: ww_mutex_lock needs' \
		'^kvm.sh: 4 guest\(s\) of lock for 45s each' '^dryrun: LOCK01: build .* boot -smp 8 ' \
		'^dryrun: LOCK05: cmdline: shutdown_secs=[0-9]+ locktorture.onoff_interval=3 locktorture.onoff_holdoff=30 locktorture.stat_interval=3 locktorture.shutdown_secs=45 .*locktorture.torture_type=rtmutex_lock *$' \
		'^dryrun: BUSTED: build .*expect busted$' || return 1
	out=$("$KT_BIN/kvm.sh" --dryrun --torture lock --configs LOCK02 --bootargs locktorture.onoff_interval=0 --results "$KT_RES" 2>&1) || return 1
	kt_has "$out" '^dryrun: LOCK02: cmdline: .*locktorture.onoff_interval=0' || return 1
	grep -q 'onoff_interval=3' <<<"$out" && return 1
	out=$("$KT_BIN/torture.sh" --do-no-rcutorture --do-locktorture --configs-locktorture LOCK05 --duration 1 --dryrun --results "$KT_RES" 2>&1) || return 1
	kt_has "$out" '^torture.sh: 1 kvm.sh call' '^torture.sh: kvm.sh --torture lock --configs LOCK05 --duration 60s ' || return 1
	kt_has "$("$KT_BIN/parse-console.sh" --torture lock --expect busted "$fx/LOCK-BUSTED.console.log")" \
		'^PASS \(expected failure\): lock_busted caught: 3 statistics lines with Fail: 1 \(!!!\)$' || return 1
	kt_has "$("$KT_BIN/parse-console.sh" --torture lock "$fx/LOCK01.console.log")" '^PASS \(expected success\)$' || return 1
	kt_has "$("$KT_BIN/parse-console.sh" --torture lock "$fx/LOCK-BUSTED.console.log")" '^FAIL .*no End of test: SUCCESS line' || return 1
	kt_has "$("$KT_BIN/parse-console.sh" --torture lock --expect busted "$fx/LOCK01.console.log")" '^FAIL .*not lock_busted caught' || return 1
	kt_has "$("$KT_BIN/parse-console.sh" --stats "$fx/LOCK01.console.log")" '^writes=[1-9][0-9]*$' || return 1
}
run_cmd_test kvm-locktorture-tools kvm_locktorture_tools

# parse-console.sh FILE TITLE (Linux's form) and console-badness.sh.
kvm_parse_linux() {
	local d out rc
	d=$(mktemp -d "${TMPDIR:-/tmp}/pcl.XXXXXX")
	cp "$TESTS_ROOT/tests/fixtures/torture/TREE02.console.log" "$d/ok.log"
	out=$(TORTURE_SUITE=rcu "$KT_BIN/parse-console.sh" "$d/ok.log" TREE02); rc=$?
	echo "ok: rc=$rc [$out]"
	[ $rc = 0 ] && [ -z "$out" ] && [ ! -e "$d/ok.log.diags" ] || return 1
	printf '[ 1.0] rcu-torture: rtc: 0x1 ver: 5 tfle: 0\n[ 4.0] rcu-torture: rtc: 0x2 ver: 5 tfle: 0\n[ 5.0] WARNING: CPU: 1 PID: 9 at kernel/x.c:1 f+0x1/0x2\n[ 5.1] Call Trace:\n[ 6.0] BUG: KCSAN: data-race in a / b\n' >"$d/hang.log"
	out=$(TORTURE_SUITE=rcu "$KT_BIN/parse-console.sh" "$d/hang.log" HANG); rc=$?
	echo "hang: rc=$rc"; echo "$out"; cat "$d/hang.log.diags"
	[ $rc = 1 ] && [ "$out" = "HANG no success message, 2 successful version messages
WARNING: HANG GP HANG at 5 torture stat 2
WARNING: Assertion failure in $d/hang.log HANG
WARNING: Summary: Warnings: 1 Bugs: 1 (all bugs kcsan) Call Traces: 1" ] || return 1
	kt_has "$(cat "$d/hang.log.diags")" '^HANG no success message' '^\[ 5.0\] WARNING: CPU' '^\[ 5.1\] Call Trace:' '^\[ 6.0\] BUG: KCSAN' || return 1
	printf '[ 1.0] busted-torture: rtc: 0x1 ver: 9\n[ 1.0] busted-torture: !!! Reader Pipe:  900 40 7 2 0 0 0 0 0 0 0\n[ 1.1] busted-torture:--- End of test: FAILURE: nreaders=1\n' >"$d/busted.log"
	out=$(TORTURE_SUITE=rcu "$KT_BIN/parse-console.sh" "$d/busted.log" BUSTED)
	echo "$out"
	[ "$(head -1 <<<"$out")" = "BUG: BUSTED FAILURE, 9 instances" ] || return 1
	# The perf suites are not asked for rcutorture's end of test.
	printf '[ 1.0] ref-scale: --- Start of test\n' >"$d/ref.log"
	out=$(TORTURE_SUITE=refscale "$KT_BIN/parse-console.sh" "$d/ref.log" R) && [ -z "$out" ] || return 1
	kt_has "$("$KT_BIN/parse-console.sh" "$d/nosuch.log" T)" "^T unreadable console output file: $d/nosuch.log$" &&
		kt_has "$("$KT_BIN/parse-console.sh" --help)" 'parse-console.sh FILE TITLE' || return 1
	# The older forms still judge (one argument; options).
	kt_has "$("$KT_BIN/parse-console.sh" "$d/ok.log")" '^PASS \(expected success\)$' &&
		kt_has "$("$KT_BIN/parse-console.sh" --stats "$d/ok.log")" '^ver=537$' || return 1
	# scftorture: its handler invocations are the ver of --stats; its verdict line is judged as rcutorture's.
	printf '[ 1.0] scftorture:  scf_invoked_count ver: 12 resched: 1\n[ 2.0] scftorture:  scf_invoked_count VER: 345 resched: 2\n[ 2.1] scftorture: --- End of test: SUCCESS:  verbose=1\n' >"$d/scf.log"
	kt_has "$("$KT_BIN/parse-console.sh" --stats "$d/scf.log")" '^ver=345$' &&
		kt_has "$("$KT_BIN/parse-console.sh" --torture scf "$d/scf.log")" '^PASS \(expected success\)$' || return 1
	out=$("$KT_BIN/console-badness.sh" <"$d/hang.log")
	[ "$(wc -l <<<"$out")" = 3 ] || return 1
	out=$(printf 'Warning: unable to open an initial console.\n[ 1.0] rcu: INFO: rcu_tasks detected stalls on tasks:\n[ 2.0] ??? Writer stall state RTWS_SYNC(4) g10 f0x0\n' |
		"$KT_BIN/console-badness.sh")
	[ "$(wc -l <<<"$out")" = 2 ] || return 1
	rm -rf "$d"
}
run_cmd_test kvm-parse-console-linux kvm_parse_linux

# A fabricated two-guest run directory: TREE02 passed (a real console), TREE04 failed (canned).
kt_fake_run() { # DIR
	local r=$1
	mkdir -p "$r/TREE02" "$r/TREE04" "$r/build/TREE02" "$r/build/TREE04"
	echo rcu >"$r/torture"; echo tcg >"$r/accel"; : >"$r/qemu_args"; : >"$r/memory"
	echo 20 >"$r/duration"; echo 60 >"$r/grace"; echo "kvm.sh --configs TREE02 TREE04" >"$r/log"
	cp "$TESTS_ROOT/tests/fixtures/torture/TREE02-stat3.console.log" "$r/TREE02/console.log"
	printf '[ 1.0] rcu-torture: rtc: 0x1 ver: 3 tfle: 0\n[ 2.0] BUG: scheduling while atomic: x/1/0x1\n' >"$r/TREE04/console.log"
	local g
	for g in TREE02 TREE04; do
		echo $g >"$r/$g/scenario"; echo 4 >"$r/$g/cpus"; echo success >"$r/$g/expect"; echo 0 >"$r/$g/qemu.rc"
		echo "rcutorture.torture_runnable=1 rcutorture.shutdown_secs=20 shutdown_secs=50 rcutorture.stat_interval=3" >"$r/$g/bootargs"
		echo "fake kernel $g" >"$r/build/$g/kernel.elf"
		echo "CONFIG_NR_CPUS=4" >"$r/$g/.config"
	done
	printf 'CC kernel/a.o\nkernel/b.c:3:1: warning: unused variable x\n' >"$r/build/TREE04/build.log"
	printf '%s\n' "CC kernel/a.o" "$r/build/TREE02/.config:90: warning: NR_CPUS (defined at arch/x86_64/Kconfig:40) set more than once. Old value \"64\", new value \"4\"." >"$r/build/TREE02/build.log"
	"$KT_BIN/kvm-recheck.sh" "$r" >/dev/null
}

kvm_find_errors_end_stats() {
	local r out rc
	r=$(mktemp -d "${TMPDIR:-/tmp}/kfe.XXXXXX")/run
	kt_fake_run "$r"
	out=$(EDITOR=echo "$KT_BIN/kvm-find-errors.sh" "$r"); rc=$?
	echo "rc=$rc"; echo "$out"
	[ $rc = 1 ] && [ "$out" = "$r/build/TREE04/build.log.diags $r/build/TREE04/build.log
$r/TREE04/console.log.diags $r/TREE04/console.log" ] || return 1
	grep -qx 'kernel/b.c:3:1: warning: unused variable x' "$r/build/TREE04/build.log.diags" || return 1
	rm -f "$r/TREE04/console.log.diags" "$r/build/TREE04/build.log"
	out=$(EDITOR=false "$KT_BIN/kvm-find-errors.sh" "$r"); rc=$?
	echo "$out"
	[ $rc = 0 ] && [ "$out" = "No build errors.
No errors in console logs." ] || return 1
	kt_has "$("$KT_BIN/kvm-find-errors.sh" "$r/nosuch")" "^Directory $r/nosuch not found.$" || return 1
	out=$("$KT_BIN/kvm-end-run-stats.sh" "$r" $(($(date +%s) - 75))); rc=$?
	echo "rc=$rc"; echo "$out"
	[ $rc = 1 ] && kt_has "$out" '^ --- .* Test summary:$' "^Results directory: $r$" '^TREE02 +4 +success' \
		'^ --- Done at .* \(1:[0-9]{2}\.0\) exitcode 1$' && grep -q 'exitcode 1' "$r/log" || return 1
	rm -rf "$(dirname "$r")"
}
run_cmd_test kvm-find-errors-end-run-stats kvm_find_errors_end_stats

# The results page's GPs (and kvm.sh's table's) are the last point of the page's plot.
kvm_html_gps() {
	local r gps last row
	r=$(mktemp -d "${TMPDIR:-/tmp}/khg.XXXXXX")/run
	kt_fake_run "$r"
	gps=$("$KT_BIN/kvm-recheck.sh" "$r" | awk '$1 == "TREE02" { print $5 }')
	row=$(grep 'id="guest-TREE02"' "$r/index.html")
	last=$(tail -1 "$r/TREE02/stats.dat" | awk '{ print $2 }')
	echo "table GPS=$gps plot's last=$last samples=$(grep -vc '^#' "$r/TREE02/stats.dat")"; echo "$row"
	[ "$gps" = 275 ] && [ "$last" = 275 ] && grep -q '<td class="num">275</td><td class="num">[0-9]*</td>' <<<"$row" &&
		[ "$(grep -vc '^#' "$r/TREE02/stats.dat")" -ge 5 ] || return 1
	rm -rf "$(dirname "$r")"
}
run_cmd_test kvm-html-gps kvm_html_gps

kvm_again() {
	local r out n
	r=$(mktemp -d "${TMPDIR:-/tmp}/kag.XXXXXX")/run
	kt_fake_run "$r"
	out=$("$KT_BIN/kvm-again.sh" "$r" --dryrun --duration 2m --bootargs "x=1") || return 1
	echo "$out"
	kt_has "$out" '^dryrun: TREE02: boot build/TREE02/kernel.elf -smp 4 --accel tcg, expect success' \
		'^dryrun: TREE02: cmdline: rcutorture.torture_runnable=1 rcutorture.shutdown_secs=120 shutdown_secs=150 rcutorture.stat_interval=3 x=1$' || return 1
	n=$(dirname "$r")/again
	"$KT_BIN/kvm-again.sh" "$r" --remote --link hard --rundir "$n" --bootargs "y=2" || return 1
	kt_has "$(cat "$n/guests")" '^TREE02$' '^TREE04$' &&
		grep -qF -- '--append rcutorture.torture_runnable=1\ rcutorture.shutdown_secs=20\ shutdown_secs=50\ rcutorture.stat_interval=3\ y=2 --timeout 80 ' "$n/TREE02/job.sh" &&
		[ "$(stat -c %i "$n/TREE02/kernel.elf")" = "$(stat -c %i "$r/build/TREE02/kernel.elf")" ] &&
		[ "$(cat "$n/timeout")" = 80 ] && [ ! -e "$n/TREE02/console.log" ] && [ -f "$r/TREE02/console.log" ] &&
		grep -q 'y=2' "$n/TREE02/bootargs" && ! grep -q 'y=2' "$r/TREE02/bootargs" || return 1
	# kvm-remote.sh --reuse's copy step takes such a directory (kernels in the guest directories).
	local KVM reuse m
	KVM=$(cd "$KT_BIN/.." && pwd -P) reuse=$n
	eval "$(sed -n '/^reuse_rundir() {/,/^}/p' "$KT_BIN/kvm-remote.sh")"
	m=$(reuse_rundir) && cmp "$m/TREE04/kernel.elf" "$r/build/TREE04/kernel.elf" && [ -f "$m/TREE04/job.sh" ] || return 1
	kt_has "$("$KT_BIN/kvm-again.sh" "$r" --remote --rundir "$n" 2>&1)" 'Already exists' &&
		"$KT_BIN/kvm-again.sh" "$r" --link inplace --dryrun >/dev/null &&
		kt_has "$("$KT_BIN/kvm-again.sh" "$r" --link inplace --remote 2>&1)" 'already ran' || return 1
	rm -rf "$(dirname "$r")"
}
run_cmd_test kvm-again kvm_again

# config2csv.sh: Linux's CSV of two scenarios (values from the fragments and .boot files).
kvm_config2csv() {
	local d
	d=$(mktemp -d "${TMPDIR:-/tmp}/c2c.XXXXXX")
	printf 'CONFIG_SMP=y\nCONFIG_NR_CPUS=8\n# CONFIG_X is not set\n\n' >"$d/B1"
	printf 'CONFIG_NR_CPUS=4\nCONFIG_PREEMPT=y\n' >"$d/A2"
	printf '# a comment = x\nrcutorture.onoff_interval=20  nohz_full=1-3\nnopv\n' >"$d/A2.boot"
	printf 'A2\nB1\n' >"$d/CFLIST"
	(cd "$d" && "$KT_BIN/config2csv.sh" out.csv B1 A2) || return 1
	cat "$d/out.csv"
	[ "$(cat "$d/out.csv")" = ',"A2","B1"
"CONFIG_NR_CPUS","4","8"
"CONFIG_PREEMPT","y",""
"CONFIG_SMP","","y"
"nohz_full","1-3",""
"nopv","?",""
"rcutorture.onoff_interval","20",""' ] || return 1
	(cd "$d" && "$KT_BIN/config2csv.sh" all.csv) && cmp "$d/out.csv" "$d/all.csv" || return 1
	(cd "$d" && "$KT_BIN/config2csv.sh" c.csv CFLIST) && cmp "$d/out.csv" "$d/c.csv" || return 1
	kt_has "$(cd "$d" && "$KT_BIN/config2csv.sh")" '^Need .csv output file as first argument.$' || return 1
	rm -rf "$d"
}
run_cmd_test kvm-config2csv kvm_config2csv
