#!/usr/bin/env bash
# build-linux.sh - build the Linux 6.1 kernel that perf-vs-linux.sh measures ours against: Debian's
# linux-source-6.1, HZ=1000 and PREEMPT_NONE (our defconfig's shape; FULL for the preemptible
# comparison), rcuscale, refscale and rcutorture built in, booting under QEMU -kernel with its
# console on ttyS0 and powering itself off when a test ends. Everything lands under $LNX (default
# $TMPDIR/lnx), outside the repository; nothing of Linux is copied into it.
#
# Usage: build-linux.sh [NONE|FULL] [TASKS] [CPUS=N] [ONLINE]  prints the bzImage path on its last line
# TASKS: also Linux's three Tasks flavors (RCU_EXPERT, FORCE_TASKS_RCU, FORCE_TASKS_RUDE_RCU,
# FORCE_TASKS_TRACE_RCU, as its scenarios TASKS02/RUDE01/TRACE01 force them), in a build
# directory of its own (build-hz1000-none-tasks), for perf-vs-linux.sh's Tasks kinds.
# CPUS=N: CONFIG_NR_CPUS=N instead of 64 (CPUS=256 for scale-curve.sh's guests of up to 255 CPUs;
# CONFIG_RCU_FANOUT and CONFIG_RCU_FANOUT_LEAF stay at Linux's defaults, 64 and 16), in a build
# directory of its own (build-hz1000-none-cpus256).
# ONLINE: also SYSFS, and an init ("onliner", onliner.c here) that brings online, one after
# another, each CPU that maxcpus= left offline, printing "onliner: [SECONDS] cpu online N" per CPU
# and "onliner: [SECONDS] done, CPUs written N" at the end (build directory suffix -online). For 255-CPU guests
# under single-threaded TCG: until the clocksource switch (fs_initcall, after SMP bring-up) every
# online CPU keeps a periodic 1000 Hz tick even when idle; QEMU re-arms each vCPU's APIC timer and
# kicks its one vCPU thread for every tick, and from ~150 CPUs the boot CPU gets almost no time
# (performance.md, 2026-12-07 17:08-18:28 UTC). Booted with maxcpus=64, the rest come online
# after the switch, when idle CPUs stop their ticks. SYSFS also brings SLUB_DEBUG (built, off unless
# slub_debug=) and the ORC unwinder: nothing of RCU.
# Needs: apt-get install linux-source-6.1 bc flex bison libelf-dev libssl-dev (done if missing,
# as root). About 2-3 minutes of `make -j2` on a quiet 2-core host, 13 on a busy one.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

PREEMPT=NONE TASKS= CPUS=64 ONLINE=
usage() { echo "usage: build-linux.sh [NONE|FULL] [TASKS] [CPUS=N] [ONLINE]" >&2; exit 2; }
for a in "$@"; do
	case $a in
	NONE | FULL) PREEMPT=$a ;;
	TASKS) TASKS=$a ;;
	ONLINE) ONLINE=$a ;;
	CPUS=[0-9]*) CPUS=${a#CPUS=}; [ "$CPUS" -ge 2 ] && [ "$CPUS" -le 512 ] || usage ;;
	*) usage ;;
	esac
done
LNX=${LNX:-${TMPDIR:-/tmp}/lnx}
SRC=$LNX/linux-source-6.1
OUT=$LNX/build-hz1000-$(tr A-Z a-z <<<"$PREEMPT")${TASKS:+-tasks}
[ "$CPUS" = 64 ] || OUT=$OUT-cpus$CPUS
OUT=$OUT${ONLINE:+-online}
mkdir -p "$LNX"

if [ ! -d "$SRC" ]; then
	if [ ! -f /usr/src/linux-source-6.1.tar.xz ]; then
		[ "$(id -u)" = 0 ] || { echo "build-linux.sh: linux-source-6.1 missing; install it as root" >&2; exit 1; }
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q linux-source-6.1 bc flex bison \
			libelf-dev libssl-dev >/dev/null
	fi
	tar -C "$LNX" -xf /usr/src/linux-source-6.1.tar.xz
fi

# Linux's tests are kthreads, but a kernel without an init program panics before the system is
# "running" (rcuscale's writers wait for that): a built-in initramfs holds one that just sleeps.
cat >"$LNX/sleeper.c" <<'C'
/* The whole user space of the comparison kernel: sleep until the tests power the guest off. */
void _start(void)
{
	for (;;)
		__asm__ volatile("mov $34, %%eax\n\tsyscall" ::: "rax", "rcx", "r11", "memory"); /* pause() */
}
C
gcc -Os -static -nostdlib -fno-pie -no-pie -o "$LNX/sleeper" "$LNX/sleeper.c"
printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\nfile /init %s 0755 0 0\n' \
	"$LNX/sleeper" >"$LNX/initramfs.list"
