# shellcheck shell=bash
# tests/boot/20-sched.sh - the scheduler at boot: the KTAP suite "sched" (kernel/sched/test/suite.c,
# sched.selftest=1) on 1, 2, 4 and 8 CPUs under both preemption models, dyntick-idle (idle CPUs
# take almost no timer interrupts), skew_tick=1, and the boot benchmark (kernel/sched/test/bench.c, sched.bench=1).
# The self-test boots also run kmalloc's KTAP suite "slab" (mm/test/slab.c, mm.selftest=1):
# its per-CPU object caches under the same CPU counts and preemption models, with cross-calls
# that kmalloc()/kfree() inside the caches' push and pop (slab_irq_vs_task, 0.4 s) and a
# cpu_down() of a CPU holding cached objects (slab_cpu_dead_drain); both skip on 1 CPU. The same
# switch runs "percpu" (mm/test/percpu.c): consecutive CPUs' per-CPU copies an odd number of pages apart,
# and "page_pcp" (mm/test/page_pcp.c): the per-CPU page lists give their pages back when their CPU
# goes down (page_pcp_cpu_dead_drain) and when an allocation finds the zone empty (the zone is
# emptied for a moment, page_pcp_drain_on_failure), and interrupts that allocate and free pages
# inside a task's push or pop share none with it (page_pcp_irq_vs_task, 0.4-2 s: until 16 calls landed inside); all skip on 1 CPU.
# One boot provokes a double free through kfree_bulk() (mm.provoke_double_free=bulk): it must panic.
# Sourced by tests/run-all.sh with tests/lib.sh loaded.
#
# The PREEMPT kernel is built once per run from arch/x86_64/configs/preempt_defconfig into
# $LOGDIR/build-preempt (about a minute on 2 cores; skipped when TEST_FILTER selects none of its
# boots). Accelerators are lib.sh's defaults: MTTCG for 1-2 CPUs, single-threaded TCG for 4-8.
# Whole file: about 2 minutes on 2 host cores.
#
# Console lines assumed:
#   "# Totals: pass:P fail:0 skip:S total:T"   kernel/test/ktap.c, after every suite has run
#   " LOC:  n0 n1 n2 ..."                       the power-off interrupt table (kernel/irq.c),
#                                               one column per CPU
#   "sched-bench: ctxsw ns_per_switch=N ..."    kernel/sched/test/bench.c; figures are never judged
#   "sched-bench: wakeup cpu A->B median_ns=N p90_ns=N ..."
#   "sched-bench: idle cpuN wakeups_per_s=N"

# shutdown_secs for self-test boots: the suite must end before the power-off, or the Totals line
# is missing. It takes 0.5-1.5 s on 1, 4 and 8 CPUs, plus mm's page_pcp suite: 1-5 s under
# single-threaded TCG on a loaded host (page_pcp_drain_on_failure takes and gives back, poisoning
# it, all of RAM; page_pcp_irq_vs_task runs until 16 calls landed inside, at most 2 s). The boot
# powers off as soon as the suites end (kunit_shutdown=poweroff): the limit costs nothing. On 2 CPUs under MTTCG every cross-CPU wakeup
# or mutex handoff waits for the host to run the other vCPU thread (0.2-3 ms on a busy 2-core
# host): the completion ping-pong takes up to ~4 s and the mutex case stops at its 10 s deadline.
sched_st_secs() { if [ "$1" = 2 ]; then echo 20; else echo 14; fi; }

