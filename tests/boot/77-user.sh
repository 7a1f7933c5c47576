# shellcheck shell=bash
# tests/boot/77-user.sh - user mode (Documentation/user-mode.md): ring-3 programs from user/,
# system calls, faults that kill only the process, user mode as an RCU quiescent state.
#   user-init             init=/init: its system-call checks from user mode (getpid, getcpu,
#                         sched_yield, nanosleep, write, -EBADF, -EFAULT, -ENOSYS), exit status 0
#   user-hostile-smap     -cpu max (SMEP and SMAP on): the hostile program's 14 cases on 4 CPUs:
#                         case 0 passes kernel, unmapped, read-only and non-canonical pointers and
#                         garbage to every system call (each refused, none harms the kernel);
#                         cases 1-12 each commit one violation (read/write kernel memory, execute
#                         data and kernel text, cli, hlt, in, out, ud2, write own text, a
#                         non-canonical address) and must be killed with Linux's one-line report;
#                         case 13 clears IF with popf and spins (IF stays set, ticks go on);
#                         cases 20-22 (SGDT, SIDT, SLDT/SMSW/STR) must die of #GP: UMIP is on
#                         (they read the GDT/IDT's kernel addresses before it was).
#                         The kernel survives and powers off cleanly.
#   user-hostile-nosmap   the same on QEMU's default CPU (no SMEP/SMAP/UMIP): the page-table U/S
#                         bits and the pointer checks alone must give the same results (cases
#                         20-22 not run: without UMIP they succeed, as on such a CPU under Linux)
#   user-entry-flags      hostile case 14 on CPU 1 sets NT, AC, DF and ID and makes system calls
#                         (getpid, sched_yield) for 2 s beside spin on the same CPU, which returns
#                         to user mode by IRETQ after each tick: no flag reaches the kernel (NT did,
#                         and the next task's IRETQ faulted: "general protection fault: 0000 [#1]",
#                         "RIP: 0008:x86_interrupt_return", "Kernel panic - not syncing: Fatal
#                         exception"), the user's flags survive every call, IOPL and RF are refused
#                         at CPL 3; case 15 sets TF just before a SYSCALL and dies of the
#                         single-step trap after SYSRET, in user mode (never one in the kernel)
#   user-entry-flags-preempt  the same on preempt_defconfig with -cpu max (SMAP)
#   user-exit-fault       cases 16-19 on -cpu max: the test kernel's system call 1000 returns
#                         through a frame user mode cannot have (non-canonical RIP, CS 0x0b, CS
#                         past the GDT, SS 0x13); the IRETQ to user mode faults (or, for the RIP
#                         under TCG, the first fetch): each process is killed with Linux's GP
#                         report at its own RIP, the kernel goes on (it oopsed on the user's GS)
#   user-exit-fault-preempt   the same on preempt_defconfig, QEMU's default CPU
#   user-rcu-smp4         the KTAP suite "user": grace periods complete while CPUs 1-3 spin in
#                         user mode; the power-off lines show the user-mode EQS entries and the
#                         grace-period kthread's dyntick credits for each spinning CPU
#   user-rcu-tasks-smp4   the same suite on preempt_defconfig (built in $LOGDIR/build-preempt, shared
#                         with 50-preempt-rcu.sh and 52-tasks-rcu.sh): synchronize_rcu_tasks()
#                         completes while the spinners, listed as holdouts, are still in user mode
#   user-nmi-user         SysRq l (8 times) while CPU 1 spins in user mode: the NMI arrives from ring 3
#                         (swapgs on its IST stack), the backtrace shows the user RIP only and the
#                         process goes on to finish normally
#   user-sysrq-t          SysRq t while a process sleeps in nanosleep(): its kernel stack's backtrace
#                         ends at the system-call entry (no walk into user frames), no oops; sent
#                         1 s after hello's first line, since hello prints that line before it
#                         calls nanosleep() and a SysRq sent at once can find it still running
#   user-bad-params       malformed init= / user.run= values: one warning each, boot continues,
#                         the good entry runs
#   user-fpu-leak         fpu modes 1/2 and 5/6 on one CPU each: no process sees another's MMX
#                         registers or dies of its pending x87 exception (both did, before the
#                         kernel kept FPU state per process)
#   user-fpu-state(-xsave)  xmm markers, a process's own #MF (and #XM under KVM) kill only it,
#                         checked x87/SSE(/AVX) arithmetic in two processes per CPU; FXSAVE on
#                         QEMU's default CPU, XSAVE with AVX on -cpu max
#   user-kernel-fpu-free  scripts/check-fpu-free.sh: no FPU/SSE/AVX instruction in the kernel
#                         outside arch/x86_64/kernel/fpu.c
#   user-output-flood     one write() of 1 MiB beside a task on the same CPU: chunked with
#                         cond_resched(), the process's output budget prints 4 KiB, the rest is
#                         reported once as suppressed (it held the CPU for a second or more)
#   user-forged-lines     a program prints a panic, rcutorture's success line and "BUG:", bare and
#                         with a forged stamp: printed unstamped, they fail no default reject, and
#                         (-parse) parse-console.sh finds no success line
#   user-nmi-window       the NMI backtrace of the SYSCALL entry window (kernel CS, the user's RBP,
#                         here a kernel address) shows the RIP only, no walk (it read kernel
#                         memory at the user's address and oopsed); #MC has an IST stack
# Kernel-line expectations start with $KLINE (tests/lib.sh: printk's stamp), so no program's output
# can satisfy them.
# About 150 s on 2 host cores, plus the preempt_defconfig build when it is not there yet (about a minute).
#
# Console lines relied on (kernel/user/process.c, arch/x86_64/kernel/usermode.c,
# kernel/rcu/tree_stats.c, user/*.c):
#   "Run /init as init process"   "user: running PROG[PID] on CPU N"
#   "user: PROG[PID] exited with status N"   "user: N processes started, N exited, N killed"
#   "PROG[PID]: segfault at ADDR ip IP sp SP error CODE"
#   "traps: PROG[PID] general protection fault ip:IP sp:SP error:CODE"
#   "traps: PROG[PID] trap invalid opcode ip:IP sp:SP error:CODE"
#   "x86/cpu: SMEP enabled, SMAP enabled"   "x86/cpu: User Mode Instruction Prevention (UMIP) activated"
#   "rcu: CPU N: user-mode EQS entries E, ticks from user mode T, dynticks D"

