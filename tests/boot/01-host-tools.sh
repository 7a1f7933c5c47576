# shellcheck shell=bash
# tests/boot/01-host-tools.sh - the host-side tools a newcomer meets first, without QEMU:
#   scripts-config            scripts/config (as Linux's) on a defconfig .config: --enable,
#                             --disable, --set-val, --set-str with quotes, --state (y, n, a value,
#                             a string, undef), --undefine, -E/-D placement, --keep-case,
#                             --module refused, --refresh (olddefconfig drops an option whose
#                             dependency was disabled)
#   qemu-run-no-terminated    20 runs of scripts/qemu-run.sh with a stand-in QEMU that powers off
#                             at once: no "Terminated" line from stopping the overrun watchdog
#   torture-estimate          torture.sh --dryrun --cpus 2 on TREE01 TREE02 (20 min) and TINY01
#                             TINY02 (10 min, one vCPU each, so in one round): "about 0h50m0s",
#                             not the sum of the two durations
#   run-all-filter-quiet      tests/run-all.sh --filter RE over two boot files, RE matching none
#                             of their tests: it names neither file (nor their times)
#   gitignore-build-dirs      the build directories the README suggests (O=build) are git-ignored
#   doc-paths-exist           every Documentation/*.md path that a Kconfig help, README.md or a
#                             Documentation page names exists (the NO_HZ_FULL help named a
#                             missing Documentation/timers/no_hz_full.md)
#   make-help-one-test        make help says how long make check takes and how to run one test
#                             (TEST_FILTER, SKIP_HOST), and names scripts/config
#   contracts-planted         scripts/check-contracts.sh passes on the tree and fails, naming the
#                             file, on a scratch copy with one planted violation of each rule:
#                             <asm/...> in generic code, a kernel/ header in lib/, a weak symbol,
#                             a test-only file's parameter not marked KPARAM_TEST and a
#                             declaration scripts/kparams.py cannot read (rule 4), tree.h in a
#                             header or a test built for every flavor, the 8250 driver named by
#                             printk, a *_selftest.c file in a test/ folder; and rule 4's other
#                             half: the list names a parameter no KPARAM declares
# About 6 s.

# host_scripts_config: CMD... run on a scratch copy; each check names what it expected.
host_scripts_config() {
	local d=$LOGDIR/scripts-config cfg C=$TESTS_ROOT/scripts/config st
	rm -rf "$d"
	make -s -C "$TESTS_ROOT" O="$d" defconfig >/dev/null || return 1
	cfg=$d/.config
	expect_state() {	# OPTION WANTED
		st=$("$C" --file "$cfg" --state "$1") || { echo "--state $1 failed"; return 1; }
		[ "$st" = "$2" ] || { echo "--state $1: '$st', expected '$2'"; return 1; }
		echo "--state $1: $st"
	}
	expect_state SMP y && expect_state CONFIG_NR_CPUS "$(sed -n 's/^CONFIG_NR_CPUS=//p' "$cfg")" &&
		expect_state NO_SUCH_OPTION undef || return 1
	"$C" --file "$cfg" -e rcu_expert --set-val NR_CPUS 8 --set-str CMDLINE 'a "b" c' -d SMP \
		-E SMP NEW_ON -D NR_CPUS NEW_OFF -k -e lower_case || return 1
	expect_state RCU_EXPERT y && expect_state NR_CPUS 8 && expect_state CMDLINE 'a "b" c' &&
		expect_state SMP n && expect_state NEW_ON y && expect_state NEW_OFF n || return 1
	grep -qx 'CONFIG_CMDLINE="a \\"b\\" c"' "$cfg" || { echo "--set-str: $(grep CMDLINE= "$cfg")"; return 1; }
	grep -qx 'CONFIG_lower_case=y' "$cfg" || { echo "--keep-case: no CONFIG_lower_case=y"; return 1; }
	# In place: SMP's line, then -E's new line right after it; NR_CPUS, then NEW_OFF.
	if ! grep -A1 -x '# CONFIG_SMP is not set' "$cfg" | grep -qx CONFIG_NEW_ON=y ||
		! grep -A1 -x CONFIG_NR_CPUS=8 "$cfg" | grep -qx '# CONFIG_NEW_OFF is not set'; then
		echo "-E/-D did not place the new lines after their BEFOREOPT"
		return 1
	fi
	[ "$(grep -c 'CONFIG_SMP[ =]' "$cfg")" = 1 ] || { echo "two CONFIG_SMP lines"; return 1; }
	"$C" --file "$cfg" -u NEW_ON -u NEW_OFF -u lower_case && expect_state NEW_ON undef || return 1
	if "$C" --file "$cfg" -m RCU_TORTURE_TEST 2>"$d/m.err"; then echo "--module accepted"; return 1; fi
	grep -q "no loadable modules" "$d/m.err" || { cat "$d/m.err"; return 1; }
	# SMP_INIT_DELAY_US depends on SMP: Kconfig drops it at --refresh.
	expect_state SMP_INIT_DELAY_US "$(sed -n 's/^CONFIG_SMP_INIT_DELAY_US=//p' "$cfg")" &&
		"$C" --file "$cfg" --refresh && expect_state SMP n && expect_state SMP_INIT_DELAY_US undef
}
run_cmd_test scripts-config host_scripts_config

