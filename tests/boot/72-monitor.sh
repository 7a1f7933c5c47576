# shellcheck shell=bash
# tests/boot/72-monitor.sh - the kernel monitor (drivers/tty/monitor.c): boot ends with
#   "Kernel monitor ready: type 'help'"
# and nothing more until something is typed; then each line typed on the serial console (a
# socket here: boot_test --send/--wait) runs one command, whose output is printk lines, and the
# prompt "mon> " follows it. poweroff ends the guest the orderly way (rc 33).

boot_test monitor-session --smp 2 --append "" \
	--wait "Kernel monitor ready: type 'help'" \
	--send 'help\r' --wait 'mon> ' \
	--send 'rcu\r' --wait 'mon> ' \
	--send 'ps\r' --wait 'mon> ' \
	--send 'mem\r' --wait 'mon> ' \
	--send 'uptime\r' --wait 'mon> ' \
	--send 'ktap list\r' --wait 'mon> ' \
	--send 'ktap rcu_exp\r' --wait 'mon> ' \
	--send 'torture start\r' --wait 'mon> ' \
	--send 'sysrq h\r' --wait 'mon> ' \
	--send 'frob\x7f\x7fob\r' --wait 'mon> ' \
	--send 'poweroff\r' \
	--expect 'monitor:   rcu \[stats\]' --expect 'monitor:   poweroff ' \
	--expect 'rcu: rcu_sched: g=-?[0-9]+ \((idle|in progress)\) state: RCU_GP_' \
	--expect 'rcu: 	cpu 1 ->gp_seq ' \
	--expect 'task:monitor +state:R pid:[0-9]+ ' --expect 'task:rcu_sched +state:[SR] ' \
	--expect 'mm: [0-9]+/[0-9]+ pages free' \
	--expect 'monitor: up [0-9]+\.[0-9]{3} s, 2 CPUs online' \
	--expect 'monitor:   ktap rcu_exp +\([0-9]+ cases\)' \
	--expect '# Subtest: rcu_exp' --expect '^\[[ 0-9.]+\] ok 1 rcu_exp$' \
	--expect 'monitor: torture runs at boot only: boot with rcutorture.torture_runnable=1' \
	--expect 'sysrq: HELP : ' \
	--expect "monitor: unknown command 'frob' \(try 'help'\)" \
	--expect 'reboot: Power down'

# Unattended: the ready line ends the boot and no prompt is printed.
boot_test monitor-quiet --smp 2 --append "shutdown_secs=1" \
	--expect "Kernel monitor ready: type 'help'" --reject 'mon> ' --expect 'reboot: Power down'
