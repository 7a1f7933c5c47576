# shellcheck shell=bash
# tests/boot/00-smoke.sh - foundation boot tests: SMP bring-up at 1/2/4/8 CPUs, command-line echo,
# clean power-off via shutdown_secs=, and the fatal-exception path.
# Sourced by tests/run-all.sh with tests/lib.sh loaded (boot_test, see tests/lib.sh).
#
# Console lines assumed (the kernel contract, Linux wording):
#   "Command line: <cmdline>"               echoed early (x86 Linux's setup_arch line)
#   "smp: Brought up 1 node, N CPUs"        Linux prints "1 CPU" (singular) for N=1; both accepted
#   "reboot: Power down"                    before the isa-debug-exit power-off (rc 33)
#   "Kernel panic - not syncing: <msg>"     on panic (rc 7)
# test_fault=pf (kernel/test_fault.c) reads an unmapped canonical address after boot; the #PF
# handler prints Linux's oops lines ("BUG: unable to handle page fault for address: ...",
# "Call Trace:") and panics, so QEMU exits with 7 and shutdown_secs=5 never fires.

for n in 1 2 4 8; do
	boot_test "smp$n" --smp "$n" --append "shutdown_secs=1" \
		--expect "Command line: (.* )?shutdown_secs=1( |$)" \
		--expect "smp: Brought up 1 node, $n CPUs?$" \
		--expect "reboot: Power down"
done

boot_test fault-pf --smp 2 --append "test_fault=pf shutdown_secs=5" --expect-rc 7 --allow-bug \
	--expect "BUG: unable to handle page fault|BUG: kernel NULL pointer dereference|page fault" \
	--expect "Call Trace:" \
	--expect "Kernel panic - not syncing" \
	--reject "reboot: Power down"
