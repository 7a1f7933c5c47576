# shellcheck shell=bash
# tests/boot/64-kasan.sh - KASAN (CONFIG_KASAN, mm/kasan/): test_defconfig + CONFIG_KASAN=y, built
# in $LOGDIR/build-kasan, then:
#   kasan-selftest-smp4  the RCU and mm self-tests (rcutree.selftest=1 mm.selftest=1) on the
#                        instrumented kernel: all pass, no KASAN report
#   kasan-planted        kasan_test=all kasan_multi_shot: every planted bug (mm/kasan/kasan_test.c)
#                        gives its report with Linux's lines, and the kernel runs on to power-off
#   kasan-once           kasan_test=all without kasan_multi_shot: only the first report prints
#   kasan-fault-panic    kasan.fault=panic kasan_test=uaf: the report, then the panic
#   kasan-bad-param      kasan.fault=bogus kasan_test=bogus kasan.quarantine_size=2000000000: one
#                        warning each, nothing planted
# About 30 s of boots on 2 host cores, plus the build (about a minute and a half).
#
# Console lines relied on (mm/kasan/report.c, Linux 6.x wording):
#   "==================================================================" (before and after)
#   "BUG: KASAN: slab-use-after-free in FUNC+0xOFF/0xSIZE" (also slab-out-of-bounds, double-free,
#   invalid-free, global-out-of-bounds, use-after-free, stack-out-of-bounds), "Read of size N at addr ADDR by task
#   COMM/PID", "Write of size N ...", "Free of addr ADDR by task COMM/PID", "Allocated by task N:",
#   "Freed by task N:", "Last potentially related work creation:", "head:ADDR order:N" (a large
#   kmalloc block), "The buggy address belongs to the object at ADDR", " which belongs to the
#   cache kmalloc-N of size N", "The buggy address is located N bytes inside of", " freed N-byte
#   region [A, B)", "The buggy address belongs to the variable:", "Memory state around the buggy
#   address:", ">ADDR: fb fb ..."; "kasan_test: done, kernel still running" (kasan_test.c).

kasan_dir=$(cd "$LOGDIR" && pwd)/build-kasan
KASAN_BANNER_RE='^\[ *[0-9.]+\] ={66}$'
ADDR_RE='[0-9a-f]{16}'

kasan_wanted=0
for t in kasan-build kasan-selftest-smp4 kasan-planted kasan-once kasan-fault-panic kasan-bad-param; do
	_test_selected "$t" && kasan_wanted=1
done

# A planted bug's report in the console (CRs removed): "BUG: KASAN: TYPE in FUNC+0xOFF/0xSIZE".
kasan_has() { # CONSOLE TYPE FUNC
	grep -Eq "BUG: KASAN: $2 in $3\+0x[0-9a-f]+/0x[0-9a-f]+$" "$1"
}

kasan_planted_check() {
	local log=$LOGDIR/kasan-planted.console
	tr -d '\r' <"$LOGDIR/kasan-planted.log" >"$log" || return 1
	kasan_has "$log" slab-use-after-free kasan_uaf &&
		grep -Eq "Read of size 1 at addr $ADDR_RE by task kasan_test/[0-9]+$" "$log" &&
		grep -Eq "Allocated by task [0-9]+:$" "$log" &&
		grep -Eq "Freed by task [0-9]+:$" "$log" &&
		grep -Eq "^\[ *[0-9.]+\]  kasan_uaf\+0x[0-9a-f]+/0x[0-9a-f]+$" "$log" &&
		grep -Eq "The buggy address belongs to the object at $ADDR_RE$" "$log" &&
		grep -Eq " which belongs to the cache kmalloc-[0-9]+ of size [0-9]+$" "$log" &&
		grep -Eq "The buggy address is located 8 bytes inside of$" "$log" &&
		grep -Eq " freed 16-byte region \[$ADDR_RE, $ADDR_RE\)$" "$log" &&
		grep -Eq "Memory state around the buggy address:$" "$log" &&
		grep -Eq "\] >$ADDR_RE: fb fb fc" "$log" &&
		[ "$(grep -Ec "BUG: KASAN: slab-use-after-free in kasan_uaf_rcu\+" "$log")" = 2 ] &&
		grep -Eq "Read of size 4 at addr $ADDR_RE by task kasan_test/" "$log" &&
		grep -Eq "^\[ *[0-9.]+\]  rcu_(cpu_kthread|core|do_batch)[a-z_]*\+0x" "$log" &&
		grep -A1 "Last potentially related work creation:$" "$log" |
			grep -Eq "^\[ *[0-9.]+\]  kasan_uaf_rcu\+0x" &&
		kasan_has "$log" slab-out-of-bounds kasan_oob_read &&
		grep -Eq "The buggy address is located 0 bytes to the right of$" "$log" &&
		grep -Eq " allocated 13-byte region \[$ADDR_RE, $ADDR_RE\)$" "$log" &&
		kasan_has "$log" slab-out-of-bounds kasan_oob_write &&
		grep -Eq "Write of size 8 at addr $ADDR_RE by task kasan_test/" "$log" &&
		kasan_has "$log" double-free kasan_double_free &&
		grep -Eq "Free of addr $ADDR_RE by task kasan_test/[0-9]+$" "$log" &&
		kasan_has "$log" invalid-free kasan_invalid_free &&
		kasan_has "$log" global-out-of-bounds kasan_global_oob &&
		grep -Eq "The buggy address belongs to the variable:$" "$log" &&
		grep -Eq "^\[ *[0-9.]+\]  kasan_test_global\+0xd/0xd$" "$log" &&
		kasan_has "$log" use-after-free kasan_page_uaf &&
		kasan_has "$log" use-after-free kasan_page_unallocated &&
		kasan_has "$log" use-after-free kasan_kmalloc_large_uaf &&
		grep -A2 "Allocated by task [0-9]*:$" "$log" | grep -q "  kasan_kmalloc_large_uaf+0x" &&
		grep -A2 "Freed by task [0-9]*:$" "$log" | grep -q "  kasan_kmalloc_large_uaf+0x" &&
		grep -Eq "\] head:$ADDR_RE order:2$" "$log" &&
		grep -Eq " freed 12288-byte region \[$ADDR_RE, $ADDR_RE\)$" "$log" &&
		kasan_has "$log" slab-out-of-bounds kasan_memset_oob &&
		grep -Eq "Write of size 21 at addr $ADDR_RE by task kasan_test/" "$log" &&
		kasan_has "$log" stack-out-of-bounds kasan_stack_oob &&
		grep -Eq "The buggy address belongs to stack of task kasan_test/[0-9]+$" "$log" &&
		grep -Eq "\] >$ADDR_RE: 00 05 f3 f3" "$log" &&
		# One report per bug: 13 reports (uaf_rcu has two), each between two banners.
		[ "$(grep -c "BUG: KASAN:" "$log")" = 13 ] &&
		[ "$(grep -Ec "$KASAN_BANNER_RE" "$log")" = 26 ]
}

