# shellcheck shell=bash
# tests/boot/10-params.sh - kernel boot parameter handling, end to end (the parser itself is
# unit-tested and fuzzed in tests/host).
#
# What the kernel prints (lib/cmdline.c, kernel/params.c; Documentation/admin-guide/kernel-parameters.md):
# - Parameters are parsed left to right and the last occurrence wins (as in Linux), so a bad
#   value followed by a good one still powers off on time.
# - A rejected value prints one line  "<subsys>: <name>: invalid value '<val>' (<reason>), using <kept>".
# - An unknown parameter under a known prefix prints "<subsys>: unknown parameter '<name>' ignored";
#   other unknown words are listed once, in Linux's words:
#     Unknown kernel command line parameters "no_such_param=1 another_one", will be passed to user space.
# - A Linux parameter this kernel does not implement prints
#     "<subsys>: <name>=<value>: Linux parameter not implemented here (<reason>), ignored".
# - A parameter declared in the tree but not built into this kernel (scripts/kparams.py,
#   kernel/params_absent.c) prints "<subsys>: <name>=<value>: not in this kernel: needs CONFIG_X, ignored".
# - None of these is a WARNING/BUG, and each boot ends with the usual clean power-off (rc 33).

boot_test params-invalid-value --smp 1 --append "shutdown_secs=notanumber shutdown_secs=1" \
	--expect "Command line: shutdown_secs=notanumber shutdown_secs=1" \
	--expect "shutdown_secs: invalid value 'notanumber'" \
	--expect "reboot: Power down"

boot_test params-out-of-range --smp 1 --append "shutdown_secs=1 shutdown_secs=99999 isolcpus=nohz,1 console=tty0 kunit_shutdown=later slub_debug=Q" \
	--expect "ktap: kunit_shutdown: invalid value 'later' \(halt, poweroff or reboot\), using \(none\)" \
	--expect "mm: slub_debug: invalid value 'Q' \(F, P, Linux's Z, U, T, A, O, or -\), using FP" \
	--expect "kernel: shutdown_secs: invalid value '99999' \(out of range 0\.\.86400\), using 1" \
	--expect "sched: isolcpus: invalid value 'nohz,1' \(nohz: tick isolation is nohz_full= here\), using \(none\)" \
	--expect "kernel: console: no console 'tty0' in this kernel \(ttyS0 only\), using ttyS0" \
	--expect "reboot: Power down"

# kunit_shutdown=halt: powered off at once after the initcalls (no suite enabled), long before
# the 30-s backstop.
boot_test params-unknown --smp 1 --append "shutdown_secs=30 no_such_param=1 another_one kunit_shutdown=halt" \
	--expect "ktap: kunit_shutdown=halt is not supported, using poweroff" \
	--expect "Uptime: [0-9]\." \
	--expect "Unknown kernel command line parameters \"no_such_param=1 another_one\"" \
	--expect "reboot: Power down"

boot_test params-unknown-prefixed --smp 1 --append "shutdown_secs=1 rcutree.no_such_param=3" \
	--expect "unknown parameter 'rcutree\.no_such_param' ignored" \
	--reject "Unknown kernel command line parameters" \
	--expect "reboot: Power down"

# Linux parameters this kernel lacks (kernel/rcu/linux_params.c): one "not implemented" line each
# with the reason, nothing passed on to user space, no "unknown parameter"; Linux's rcuscale name
# for the perf type is accepted; no parameter name is registered twice (kernel/params.c). The ones
# this kernel has behind an option the test kernel lacks (nohz_full=, RCU_FAST_NO_HZ's delay,
# test_defconfig has neither) name the option instead, with the value as their type reads it.
boot_test params-linux-unimplemented --smp 1 --append "shutdown_secs=1 rcutree.use_softirq=1 nohz_full=1-3 rcutree.rcu_delay_page_cache_fill_msec=5 srcutree.convert_to_big rcupdate.rcu_task_ipi_delay=5 rcuscale.scale_type=rcu rcutree.rcu_idle_gp_delay=0x10" \
	--expect "rcu: rcutree\.use_softirq=1: Linux parameter not implemented here \(callbacks always run in rcuc/N kthreads, as with use_softirq=0\), ignored$" \
	--expect "tick: nohz_full=1-3: not in this kernel: needs CONFIG_NO_HZ_FULL, ignored$" \
	--expect "rcu: rcutree\.rcu_idle_gp_delay=16: not in this kernel: needs CONFIG_RCU_FAST_NO_HZ, ignored$" \
	--expect "rcu: rcutree\.rcu_delay_page_cache_fill_msec=5: Linux parameter not implemented here" \
	--expect "srcu: srcutree\.convert_to_big: Linux parameter not implemented here" \
	--expect "rcu: rcupdate\.rcu_task_ipi_delay=5: not in this kernel: needs CONFIG_TASKS_RCU_GENERIC" \
	--reject "Unknown kernel command line parameters" --reject "unknown parameter" \
	--reject "registered twice" \
	--expect "reboot: Power down"

boot_test params-loglevel-bad --smp 1 --append "loglevel=99 shutdown_secs=1" \
	--expect "kernel: loglevel: invalid value '99' \(out of range 0\.\.8\), using 7" \
	--expect "reboot: Power down"

# Linux's console and CPU-count parameters (kernel/printk/printk.c and console.c, drivers/tty/serial/8250.c,
# kernel/smp_cpus.c, kernel/sched/isolation.c). ignore_loglevel shows the warnings that
# loglevel=1 would hide; maxcpus=0 starts no second CPU; nr_cpus=0 and a baud rate the UART
# cannot make are rejected with one line each; isolcpus= takes Linux's "domain," flag.
boot_test params-linux-cmdline --smp 2 --append "loglevel=1 ignore_loglevel maxcpus=0 nr_cpus=0 console=ttyS0,1234 isolcpus=domain,1 shutdown_secs=1" \
	--expect "debug: ignoring loglevel setting\.$" \
	--expect "smp: nr_cpus: invalid value '0' \(out of range 1\.\.8192\), using 64" \
	--expect "kernel: console: invalid value 'ttyS0,1234' \(options: a baud rate dividing 115200, then n\|o\|e and 5-8\), using ttyS0,115200n8" \
	--expect "sched: isolcpus: CPUs 1 isolated from load balancing$" \
	--expect "smp: Brought up 1 node, 1 CPU$" \
	--reject "Booting SMP configuration" \
	--expect "reboot: Power down"
# quiet: only messages more urgent than KERN_WARNING (the info lines after the command line is
# parsed, and the SMP bring-up's pr_cont() pieces, are not shown); console=ttyS0,115200n8 is
# Linux's usual serial console and changes nothing.
boot_test params-quiet --smp 2 --append "quiet console=ttyS0,115200n8 shutdown_secs=1" \
	--reject "smp: Bringing up secondary CPUs" --reject "Hierarchical RCU implementation" \
	--reject "^\[ *[0-9.]+\] +#1" --reject "console:" \
	--expect "reboot: Power down"