boot_test user-init --smp 2 --append "init=/init shutdown_secs=3" \
	--expect '^\[ *[0-9.]+\] Run /init as init process$' \
	--expect 'init: hello from user mode, pid [0-9]+' \
	--expect 'init: ok 8 - write from a kernel address: -EFAULT \(got -14\)' \
	--expect 'init: ok 9 - unknown system call: -ENOSYS \(got -38\)' \
	--expect 'init: 9 checks, 0 failed' \
	--expect "$KLINE"'user: init\[[0-9]+\] exited with status 0' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed' \
	--expect "$KLINE"'reboot: Power down' \
	--reject 'init: not ok'

hostile_run=""
for i in $(seq 0 13); do
	# Both separators: ';' and '+' (the one GRUB can carry).
	sep=';'
	[ $((i % 2)) = 1 ] && sep='+'
	hostile_run="$hostile_run${hostile_run:+$sep}hostile:$i@$((i % 4))"
done
hostile_expects=(
	--expect 'hostile: syscall abuse: [1-9][0-9]+ checks, 0 wrong'
	--expect "$KLINE"'hostile\[[0-9]+\]: segfault at 100000 ip [0-9a-f]{16} sp [0-9a-f]{16} error 5$'
	--expect "$KLINE"'hostile\[[0-9]+\]: segfault at 101000 ip [0-9a-f]{16} sp [0-9a-f]{16} error 7$'
	--expect "$KLINE"'hostile\[[0-9]+\]: segfault at 7fffffffd[0-9a-f]+ ip 00007fffffffd[0-9a-f]+ sp [0-9a-f]{16} error 15$'
	--expect "$KLINE"'hostile\[[0-9]+\]: segfault at 7f80004[0-9a-f]+ ip 00007f80004[0-9a-f]+ sp [0-9a-f]{16} error 15$'
	--expect "$KLINE"'hostile\[[0-9]+\]: segfault at 100000 ip 0000000000100000 sp [0-9a-f]{16} error 15$'
	--expect "$KLINE"'hostile\[[0-9]+\]: segfault at 7f80004[0-9a-f]+ ip 00007f80004[0-9a-f]+ sp [0-9a-f]{16} error 7$'
	--expect "$KLINE"'traps: hostile\[[0-9]+\] trap invalid opcode ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:0$'
	--expect 'hostile: spun 2 s, IF was still set after popf'
	--expect "$KLINE"'reboot: Power down'
	--reject 'survived its violation'
	--reject 'hostile: FAIL'
	--reject 'Oops|general protection fault: '
)
# cli, hlt, in, out, non-canonical: five general protection faults.
# With UMIP (-cpu max) also SGDT, SIDT and SLDT/SMSW/STR (cases 20-22): three more.
hostile_gp() { # NAME WANT: the log has WANT GP reports
	local n
	n=$(tr -d '\r' <"$LOGDIR/$1.log" |
		grep -cE 'traps: hostile\[[0-9]+\] general protection fault ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:0$')
	echo "$n general protection fault reports (want $2)"
	[ "$n" = "$2" ]
}

