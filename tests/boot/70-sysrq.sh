# shellcheck shell=bash
# tests/boot/70-sysrq.sh - Magic SysRq on the serial console (drivers/tty/sysrq.c): each key's
# Linux header line and its report, typed through the serial port as a socket (boot_test
# --send/--wait, scripts/serial-session.py). Keys follow Ctrl-O (sysrq_serial_seq=, default ^O),
# or a BREAK: QEMU's mux turns Ctrl-A B into a real BREAK on the line (LSR.BI), so both paths
# are tested. Every session first waits for the UART's line
#   "serial8250: ttyS0 at I/O 0x3f8 (irq = 4, ...)"
# after which the receive interrupt is on.
# Lines assumed (Linux's words; `y` is ours):
#   "sysrq: HELP : loglevel(0-9) reboot(b) crash(c) ..."     unknown key or h
#   "sysrq: Show Memory" "sysrq: Show State" "sysrq: Show Blocked State"
#   "sysrq: Show backtrace of all active CPUs" + "NMI backtrace for cpu N"
#   "sysrq: Show RCU tree" + "rcu: rcu_sched: g=... state: RCU_GP_..."  (rcutree.sysrq_rcu=1)
#   "sysrq: Changing Loglevel" + "Loglevel set to N"
#   "sysrq: Trigger a crash" + "Kernel panic - not syncing: sysrq triggered crash"  (rc 7)
#   "sysrq: Resetting"  (a reset: rc 0 under -no-reboot)
#   "sysrq: Power Off"  (clean power-off, rc 33)
#   "sysrq: This sysrq operation is disabled."  (sysrq=<mask> without the key's group)

ready='ttyS0 at I/O 0x3f8 \(irq = 4'

boot_test sysrq-keys --smp 2 --append "rcutree.sysrq_rcu=1" \
	--wait "$ready" \
	--send '\x0fh' --wait 'sysrq: HELP : loglevel\(0-9\) reboot\(b\) crash\(c\) .*show-rcu\(y\)' \
	--send '\x0fm' --wait 'mm: [0-9]+/[0-9]+ pages free' \
	--send '\x0ft' --wait 'task:srcu_gp' \
	--send '\x0fw' --wait 'sysrq: Show Blocked State' \
	--send '\x0fl' --wait 'NMI backtrace for cpu 1' \
	--send '\x0fy' --wait 'rcu: \tcpu 1 ->gp_seq' \
	--pause 0.5 --send '\x01b' --pause 0.5 --send 'y' --wait 'rcu: \tcpu 1 ->gp_seq' \
	--send '\x0f7' --wait 'Loglevel set to 7' \
	--send '\x0fo' \
	--expect 'sysrq: HELP : loglevel\(0-9\) reboot\(b\) crash\(c\) show-backtrace-all-active-cpus\(l\) show-memory-usage\(m\) poweroff\(o\) show-task-states\(t\) show-blocked-tasks\(w\) show-rcu\(y\)$' \
	--expect 'sysrq: Show Memory' --expect 'sysrq: Show State' \
	--expect 'task:rcu_sched +state:[SR] pid:' \
	--expect 'sysrq: Show backtrace of all active CPUs' --expect 'NMI backtrace for cpu 0' \
	--expect 'sysrq: Show RCU tree' \
	--expect 'rcu: rcu_sched: g=-?[0-9]+ \((idle|in progress)\) state: RCU_GP_[A-Z_]+\([0-9]\)' \
	--expect 'rcu: 	rcu_node 0:1 level 0 ->gp_seq -?[0-9]+ .*->qsmask (0|0x[0-3]) ->qsmaskinit (0|0x3) ->qsmaskinitnext 0x3' \
	--expect 'rcu: 	cpu 0 ->gp_seq .* idle=[0-9a-f]{3}/[0-9]+/0x[0-9a-f]+.* cbs=[0-9]+ \(done ' \
	--expect 'sysrq: Changing Loglevel' --expect 'sysrq: Power Off' --expect 'reboot: Power down'

# The BREAK path alone (no sequence). QEMU delivers a BREAK at once, ahead of characters its mux
# still holds for a full receive FIFO, so the session pauses around each BREAK.
boot_test sysrq-break --smp 1 --append "sysrq_serial_seq=" \
	--wait "$ready" --send '\x01b' --pause 0.5 --send 'h' --wait 'sysrq: HELP' \
	--pause 0.5 --send '\x01b' --pause 0.5 --send 'o' \
	--expect 'sysrq: Power Off'

# A BREAK that arrives while the console prints: reading LSR in the transmit poll clears BI, so
# the driver must keep it for the receive interrupt (the BREAK was lost, and 'h' read as input).
# SysRq t prints a few hundred lines from the UART interrupt; the BREAK lands in the middle.
boot_test sysrq-break-printing --smp 1 --append "" \
	--wait "$ready" --send '\x0ft' --wait 'sysrq: Show State' --send '\x01b' --pause 0.5 --send 'h' \
	--wait 'sysrq: HELP' --send '\x0fo' \
	--expect 'sysrq: Power Off'

boot_test sysrq-crash --smp 2 --append "" --expect-rc 7 --allow-bug \
	--wait "$ready" --send '\x0fc' \
	--expect 'sysrq: Trigger a crash' --expect 'Kernel panic - not syncing: sysrq triggered crash'

boot_test sysrq-reboot --smp 2 --append "" --expect-rc 0 \
	--wait "$ready" --send '\x0fb' --expect 'sysrq: Resetting' --reject 'reboot: Power down'

# sysrq=8 allows only the dumps: power-off is refused, memory is shown; shutdown_secs ends it.
# Without rcutree.sysrq_rcu=1, y is no key (as in Linux): the help line, without show-rcu(y).
boot_test sysrq-mask --smp 2 --append "sysrq=8 shutdown_secs=4" \
	--wait "$ready" --send '\x0fo' --wait 'sysrq: This sysrq operation is disabled\.' \
	--send '\x0fy' --wait 'sysrq: HELP : .* show-blocked-tasks\(w\)$' \
	--send '\x0fm' --wait 'sysrq: Show Memory' \
	--reject 'sysrq: Power Off'

# sysrq=0: the sequence is ordinary input; sysrq_always_enabled overrides the mask.
boot_test sysrq-off --smp 1 --append "sysrq=0 shutdown_secs=3" \
	--wait "$ready" --send '\x0fh\x0fo' --reject 'sysrq:'
boot_test sysrq-always --smp 1 --append "sysrq=0 sysrq_always_enabled" \
	--wait "$ready" --send '\x0fo' --expect 'sysrq: sysrq always enabled\.' --expect 'sysrq: Power Off'

# Another sequence (two Ctrl-B), and the parameters' validation warnings.
boot_test sysrq-seq --smp 1 --append "sysrq_serial_seq=^B^B" \
	--wait "$ready" --send '\x0fm\x02\x02o' --expect 'sysrq: Power Off' --reject 'sysrq: Show Memory'
boot_test sysrq-params-bad --smp 1 --append "sysrq=1024 sysrq_serial_seq=^1 shutdown_secs=1" \
	--expect "kernel: sysrq: invalid value '1024' \(out of range 0\.\.511\), using 1" \
	--expect "sysrq: sysrq_serial_seq: invalid value '\^1' .*, using \^O"