sched_selftest_boot() { # NAME SMP [boot_test options...]
	local name=$1 smp=$2
	shift 2
	boot_test "$name" --smp "$smp" --append "sched.selftest=1 mm.selftest=1 kunit_shutdown=poweroff shutdown_secs=$(sched_st_secs "$smp")" \
		--expect "# Totals: pass:[0-9]+ fail:0 " \
		--expect "ok [0-9]+ sched_kthread_every_cpu" --expect "ok [0-9]+ sched_task_freed_after_gp" \
		--expect "ok [0-9]+ slab_cpu_cache_batches" --expect "ok [0-9]+ slab_cross_cpu" \
		--expect "# slub_debug: F on, P on;" --expect "ok [0-9]+ slab_debug_poison" \
		--expect "ok [0-9]+ slab_irq_vs_task" --expect "ok [0-9]+ slab_cpu_dead_drain" \
		--expect "ok [0-9]+ percpu_units_odd_stride" \
		--expect "ok [0-9]+ page_pcp_cpu_dead_drain" --expect "ok [0-9]+ page_pcp_drain_on_failure" \
		--expect "ok [0-9]+ page_pcp_irq_vs_task" \
		--reject "not ok" \
		--expect "reboot: Power down" "$@"
}

for n in 1 2 4 8; do
	sched_selftest_boot "sched-selftest-smp$n" "$n"
done

# skew_tick=1: the same suite, whose sched_tick_skew case (kernel/time/test/tick.c) then checks
# that CPU n's periodic tick is armed n/4 of half a jiffy into the jiffy (without it, in the boots
# above, on the boundary); the power-off statistics name the setting. The slab suite runs here
# with kmalloc's debugging switched off (slub_debug=-, as defconfig boots): nothing poisoned.
boot_test sched-selftest-skew-smp4 --smp 4 --append "sched.selftest=1 mm.selftest=1 slub_debug=- skew_tick=1 kunit_shutdown=poweroff shutdown_secs=14" \
	--expect "# Totals: pass:[0-9]+ fail:0 " \
	--expect "ok [0-9]+ sched_tick_skew" \
	--expect "# slub_debug: F off, P off;" --expect "ok [0-9]+ slab_debug_poison" \
	--expect "ok [0-9]+ slab_irq_vs_task" --expect "ok [0-9]+ slab_cpu_dead_drain" \
	--expect "# skew_tick=1: 3 of 4 CPUs tick off the jiffy boundary" \
	--expect "tick: skew_tick=1, mean tick phase \(us\) per CPU: 0:" \
	--reject "not ok" \
	--expect "reboot: Power down"

# slub_debug=F's double-free check in kfree_bulk(): an object freed by kfree() and then by
# kfree_bulk() on the same CPU (mm/test/double_free.c, mm.provoke_double_free=bulk) sits on that
# CPU's cache, where kfree_bulk() must look as kfree() does; the report is a BUG, so a panic.
boot_test slab-double-free-bulk --smp 2 --append "slub_debug=FP mm.provoke_double_free=bulk shutdown_secs=5" \
	--expect-rc 7 --allow-bug \
	--expect "mm.provoke_double_free: kfree\(\) then kfree_bulk\(\) of " \
	--expect "kfree: bad pointer [0-9a-fx]+: double free" --expect "Kernel panic - not syncing" \
	--reject "went unnoticed" --reject "reboot: Power down"

# PREEMPT: the same suite on a kernel built with CONFIG_PREEMPT=y.
sched_preempt_dir=$(cd "$LOGDIR" && pwd)/build-preempt
sched_preempt_wanted=0
for n in 1 2 4 8; do
	_test_selected "sched-selftest-preempt-smp$n" && sched_preempt_wanted=1
done
if [ "$sched_preempt_wanted" = 1 ]; then
	run_cmd_test sched-build-preempt build_config "$sched_preempt_dir" preempt_defconfig CONFIG_PREEMPT=y
	for n in 1 2 4 8; do
		# On 2+ CPUs the watched move (kernel/sched/test/migrate.c, CONFIG_SCHED_MOVE_DELAY)
		# must run, not skip: a moving task's on_rq never reads 0 (TASK_ON_RQ_MIGRATING).
		moved=()
		[ "$n" = 1 ] || moved=(--expect "ok [0-9]+ sched_migrate_keeps_on_rq$")
		if [ -f "$sched_preempt_dir/kernel.elf" ]; then
			KERNEL=$sched_preempt_dir/kernel.elf sched_selftest_boot "sched-selftest-preempt-smp$n" "$n" \
				"${moved[@]}"
		else
			skip_test "sched-selftest-preempt-smp$n" "PREEMPT kernel did not build"
		fi
	done