boot_test user-hostile-smap --smp 4 --qemu-args "-cpu max" \
	--append "user.run=$hostile_run+hostile:20@1+hostile:21@2+hostile:22@3 shutdown_secs=6" \
	--expect '^\[ *[0-9.]+\] x86/cpu: SMEP enabled, SMAP enabled$' \
	--expect '^\[ *[0-9.]+\] x86/cpu: User Mode Instruction Prevention \(UMIP\) activated$' \
	--expect "$KLINE"'user: 17 processes started, 2 exited, 15 killed' \
	--reject 'hostile: (sgdt|sidt|sldt)' "${hostile_expects[@]}"
run_cmd_test user-hostile-smap-gp hostile_gp user-hostile-smap 8

# QEMU's default CPU has no UMIP: cases 20-22 would succeed, so they are not run.
boot_test user-hostile-nosmap --smp 4 --append "user.run=$hostile_run shutdown_secs=6" \
	--expect "$KLINE"'x86/cpu: SMEP not supported by the CPU, SMAP not supported by the CPU' \
	--expect '^\[ *[0-9.]+\] x86/cpu: UMIP not supported by the CPU$' \
	--expect "$KLINE"'user: 14 processes started, 2 exited, 12 killed' "${hostile_expects[@]}"
run_cmd_test user-hostile-nosmap-gp hostile_gp user-hostile-nosmap 5

# The way into and out of the kernel (Documentation/user-mode.md, "RFLAGS" and "GS").
entry_run="hostile:14@1+spin:2@1+hostile:15@0"
entry_expects=(
	--expect 'hostile: RFLAGS set from user mode: NT AC DF ID$'
	--expect 'hostile: RFLAGS refused at CPL 3: IOPL RF$'
	--expect 'hostile: [1-9][0-9]* system calls with them, RFLAGS unchanged after each$'
	--expect 'spin: pid [0-9]+ done on CPU 1 after'
	--expect "$KLINE"'traps: hostile\[[0-9]+\] trap debug ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:0$'
	--expect "$KLINE"'user: 3 processes started, 2 exited, 1 killed'
	--expect "$KLINE"'reboot: Power down'
	--reject 'hostile: FAIL' --reject 'Oops|general protection fault: '
)
exit_run="hostile:16@0+hostile:17@1+hostile:18@0+hostile:19@1"
exit_gp='traps: hostile\[[0-9]+\] general protection fault'
exit_expects=(
	--expect "$KLINE$exit_gp ip:800000000000 sp:7fffffffd[0-9a-f]+ error:0\$"
	--expect "$KLINE$exit_gp ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:8\$"
	--expect "$KLINE$exit_gp ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:40\$"
	--expect "$KLINE$exit_gp ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:10\$"
	--expect "$KLINE"'user: 4 processes started, 0 exited, 4 killed'
	--expect "$KLINE"'reboot: Power down'
	--reject 'hostile: test return call' --reject 'Oops|general protection fault: '
)
boot_test user-entry-flags --smp 2 --append "user.run=$entry_run shutdown_secs=5" "${entry_expects[@]}"
boot_test user-exit-fault --smp 2 --qemu-args "-cpu max" --append "user.run=$exit_run shutdown_secs=3" \
	"${exit_expects[@]}"