host_qemu_run_no_terminated() {
	local d=$LOGDIR/qemu-run-fake n=0
	mkdir -p "$d"
	printf '#!/bin/sh\n# A stand-in QEMU: a clean power-off (raw status 33) at once.\nexit 33\n' >"$d/qemu"
	chmod +x "$d/qemu"
	: >"$d/kernel.elf"
	for _ in $(seq 20); do
		QEMU=$d/qemu QEMU_BIOS=$d/kernel.elf "$QEMU_RUN" --kernel "$d/kernel.elf" --timeout 30 \
			</dev/null >"$d/run.out" 2>&1
		grep -q 'qemu-run: exit 33 (clean power-off)' "$d/run.out" || { cat "$d/run.out"; return 1; }
		if grep -q Terminated "$d/run.out"; then n=$((n + 1)); cp "$d/run.out" "$d/terminated.out"; fi
	done
	echo "$n of 20 runs printed a Terminated line"
	[ "$n" = 0 ] || { cat "$d/terminated.out"; return 1; }
}
run_cmd_test qemu-run-no-terminated host_qemu_run_no_terminated

host_torture_estimate() {
	local out
	out=$("$TESTS_ROOT/tools/testing/rcutorture/bin/torture.sh" --cpus 2 --dryrun \
		--configs "TREE01 TREE02 TINY01 TINY02" --results "$LOGDIR/torture-estimate" 2>&1) ||
		{ echo "$out"; return 1; }
	head -n 1 <<<"$out"
	grep -q '^torture.sh: 2 kvm.sh call(s), torture time about 0h50m0s on 2 host CPUs' <<<"$out"
}
run_cmd_test torture-estimate host_torture_estimate

host_run_all_filter_quiet() {
	local out
	# A run of its own: none of this run's state (counters file, filter, logs) leaks into it.
	out=$(env -u TEST_STATE_FILE -u TEST_FILTER -u TEST_BUILD_CACHE LOGDIR="$LOGDIR/filter-quiet" \
		"$TESTS_ROOT/tests/run-all.sh" --skip-host --filter '^no-such-test$' \
		tests/boot/00-smoke.sh tests/boot/10-params.sh 2>&1) || { echo "$out"; return 1; }
	echo "$out"
	grep -qx '0 passed, 0 failed' <<<"$out" &&
		! grep -q '^# tests/boot/' <<<"$out"
}
run_cmd_test run-all-filter-quiet host_run_all_filter_quiet

host_gitignore_build_dirs() {
	local p
	git -C "$TESTS_ROOT" rev-parse --git-dir >/dev/null 2>&1 || { echo "not a git checkout: nothing to check"; return 0; }
	for p in build/kernel.elf build/.config build/kernel/rcu/tree.o build-tiny/kernel.elf \
		check-build/kernel.elf test-logs/x.log kernel.elf .config; do
		git -C "$TESTS_ROOT" check-ignore -q --no-index "$p" || { echo "$p is not git-ignored"; return 1; }
		echo "ignored: $p"
	done
}
run_cmd_test gitignore-build-dirs host_gitignore_build_dirs

host_make_help_one_test() {
	local out
	out=$(make -s -C "$TESTS_ROOT" help) || return 1
	grep -E "check .*min on 2 cores" <<<"$out" && grep "TEST_FILTER=" <<<"$out" &&
		grep "SKIP_HOST=1" <<<"$out" && grep "scripts/config" <<<"$out"
}
run_cmd_test make-help-one-test host_make_help_one_test