initramfs=$LNX/initramfs.list
if [ -n "$ONLINE" ]; then
	cp "$HERE/onliner.c" "$LNX/onliner.c"
	gcc -Os -static -nostdlib -fno-pie -no-pie -fno-stack-protector -ffreestanding -fno-builtin \
		-o "$LNX/onliner" "$LNX/onliner.c"
	initramfs=$LNX/initramfs-online.list
	printf 'dir /dev 0755 0 0\nnod /dev/console 0600 0 0 c 5 1\nfile /init %s 0755 0 0\n' \
		"$LNX/onliner" >"$initramfs"
fi

cd "$SRC"
mk() { nice -n 19 make -s ARCH=x86_64 O="$OUT" "$@"; }
mk tinyconfig
preempt_opts=(--disable PREEMPT_NONE --disable PREEMPT_VOLUNTARY --disable PREEMPT)
if [ "$PREEMPT" = FULL ]; then preempt_opts+=(--enable PREEMPT); else preempt_opts+=(--enable PREEMPT_NONE); fi
# The options, and why: 64-bit SMP guests of up to 64 CPUs (CPUS=N); a timestamped serial console; HZ and
# dyntick-idle as ours; ACPI with PCI for the S5 power-off; KALLSYMS for initcall_blacklist=
# (which keeps the two tests not wanted from starting); -O2 and SLUB as a normal kernel, not
# tinyconfig's size options; the three RCU tests, which need DEBUG_KERNEL.
scripts/config --file "$OUT/.config" \
	--enable 64BIT --enable SMP --set-val NR_CPUS "$CPUS" \
	--enable PRINTK --enable PRINTK_TIME --set-val LOG_BUF_SHIFT 18 --enable BUG \
	--enable TTY --enable SERIAL_8250 --enable SERIAL_8250_CONSOLE \
	--enable BINFMT_ELF --enable BLK_DEV_INITRD --set-str INITRAMFS_SOURCE "$initramfs" \
	--disable HZ_100 --disable HZ_250 --disable HZ_300 --enable HZ_1000 \
	--disable HZ_PERIODIC --disable NO_HZ_FULL --enable NO_HZ_IDLE --enable HIGH_RES_TIMERS \
	"${preempt_opts[@]}" \
	--enable PCI --enable ACPI --enable KALLSYMS \
	--disable CC_OPTIMIZE_FOR_SIZE --enable CC_OPTIMIZE_FOR_PERFORMANCE \
	--disable SLOB --enable SLUB --enable DEBUG_KERNEL \
	--enable RCU_SCALE_TEST --enable RCU_REF_SCALE_TEST --enable RCU_TORTURE_TEST
if [ -n "$TASKS" ]; then
	scripts/config --file "$OUT/.config" --enable RCU_EXPERT --enable FORCE_TASKS_RCU \
		--enable FORCE_TASKS_RUDE_RCU --enable FORCE_TASKS_TRACE_RCU
fi
[ -z "$ONLINE" ] || scripts/config --file "$OUT/.config" --enable SYSFS
mk olddefconfig
want=(SMP HZ_1000 NO_HZ_IDLE ACPI PCI KALLSYMS SERIAL_8250_CONSOLE RCU_SCALE_TEST RCU_REF_SCALE_TEST RCU_TORTURE_TEST)
[ -z "$TASKS" ] || want+=(TASKS_RCU TASKS_RUDE_RCU TASKS_TRACE_RCU)
[ -z "$ONLINE" ] || want+=(SYSFS)
if [ "$PREEMPT" = FULL ]; then want+=(PREEMPT PREEMPT_RCU); else want+=(PREEMPT_NONE); fi
for o in "${want[@]}"; do
	grep -qx "CONFIG_$o=y" "$OUT/.config" || { echo "build-linux.sh: CONFIG_$o did not stick" >&2; exit 1; }
done
grep -qx "CONFIG_NR_CPUS=$CPUS" "$OUT/.config" || { echo "build-linux.sh: CONFIG_NR_CPUS=$CPUS did not stick" >&2; exit 1; }
mk -j2 bzImage
echo "$OUT/arch/x86/boot/bzImage"