# FPU state per task (Documentation/user-mode.md, "FPU"): on each CPU, one process's registers
# must not reach the next one. Without per-task state, "peek" read "mark"'s MMX marker
# ("fpu: pid N LEAK: mm0 = 0x5a5a3c3c...") and "fwait" died of the zero-divide "pend" left
# pending ("traps: fpu[N] trap coprocessor error", status 136).
fpu_run="fpu:1@0+fpu:2@0+fpu:5@1+fpu:6@1"
boot_test user-fpu-leak --smp 2 --append "user.run=$fpu_run shutdown_secs=4" \
	--expect 'fpu: pid [0-9]+ mark: mm0-mm7 intact on CPU 0 after 100 sleeps' \
	--expect 'fpu: pid [0-9]+ peek: no other process.s marker in mm0-mm7 on CPU 0' \
	--expect 'fpu: pid [0-9]+ left an x87 zero-divide pending on CPU 1' \
	--expect 'fpu: pid [0-9]+ fwait ok on CPU 1' \
	--expect 'user: 4 processes started, 4 exited, 0 killed' \
	--expect 'reboot: Power down' \
	--reject 'LEAK' --reject 'traps: fpu' --reject 'Oops|general protection fault: '
# The same with xmm0-xmm15, a process's own #MF and #XM (SIGFPE, only that process), and x87 +
# SSE (+ AVX) arithmetic in two processes per CPU, checked, while they are switched: on QEMU's
# default CPU (FXSAVE) and on -cpu max (XSAVE with x87|SSE|AVX). Mode 10 shows each CPU's FPU
# control bits: the same everywhere (CPU 0 had "CR0 NE=0 MP=0 ..., CR4 OSFXSR=0 OSXMMEXCPT=0").
fpu_state_run="fpu:3@0+fpu:4@0+fpu:7@1+fpu:8@1+fpu:9@0+fpu:9@0+fpu:9@1+fpu:9@1+fpu:10@0+fpu:10@1"
fpu_state_expects=(
	--expect 'fpu: pid [0-9]+ mark: mm0-mm7, xmm0-xmm15 intact on CPU 0 after 100 sleeps'
	--expect 'fpu: pid [0-9]+ peek: no other process.s marker in mm0-mm7, xmm0-xmm15 on CPU 0'
	--expect 'traps: fpu\[[0-9]+\] trap coprocessor error ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:0$'
	# QEMU's TCG never raises #XM (fpu says so); KVM does.
	--expect 'traps: fpu\[[0-9]+\] trap SIMD coprocessor error ip:7f80004[0-9a-f]+ sp:7fffffffd[0-9a-f]+ error:0$|fpu: pid [0-9]+ no #XM from this CPU: unmasked SSE zero-divide went on, MXCSR 0x1d84$'
	--expect 'user: 10 processes started, (8 exited, 2|9 exited, 1) killed'
	--expect 'reboot: Power down'
	--reject 'LEAK' --reject 'FAIL' --reject 'wrong: [1-9]|[1-9][0-9]* wrong' --reject 'Oops|general protection fault: '
)
boot_test user-fpu-state --smp 2 --append "user.run=$fpu_state_run shutdown_secs=6" \
	--expect 'x86/fpu: x87 FPU will use FXSAVE' \
	--expect 'fpu: CPU 0: CR0 NE=1 MP=1 EM=0 TS=0, CR4 OSFXSR=1 OSXMMEXCPT=1 OSXSAVE=0, XCR0 0x0$' \
	--expect 'fpu: CPU 1: CR0 NE=1 MP=1 EM=0 TS=0, CR4 OSFXSR=1 OSXMMEXCPT=1 OSXSAVE=0, XCR0 0x0$' \
	--expect 'fpu: pid [0-9]+ math on CPU 0: [1-9][0-9]* rounds of x87, SSE, 0 wrong' \
	--expect 'fpu: pid [0-9]+ math on CPU 1: [1-9][0-9]* rounds of x87, SSE, 0 wrong' \
	"${fpu_state_expects[@]}"
