# shellcheck shell=bash
# tests/boot/00-smoke.sh - foundation boot tests: SMP bring-up at 1/2/4/8 CPUs, command-line echo,
# clean power-off via shutdown_secs=, and the fatal-exception path.
# Sourced by tests/run-all.sh with tests/lib.sh loaded (boot_test, see tests/lib.sh).
#
# Console lines assumed (the kernel contract, Linux wording):
#   "Command line: <cmdline>"               echoed early (x86 Linux's setup_arch line)
#   "smp: Brought up 1 node, N CPUs"        Linux prints "1 CPU" (singular) for N=1; both accepted
#   "reboot: Power down"                    before the isa-debug-exit power-off (rc 33)
#   "APIC timer: F MHz bus clock, ..."      arch/x86_64/kernel/timer.c; QEMU's APIC timer runs at
#                                           1 GHz (TCG and KVM), so F within 0.1% of 1000 shows the
#                                           TSC and APIC calibrations both right (each is measured
#                                           from bracketed counter reads; timing a poll instead read
#                                           1.0-2.2 GHz on a loaded host)
#   "tsc: Refined TSC clocksource calibration: F MHz"  Linux's line, a second after boot
#   "Kernel panic - not syncing: <msg>"     on panic (rc 7)
# test_fault=pf (kernel/test/fault.c) reads an unmapped canonical address after boot; the #PF
# handler prints Linux's oops lines ("BUG: unable to handle page fault for address: ...",
# "Call Trace:") and panics, so QEMU exits with 7 and shutdown_secs=5 never fires.

for n in 1 2 4 8; do
	boot_test "smp$n" --smp "$n" --append "shutdown_secs=1" \
		--expect "Command line: (.* )?shutdown_secs=1( |$)" \
		--expect "smp: Brought up 1 node, $n CPUs?$" \
		--expect "APIC timer: (999\.[0-9]{3}|1000\.[0-9]{3}) MHz bus clock" \
		--reject "tsc: calibration uncertain" \
		--expect "reboot: Power down"
done

# The late TSC re-check (arch/x86_64/kernel/tsc_refine.c): boot with a wrong rate (Linux's
# tsc_early_khz=), 10 GHz (clock slow, as the 45968 MHz of issue 29's campaign) and 500 MHz
# (fast); a second later the PM timer (with the RTC counting its wraps) must correct the clock
# and the APIC timer, whose rate under QEMU is 1 GHz exactly, so 999.x/1000.x shows both right.
# At 500 MHz the clock runs about 4.6 times fast, and so does boot in guest time: the re-check
# comes at 2-3 s of it, so the power-off waits until 5 s (real seconds once corrected).
for k in 10000000:2 500000:5; do
	s=${k#*:} k=${k%:*}
	boot_test "tsc-refine-$k" --smp 2 --append "tsc_early_khz=$k shutdown_secs=$s" \
		--expect "tsc: tsc_early_khz=$k: using" \
		--expect "tsc: boot calibration [0-9.]+ MHz is off by more than 1% from PMTIMER over [0-9]+ ms: correcting the clock, and the APIC timer to (999\.[0-9]{3}|1000\.[0-9]{3}) MHz" \
		--expect "tsc: Refined TSC clocksource calibration: [0-9]+\.[0-9]{3} MHz" \
		--expect "reboot: Power down"
done

# A cross call that another CPU answers only after a 300 ms mdelay() with interrupts off
# (test_fault=csd): with smp.csd_lock_timeout=100, Linux's CSD-lock report, the target's state
# and backtrace, and the end of the wait. mdelay() is one deadline, so the wait lasts about
# 300 ms however often the host stalls the vCPU: as a loop of udelay(1000) it took 1.7-4.5 s
# at a host load of 26-40 (each udelay() lost a whole stall).
boot_test csd-report --smp 2 --append "test_fault=csd smp.csd_lock_timeout=100 shutdown_secs=2" --allow-bug \
	--expect "csd: Detected non-responsive CSD lock \(#1\) on CPU#[0-9]+, waiting [0-9]+ ns for CPU#[0-9]+ test_fault_nop" \
	--expect "csd: CSD lock \(#1\) handling prior test_fault_irqs_off\+0x[0-9a-f]+/0x[0-9a-f]+\(0x0\) request\." \
	--expect "NMI backtrace for cpu [0-9]+" \
	--expect "csd: CSD lock \(#1\) got unstuck on CPU#[0-9]+, CPU#[0-9]+ released the lock\." \
	--expect "test_fault: csd: CPU [0-9]+ answered after ([0-9]{1,2}|[1-9][0-9]{2}) ms" \
	--expect "reboot: Power down"

boot_test fault-pf --smp 2 --append "test_fault=pf shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "BUG: unable to handle page fault|BUG: kernel NULL pointer dereference|page fault" \
	--expect "Call Trace:" \
	--expect "Kernel panic - not syncing" \
	--reject "reboot: Power down"

# The other fault kinds (kernel/test/fault.c): each must produce its report and a panic exit.
boot_test fault-null --smp 1 --append "test_fault=null shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "BUG: kernel NULL pointer dereference, address: 0000000000000008" \
	--expect "#PF: error_code\(0x0000\) - not-present page" --expect "RIP: .*test_fault_run" \
	--expect "Call Trace:"
boot_test fault-ud --smp 1 --append "test_fault=ud shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "invalid opcode: 0000 \[#1\]" --expect "Kernel panic - not syncing: Fatal exception"
boot_test fault-gp --smp 1 --append "test_fault=gp shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "general protection fault: 0000 \[#1\]"
boot_test fault-bug --smp 2 --append "test_fault=bug shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "kernel BUG at kernel/test/fault.c:[0-9]+!" --expect "Kernel panic - not syncing: BUG"
boot_test fault-stack --smp 1 --append "test_fault=stack shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "BUG: stack guard page was hit at 0000400" --expect "BUG: double fault" --expect "Kernel panic - not syncing"
boot_test fault-lock --smp 1 --append "test_fault=lock shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "BUG: spinlock recursion on CPU#0" --expect "Kernel panic - not syncing"
boot_test fault-warn --smp 2 --append "test_fault=warn shutdown_secs=1" --allow-bug \
	--expect "WARNING: CPU: [0-9]+ PID: 1 at kernel/test/fault.c:[0-9]+ test_fault_run" \
	--expect "---\[ end trace" --expect "reboot: Power down"
boot_test panic-smp4 --smp 4 --append "test_fault=panic shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "Kernel panic - not syncing: test_fault=panic" \
	--expect "---\[ end Kernel panic - not syncing: test_fault=panic \]---"