kasan_once_check() {
	local log=$LOGDIR/kasan-once.console
	tr -d '\r' <"$LOGDIR/kasan-once.log" >"$log" || return 1
	[ "$(grep -c "BUG: KASAN:" "$log")" = 1 ] && kasan_has "$log" slab-use-after-free kasan_uaf
}

if [ "$kasan_wanted" = 1 ]; then
	run_cmd_test kasan-build build_config "$kasan_dir" test_defconfig '+CONFIG_KASAN=y' \
		'CONFIG_KASAN=y' 'CONFIG_KASAN_STACK=y' 'CONFIG_KASAN_TEST=y'

	built_boot_test "$kasan_dir" KASAN kasan-selftest-smp4 4 \
		"rcutree.selftest=1 mm.selftest=1 kunit_shutdown=poweroff shutdown_secs=15" --timeout 90 \
		--expect "kasan: KernelAddressSanitizer initialized \(generic\)" \
		--expect "# rcu: pass:[0-9]+ fail:0 " --expect "# slab: pass:[0-9]+ fail:0 " \
		--reject "BUG: KASAN" --reject "not ok"
	built_boot_test "$kasan_dir" KASAN kasan-planted 2 \
		"kasan_test=all kasan_multi_shot shutdown_secs=3" --allow-bug \
		--expect "kasan_test: done, kernel still running" --expect "reboot: Power down"
	if [ -f "$LOGDIR/kasan-planted.log" ]; then
		run_cmd_test kasan-planted-reports kasan_planted_check
	fi
	built_boot_test "$kasan_dir" KASAN kasan-once 2 "kasan_test=all shutdown_secs=3" --allow-bug \
		--expect "kasan_test: done, kernel still running" --expect "reboot: Power down"
	if [ -f "$LOGDIR/kasan-once.log" ]; then
		run_cmd_test kasan-once-report kasan_once_check
	fi
	built_boot_test "$kasan_dir" KASAN kasan-fault-panic 1 \
		"kasan.fault=panic kasan_test=uaf shutdown_secs=10" --allow-bug --expect-rc 7 \
		--expect "BUG: KASAN: slab-use-after-free in kasan_uaf\+" \
		--expect "Kernel panic - not syncing: kasan.fault=panic set"
	built_boot_test "$kasan_dir" KASAN kasan-bad-param 1 \
		"kasan.fault=bogus kasan_test=bogus kasan.quarantine_size=2000000000 shutdown_secs=1" \
		--expect "kasan: kasan.fault: invalid value 'bogus' \(not report or panic\), using report" \
		--expect "kasan: kasan_test: invalid value 'bogus' \(not uaf, .* or all\), using none" \
		--expect "kasan: kasan.quarantine_size: invalid value '2000000000' \(out of range -1\.\.1073741824\), using -1" \
		--reject "BUG: KASAN" --expect "reboot: Power down"
fi