boot_test user-fpu-state-xsave --smp 2 --qemu-args "-cpu max" --append "user.run=$fpu_state_run shutdown_secs=6" \
	--expect "x86/fpu: Enabled xstate features 0x7, context size is 832 bytes, using 'standard' format." \
	--expect 'fpu: CPU 0: CR0 NE=1 MP=1 EM=0 TS=0, CR4 OSFXSR=1 OSXMMEXCPT=1 OSXSAVE=1, XCR0 0x7$' \
	--expect 'fpu: CPU 1: CR0 NE=1 MP=1 EM=0 TS=0, CR4 OSFXSR=1 OSXMMEXCPT=1 OSXSAVE=1, XCR0 0x7$' \
	--expect 'fpu: pid [0-9]+ math on CPU 0: [1-9][0-9]* rounds of x87, SSE, AVX, 0 wrong' \
	--expect 'fpu: pid [0-9]+ math on CPU 1: [1-9][0-9]* rounds of x87, SSE, AVX, 0 wrong' \
	"${fpu_state_expects[@]}"
# No x87/MMX/SSE/AVX instruction in the kernel outside fpu.c (it would see or change a process's registers).
run_cmd_test user-kernel-fpu-free "$TESTS_ROOT/scripts/check-fpu-free.sh" "$KERNEL"

rcu_user_expects=()
for c in 1 2 3; do
	rcu_user_expects+=(--expect "${KLINE}rcu: CPU $c: user-mode EQS entries [1-9][0-9]*, ticks from user mode [0-9]+, dynticks [0-9]+")
	rcu_user_expects+=(--expect "${KLINE}rcu: CPU $c: cbs queued [0-9]+ .*dyntick credits [1-9][0-9]*,")
	rcu_user_expects+=(--expect "spin: pid [0-9]+ done on CPU $c after [0-9]+ ms")
done
boot_test user-rcu-smp4 --smp 4 --accel tcg-single --append "user.selftest=1 shutdown_secs=12" \
	--expect "$KLINE"' *# Subtest: user' \
	--expect "$KLINE"' *# [0-9] spinning CPUs: [1-9][0-9]* synchronize_rcu\(\) in 1 s, mean [0-9]+ us' \
	--expect "$KLINE"' *# user: pass:1 fail:0 skip:0 total:1' \
	--expect "$KLINE"'rcu: rcu_sched: [1-9][0-9]* grace periods completed' \
	--expect "$KLINE"'user: 3 processes started, 3 exited, 0 killed' \
	"${rcu_user_expects[@]}" \
	--expect "$KLINE"'reboot: Power down' --reject 'not ok'

# Eight NMIs: under TCG about half land in the kernel (often the tick handler), so at least one
# lands in user mode but for 1 run in ~250.
nmi_sends=()
for i in 1 2 3 4 5 6 7 8; do
	nmi_sends+=(--send '\x0fl' --pause 0.4)
