# shellcheck shell=bash
# tests/boot/05-grub.sh - the release boot path: the same kernel.elf in a GRUB multiboot2 ISO
# (scripts/mkiso.sh), booted by SeaBIOS from -cdrom on TCG (GRUB takes ~55 s under this host's KVM).
# GRUB 2.06 passes the words after the kernel path as the MB2 cmdline (no path), so the echo is
# the same as for a direct boot. Keep ISO command lines free of quotes and spaces inside values.

iso_boot_test grub-smp2 --smp 2 --append "shutdown_secs=1" \
	--expect "Command line: (.* )?shutdown_secs=1( |$)" \
	--expect "smp: Brought up 1 node, 2 CPUs?$" \
	--expect "reboot: Power down"