fi

# Dyntick-idle: with nothing to do for 10 s, CPUs 1-3 take fewer than 100 local timer interrupts
# each (1% of the 10,000 ticks a periodic HZ=1000 tick would give them).
sched_check_idle_loc() { # LOG
	tr -d '\r' <"$1" | awk '
		/ LOC:/ {
			sub(/.*LOC:/, "")
			found = 1
			for (cpu = 1; cpu <= 3; cpu++) {
				printf "CPU%d LOC=%s\n", cpu, $(cpu + 1)
				if ($(cpu + 1) !~ /^[0-9]+$/ || $(cpu + 1) + 0 >= 100)
					bad = 1
			}
		}
		END {
			if (!found) { print "no LOC: row in the log"; exit 1 }
			if (bad) { print "an idle CPU took 100 or more timer interrupts in 10 s"; exit 1 }
		}'
}

boot_test sched-dyntick --smp 4 --append "shutdown_secs=10" \
	--expect " LOC:" \
	--expect "reboot: Power down"
if _test_selected sched-dyntick; then
	run_cmd_test sched-dyntick-loc sched_check_idle_loc "$LOGDIR/sched-dyntick.log"
fi

# The soft-lockup detector (kernel/sched/watchdog.c, suite "watchdog", kernel/sched/test/watchdog.c)
# with watchdog_thresh=1: a FIFO 1 hog and then a preempt-off hog each spin 3.5 s on CPU 1 while a
# SCHED_NORMAL kthread waits there; each is reported once, by name, with the hog's registers (RIP in
# the hog's function) and backtrace. About 15 s.
if [ -f "${O:-$TESTS_ROOT}/.config" ] && ! grep -q '^CONFIG_SOFTLOCKUP_DETECTOR=y' "${O:-$TESTS_ROOT}/.config"; then
	skip_test sched-watchdog "kernel built without CONFIG_SOFTLOCKUP_DETECTOR"
else
	boot_test sched-watchdog --smp 2 --timeout 60 --allow-bug --reject "WARNING:" \
		--append "watchdog.selftest=1 watchdog_thresh=1 shutdown_secs=14" \
		--expect "watchdog: BUG: RT starvation - CPU#1 ran no SCHED_NORMAL task for [0-9]+s! \[wd_rt_hog/1:[0-9]+\]" \
		--expect "sched: CPU#1: [1-9][0-9]* SCHED_NORMAL task\(s\) waiting, [0-9]+ switches among real-time tasks meanwhile; wd_rt_hog/1:[0-9]+ runs SCHED_FIFO 1" \
		--expect "watchdog: CPU#1: [1-9][0-9]* queued behind it: .*wd_victim/1" \
		--expect "watchdog: BUG: soft lockup - CPU#1 stuck for [0-9]+s! \[wd_stuck_hog/1:[0-9]+\]" \
		--expect "RIP: [0-9a-f]+:wd_rt_hog_fn\+" --expect "RIP: [0-9a-f]+:wd_stuck_hog_fn\+" \
		--expect "\] +\[<[0-9a-f]+>\] kthread_main\+" \
		--expect "ok [0-9]+ watchdog_rt_starvation$" --expect "ok [0-9]+ watchdog_soft_lockup$" \
		--expect "# Totals: pass:2 fail:0 skip:0 total:2" \
		--reject "not ok" --reject "CPU#0" \
		--expect "reboot: Power down"
fi

# Benchmark: print the figures (MTTCG, 4 CPUs); only their presence is checked.
boot_test sched-bench --smp 4 --accel tcg --append "sched.bench=1 shutdown_secs=10" \
	--expect "sched-bench: ctxsw ns_per_switch=[0-9]+" \
	--expect "sched-bench: wakeup cpu 0->1 median_ns=[0-9]+ p90_ns=[0-9]+" \
	--expect "sched-bench: idle cpu3 wakeups_per_s=[0-9]+" \
	--reject "sched-bench: .*failed" \
	--expect "reboot: Power down"