done
boot_test user-nmi-user --smp 2 --qemu-args "-cpu max" --append "user.run=spin:8@1 shutdown_secs=12" \
	--wait 'spin: pid [0-9]+ spinning in user mode on CPU 1' "${nmi_sends[@]}" \
	--wait 'NMI backtrace for cpu 1' \
	--expect "$KLINE"'RIP: 0023:0x7f80004[0-9a-f]+$' \
	--expect 'spin: pid [0-9]+ done on CPU 1' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed' \
	--expect "$KLINE"'reboot: Power down' --reject 'Oops'

boot_test user-sysrq-t --smp 2 --qemu-args "-cpu max" --append "user.run=hello:3@1 shutdown_secs=6" \
	--wait 'hello: pid [0-9]+ on CPU 1, arg 3' --pause 1 --send '\x0ft' --wait 'task:hello' \
	--expect "$KLINE"'task:hello +state:S' \
	--expect 'hello: pid [0-9]+ slept 3 s' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed' \
	--expect "$KLINE"'reboot: Power down' --reject 'Oops'

boot_test user-bad-params --smp 2 \
	--append "init=/sbin/nosuch user.run=nosuch@1;spin:abc@1;spin;hello@0-999;hello:1@1 shutdown_secs=4" \
	--expect "$KLINE"'init=/sbin/nosuch: no such program \(have: init hello hostile spin fpu fuzz\); using none' \
	--expect "$KLINE"'user.run=nosuch@1: no program .nosuch. \(have: init hello hostile spin fpu fuzz\); using none' \
	--expect "user.run=spin:abc@1: ARG 'abc' is not a number; using none" \
	--expect "$KLINE"'user.run=spin: not PROG\[:ARG\]@CPULIST; using none' \
	--expect "user.run=hello@0-999: bad CPU list '0-999' \(CPUs 0-1\); using none" \
	--expect 'hello: pid [0-9]+ on CPU 1, arg 1' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed' \
	--expect "$KLINE"'reboot: Power down'

user_preempt_dir=$(cd "$LOGDIR" && pwd)/build-preempt
if _test_selected user-rcu-tasks-smp4 || _test_selected user-entry-flags-preempt ||
	_test_selected user-exit-fault-preempt; then
	run_cmd_test user-preempt-build build_config "$user_preempt_dir" preempt_defconfig \
		'CONFIG_PREEMPT_RCU=y' 'CONFIG_TASKS_RCU=y' 'CONFIG_USER_SELFTEST=y'
	built_boot_test "$user_preempt_dir" preemptible user-entry-flags-preempt 2 \
		"user.run=$entry_run shutdown_secs=5" --qemu-args "-cpu max" "${entry_expects[@]}"
	built_boot_test "$user_preempt_dir" preemptible user-exit-fault-preempt 2 \
		"user.run=$exit_run shutdown_secs=3" "${exit_expects[@]}"
	built_boot_test "$user_preempt_dir" preemptible user-rcu-tasks-smp4 4 "user.selftest=1 shutdown_secs=12" \
		--accel tcg-single \
		--expect "$KLINE"' *# [0-9] spinning CPUs: [1-9][0-9]* synchronize_rcu\(\) in 1 s, .*synchronize_rcu_tasks\(\) [0-9]+ us' \
		--expect "$KLINE"' *# user: pass:1 fail:0 skip:0 total:1' \
		--expect "$KLINE"'rcu_tasks: [1-9][0-9]* grace periods, mean [0-9]+ ms, longest [0-9]+ ms, most holdouts [1-9]' \
		--expect "$KLINE"'user: 3 processes started, 3 exited, 0 killed' \
		--expect "$KLINE"'reboot: Power down' --reject 'not ok'
fi