host_doc_paths_exist() {
	local f p status=0 files
	cd "$TESTS_ROOT" || return 1
	mapfile -t files < <(find . -name 'Kconfig*' -not -path './.git/*'; find Documentation -name '*.md')
	while IFS=: read -r f p; do
		[ -e "$p" ] || { echo "$f names $p, which does not exist"; status=1; }
	done < <(grep -oE 'Documentation/[A-Za-z0-9_/.-]+\.md' README.md tools/testing/rcutorture/README.md \
		"${files[@]}" | sort -u)
	return $status
}
run_cmd_test doc-paths-exist host_doc_paths_exist

# host_contracts_planted: each rule of the contract check fails on a violation planted in a copy.
host_contracts_planted() {
	local d rule f want out
	"$TESTS_ROOT/scripts/check-contracts.sh" || return 1
	# Outside the tree: a copy under test-logs/ (LOGDIR's default) would be inside the clone's
	# work tree, where git answers for the clone, and its sources would reach later builds.
	d=$(mktemp -d) || return 1
	# shellcheck disable=SC2064 # $d now
	trap "rm -rf '$d'" RETURN
	# One copy without .git (the check then finds sources with find(1)); each rule plants its
	# violation in one file and puts the tree's own file back afterwards.
	(cd "$TESTS_ROOT" && git ls-files -co --exclude-standard -- '*.[chS]' Kbuild '*/Kbuild' Kconfig \
		'*/Kconfig*' scripts |
		tar -cf - -T -) | tar -C "$d" -xf - || return 1
	for rule in asm lib weak param param-form treeh-header treeh-test console testname torture-name; do
		case $rule in
		asm) f=kernel/rcu/update.c want='kernel/rcu/update.c includes <asm/io.h>'
			echo '#include <asm/io.h>' >>"$d/$f" ;;
		lib) f=lib/sort.c want='lib/sort.c includes <sched/sched.h>'
			echo '#include <sched/sched.h>' >>"$d/$f" ;;
		weak) f=kernel/rcu/update.c want='kernel/rcu/update.c:.*(weak symbol)'
			echo 'void __attribute__((weak)) planted_hook(void) { }' >>"$d/$f" ;;
		param) f=kernel/rcu/test/rculist.c
			want="$f:[0-9]*: rcutree.planted_param is built only with CONFIG_KERNEL_TESTS but not marked"
			echo 'KPARAM_BOOL("rcutree.planted_param", planted, "planted");' >>"$d/$f" ;;
		param-form) f=kernel/rcu/tree_gp.c want="$f:[0-9]*: a KPARAM() declaration kparams.py cannot read"
			echo 'KPARAM(PLANTED_NAME, planted, KPARAM_INT, 0, 1, "planted");' >>"$d/$f" ;;
		treeh-header) f=kernel/rcu/test/common.h want="$f includes kernel/rcu/tree.h"
			sed -i 's|^#include "../rcu.h"$|#include "../tree.h"|' "$d/$f" ;;
		treeh-test) f=kernel/rcu/test/srcu.c want="$f includes kernel/rcu/tree.h"
			sed -i '1i #include "../tree.h"' "$d/$f" ;;
		console) f=kernel/printk/printk.c want="$f:.*(console driver serial8250_\\* named outside"
			echo 'void serial8250_putc(char c);' >>"$d/$f" ;;
		testname) f=kernel/rcu/test/planted_selftest.c want="$f: a file in a test/ folder is named after"
			echo '/* planted */' >"$d/$f" ;;
		torture-name) f=kernel/rcu/torture/rcutorture.h want="$f:.*extern int verbose;.*(an rcutorture extern"
			echo 'extern int verbose;' >>"$d/$f" ;;
		esac
		out=$(sh "$d/scripts/check-contracts.sh" 2>&1) && { echo "$rule: the check passed: $out"; return 1; }
		echo "$rule: $out"
		grep -q -- "$want" <<<"$out" || { echo "$rule: violation not named"; return 1; }
		if [ -e "$TESTS_ROOT/$f" ]; then cp "$TESTS_ROOT/$f" "$d/$f"; else rm "$d/$f"; fi || return 1
	done
}
run_cmd_test contracts-planted host_contracts_planted
