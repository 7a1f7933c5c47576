/*
 * rcutorture's boot parameters (rcutorture.*), each written once: C type,
 * name, default, range and description. No include guard: the list is
 * expanded three times, by macros the includer defines first:
 *   RCUTORTURE_PARAM(type, name, default, min, max, description)
 *   RCUTORTURE_PARAM_BOOL(name, default, description)
 *   RCUTORTURE_PARAM_STRING(name, size, default, description)
 * rcutorture.h makes them the fields of struct rcu_torture_params (what
 * every part reads, through the const view rtp); rcutorture_state.c gives
 * the defaults to its one copy and registers each field as a KPARAM entry
 * (<kernel/torture_param.h>). scripts/check-docs.sh reads this file for the
 * documented names.
 */
RCUTORTURE_PARAM_STRING(torture_type, 16, "rcu",
	"type of RCU to torture (rcu, busted, tasks, srcu, srcud, busted_srcud, trivial)")
RCUTORTURE_PARAM_BOOL(torture_runnable, IS_ENABLED(CONFIG_RCU_TORTURE_TEST_RUNNABLE),
	"start rcutorture at boot")
RCUTORTURE_PARAM(int, nreaders, -1, -NR_CPUS, 4 * NR_CPUS,
	"reader kthreads (-1: one fewer than the online CPUs, at least 1)")
RCUTORTURE_PARAM(int, nfakewriters, 4, 0, 64, "fake-writer kthreads calling the update-side APIs")
RCUTORTURE_PARAM(int, stat_interval, 60, 0, 3600,
	"seconds between statistics lines (0: only at the end)")
RCUTORTURE_PARAM(int, shutdown_secs, 0, 0, 86400,
	"end the test and power off after this many seconds (0: run forever)")
RCUTORTURE_PARAM_BOOL(test_no_idle_hz, true,
	"test dyntick-idle CPUs (the shuffler keeps one CPU idle in turn)")
RCUTORTURE_PARAM(int, shuffle_interval, 3, 0, 3600,
	"seconds between shuffles of the test kthreads (0: none)")
RCUTORTURE_PARAM(int, stutter, 5, 0, 3600,
	"seconds to run, then to pause, the test (0: never pause)")
RCUTORTURE_PARAM(int, irqreader, 1, 0, 1,
	"also read from timer handlers (and call_rcu() from them)")
RCUTORTURE_PARAM(int, fqs_duration, 0, 0, 10000000,
	"microseconds of each burst of forced quiescent-state scans (0: none)")
RCUTORTURE_PARAM(int, fqs_holdoff, 0, 0, 1000000,
	"microseconds between forced scans within a burst")
RCUTORTURE_PARAM(int, fqs_stutter, 3, 0, 3600, "seconds between bursts of forced scans")
RCUTORTURE_PARAM_BOOL(gp_cond, false, "writer uses cond_synchronize_rcu()")
RCUTORTURE_PARAM_BOOL(gp_cond_exp, false, "writer uses cond_synchronize_rcu_expedited()")
RCUTORTURE_PARAM_BOOL(gp_cond_full, false, "writer uses cond_synchronize_rcu_full()")
RCUTORTURE_PARAM_BOOL(gp_cond_exp_full, false,
	"writer uses cond_synchronize_rcu_expedited_full()")
RCUTORTURE_PARAM_BOOL(gp_exp, false, "writer uses synchronize_rcu_expedited()")
RCUTORTURE_PARAM_BOOL(gp_normal, false, "writer uses call_rcu()")
RCUTORTURE_PARAM_BOOL(gp_poll, false, "writer uses start/poll_state_synchronize_rcu()")
RCUTORTURE_PARAM_BOOL(gp_poll_exp, false,
	"writer uses start_poll_synchronize_rcu_expedited()/poll_state_synchronize_rcu()")
RCUTORTURE_PARAM_BOOL(gp_poll_full, false,
	"writer uses start/poll_state_synchronize_rcu_full()")
RCUTORTURE_PARAM_BOOL(gp_poll_exp_full, false,
	"writer uses start_poll_synchronize_rcu_expedited_full()/poll_state_synchronize_rcu_full()")
RCUTORTURE_PARAM_BOOL(gp_sync, false, "writer uses synchronize_rcu()")
RCUTORTURE_PARAM(int, n_barrier_cbs, 0, 0, NR_CPUS,
	"kthreads (one callback each, on CPU = kthread number) testing rcu_barrier() (0: none)")
RCUTORTURE_PARAM(int, stall_cpu, 0, 0, 300,
	"seconds to stall a CPU inside a reader, to provoke a stall warning (0: none)")
RCUTORTURE_PARAM(int, stall_cpu_holdoff, 10, 0, 3600, "seconds to wait before stalling the CPU")
RCUTORTURE_PARAM(int, stall_cpu_irqsoff, 0, 0, 1, "stall with interrupts disabled")
RCUTORTURE_PARAM_BOOL(stall_no_softlockup, false,
	"keep the soft-lockup detector quiet during the stall (touch_softlockup_watchdog())")
RCUTORTURE_PARAM(int, fwd_progress, 1, -65536, 65536,
	"forward-progress kthreads (cond_resched() loop, call_rcu() flood; 0: none, <0 or more than the CPUs: one per CPU)")
RCUTORTURE_PARAM(int, fwd_progress_holdoff, 60, 1, 3600,
	"seconds before (and between) forward-progress tests")
RCUTORTURE_PARAM(int, fwd_progress_div, 4, 1, 100,
	"the cond_resched() loop lasts between 1/div and all of the stall timeout")
RCUTORTURE_PARAM_BOOL(fwd_progress_need_resched, true,
	"call cond_resched() in that loop only when need_resched()")
RCUTORTURE_PARAM(int, read_exit_delay, 13, 0, 3600, "seconds between read-then-exit episodes")
RCUTORTURE_PARAM(int, read_exit_burst, 16, 0, 10000,
	"read-then-exit kthreads per episode (0: none)")
RCUTORTURE_PARAM(int, nocbs_nthreads, 0, 0, 1024,
	"kthreads toggling callback offloading of random CPUs (0: none; rcutorture_nocb.c)")
RCUTORTURE_PARAM(int, nocbs_toggle, 1000, 1, 3600000,
	"milliseconds between one toggler's (de)offloads, plus up to an eighth more")
RCUTORTURE_PARAM(int, verbose, 1, 0, 2, "print kthread start/stop lines")
RCUTORTURE_PARAM(int, onoff_interval, 0, 0, 3600000,
	"milliseconds between CPU-hotplug operations (0: none; needs CONFIG_HOTPLUG_CPU)")
RCUTORTURE_PARAM(int, onoff_holdoff, 0, 0, 3600, "seconds before the first CPU-hotplug operation")
RCUTORTURE_PARAM(int, object_debug, 0, 0, 1,
	"test double call_rcu() detection (needs debug objects, not implemented yet)")
RCUTORTURE_PARAM(int, test_boost, 1, 0, 2,
	"test RCU priority boosting: 0 never, 1 if the flavor boosts (RCU_BOOST), 2 always")
RCUTORTURE_PARAM(int, test_boost_interval, 7, 1, 3600,
	"seconds from the end of one boost test to the start of the next")
RCUTORTURE_PARAM(int, test_boost_duration, 4, 2, 3600,
	"seconds each boost test lasts (a grace period may take up to this less 0.5 s)")