# One write() of 1 MiB (hostile case 23, 8192 lines) beside case 24 on the same CPU, which
# sleeps 10 ms at a time and reports its longest wake-up delay: printed synchronously the write
# held CPU 1 for a second or more under TCG (about 90 s on a real 115200-baud line), and case 24's
# wake-up waited for it. Now the write is taken in chunks with cond_resched() between them, the
# process prints at most its per-second budget, and the rest is counted in one "suppressed" line.
boot_test user-output-flood --smp 2 --append "user.run=hostile:23@1+hostile:24@1 shutdown_secs=5" \
	--expect 'hostile: write of 1048576 bytes returned 1048576 in [0-9]+ ms$' \
	--expect "$KLINE"'user: hostile\[[0-9]+\]: [1-9][0-9]* lines of output suppressed \([1-9][0-9]* bytes\)$' \
	--expect 'hostile: longest wake-up delay ([0-9]|[1-9][0-9]|[1-3][0-9][0-9]) ms$' \
	--expect "$KLINE"'user: 2 processes started, 2 exited, 0 killed' \
	--expect "$KLINE"'reboot: Power down' --reject 'rcu: INFO'

# User output never passes for kernel lines: hostile case 25 prints a panic, rcutorture's success
# line and "BUG:", bare and behind a forged timestamp. They are printed without a stamp (and one
# that begins with '[' gets a space), so this test's default rejects (kernel panic, BUG) and
# parse-console.sh judge only the kernel's lines: the boot passes, and parse-console finds no
# success line. Before, user lines were stamped like printk's and both believed them.
forged_parse() { # NAME: parse-console.sh sees neither the forged success nor the forged panic
	local out
	out=$("$TESTS_ROOT/tools/testing/rcutorture/bin/parse-console.sh" "$LOGDIR/$1.log")
	echo "parse-console: $out"
	[ "$out" = "FAIL (expected success): no End of test: SUCCESS line" ]
}
boot_test user-forged-lines --smp 2 --append "user.run=hostile:25@1 shutdown_secs=2" \
	--expect '^Kernel panic - not syncing: forged by a user program$' \
	--expect '^ \[    1\.000000\] Kernel panic - not syncing: forged, with a timestamp$' \
	--expect '^ \[    1\.000000\] rcu-torture:--- End of test: SUCCESS: forged, with a timestamp$' \
	--expect "$KLINE"'user: hostile\[[0-9]+\] exited with status 0$' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed$' --expect "${KLINE}reboot: Power down"
run_cmd_test user-forged-lines-parse forged_parse user-forged-lines

# The NMI backtrace of the entry window (kernel CS, the user's RBP): the test kernel's system call
# 1002 hands arch_show_regs() the registers an NMI at entry_SYSCALL_64+3 would see, with the
# caller's RBP: hostile case 26 passes kernel text, then an unmapped kernel address. Each trace
# must show the RIP only (the walk followed RBP: garbage frames from kernel text, then "BUG:
# unable to handle page fault for address: 00003f0000000008" and a panic, inside what would be
# the NMI). The same call prints the IST stacks of #DF, NMI and #MC (#MC had none).
window_frames() { # NAME: each window trace has exactly one frame line, the RIP's
	tr -d '\r' <"$LOGDIR/$1.log" | awk '
		/x86: test: NMI backtrace in the SYSCALL entry window/ { on = 1; n = 0; next }
		on && /\] +\[<[0-9a-f]+>\]/ { n++; print }
		on && /x86: test: NMI backtrace done/ { on = 0; traces++; if (n != 1) bad++ }
		END { printf "%d window traces, %d with frames beyond the RIP\n", traces, bad
		      exit !(traces == 2 && bad == 0) }'
}
boot_test user-nmi-window --smp 2 --append "user.run=hostile:26@1 shutdown_secs=2" \
	--expect "$KLINE"'x86: test: NMI backtrace in the SYSCALL entry window, RBP 3f0000000000$' \
	--expect "$KLINE"'x86: test: IST stacks: #DF 1, NMI 2, #MC 3$' \
	--expect 'hostile: window backtrace call: 0$' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed$' --expect "${KLINE}reboot: Power down" \
	--reject 'Oops'
run_cmd_test user-nmi-window-frames window_frames user-nmi-window
