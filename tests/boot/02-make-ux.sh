# shellcheck shell=bash
# tests/boot/02-make-ux.sh - what a first-time user meets before any test boots: make help, make
# run's argument checks, menuconfig in a fresh build directory, quitting an interactive guest.
#   make-help                 lists every arch/x86_64/configs/*defconfig, the make variables and
#                             the torture runner (kvm.sh)
#   make-run-bad-smp          make run SMP=0 / SMP=x fails before building, naming SMP=
#   make-mixed-goals          make O=<fresh dir> tiny_defconfig all in one command builds the Tiny
#                             kernel (the object list follows the .config the first goal writes)
#   make-menuconfig-fresh     make O=<fresh dir> menuconfig, quit at once (Esc Esc): starts from the
#                             arch defconfig (no "(NEW)" symbols), leaves a .config, no traceback
#   qemu-run-quit             an interactive guest (a terminal from script(1)) quit with Ctrl-A X:
#                             the "how to quit" line first, exit status 0 (a person quitting is
#                             not a failure)
# menuconfig and the quit need script(1) (util-linux) for a terminal. About 40 s (the Tiny build).

ux_make_help() {
	local out f
	out=$(make -C "$TESTS_ROOT" help) || return 1
	echo "$out"
	for f in "$TESTS_ROOT"/arch/x86_64/configs/*defconfig; do
		grep -q "^  $(basename "$f") " <<<"$out" || { echo "make help does not list $(basename "$f")"; return 1; }
	done
	grep -q "SMP=N" <<<"$out" && grep -q "CMDLINE=" <<<"$out" && grep -q "ACCEL=" <<<"$out" &&
		grep -q "kvm.sh" <<<"$out" && grep -q "Ctrl-A X quits" <<<"$out"
}
run_cmd_test make-help ux_make_help

ux_bad_smp() {
	local v out
	for v in 0 x 256; do
		if out=$(make -C "$TESTS_ROOT" O="$LOGDIR/ux-nobuild" run SMP=$v 2>&1); then
			echo "make run SMP=$v succeeded"; return 1
		fi
		echo "$out"
		grep -q "make run: SMP=$v: " <<<"$out" || return 1
	done
	[ ! -e "$LOGDIR/ux-nobuild/kernel.elf" ]	# failed before building anything
}
run_cmd_test make-run-bad-smp ux_bad_smp

ux_mixed_goals() {
	local d=$LOGDIR/ux-mixed
	rm -rf "$d"
	make -C "$TESTS_ROOT" O="$d" tiny_defconfig all -j2 || return 1
	grep -qx "CONFIG_TINY_RCU=y" "$d/.config" && [ -s "$d/kernel.elf" ] &&
		nm "$d/kernel.elf" >"$d/nm.txt" && grep -q " rcu_tiny_kthread$" "$d/nm.txt"
}
run_cmd_test make-mixed-goals ux_mixed_goals

ux_menuconfig_fresh() {
	local d=$LOGDIR/ux-menuconfig out
	rm -rf "$d"
	command -v script >/dev/null || { echo "script(1) missing"; return 1; }
	# The key feeder ignores SIGPIPE (menuconfig may be gone before the second Esc Esc): under
	# run-all.sh's pipefail its death would fail the pipeline.
	out=$( (trap '' PIPE; sleep 3; printf '\033\033'; sleep 2; printf '\033\033' 2>/dev/null; true) |
		TERM=xterm timeout 60 script -qec "make -C '$TESTS_ROOT' O='$d' menuconfig" /dev/null 2>&1) ||
		{ echo "$out" | tr -d '\033' | tail -20; echo "menuconfig failed"; return 1; }
	echo "$out" | tr -d '\033' | grep -a "kconfig:" || true
	grep -aq "starting from arch/x86_64/configs/defconfig" <<<"$out" &&
		! grep -aq "Traceback\|Error [0-9]\|(NEW)" <<<"$out" &&
		[ -s "$d/.config" ] && grep -q "^CONFIG_TREE_RCU=y" "$d/.config" &&
		[ -s "$d/include/generated/autoconf.h" ]
}
run_cmd_test make-menuconfig-fresh ux_menuconfig_fresh

ux_quit() {
	local out rc=0
	out=$( (trap '' PIPE; sleep 4; printf '\001x' 2>/dev/null; true) |
		timeout 60 script -qec "'$TESTS_ROOT/scripts/qemu-run.sh' --kernel '$KERNEL' --smp 1" /dev/null 2>&1) ||
		rc=$?
	tr -d '\r' <<<"$out" | grep -a "qemu-run"
	[ "$rc" = 0 ] &&
		tr -d '\r' <<<"$out" | grep -aq "qemu-run: the guest's console follows; Ctrl-A X quits" &&
		tr -d '\r' <<<"$out" | grep -aq "qemu-run: exit 0 (quit from the console"
}
run_cmd_test qemu-run-quit ux_quit
