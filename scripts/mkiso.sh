#!/usr/bin/env bash
# mkiso.sh - build a small BIOS-bootable GRUB ISO that boots an ELF kernel with multiboot2.
#
# Usage: scripts/mkiso.sh KERNEL.ELF OUT.ISO ["kernel command line"]
#
# The command line is baked into the ISO's grub.cfg as
#     multiboot2 /boot/kernel.elf <cmdline>
# GRUB parses that line with its own shell-like rules before the kernel sees it: words are split on
# blanks (runs of blanks collapse), quotes are removed and GRUB re-quotes any argument that contains
# a space (hello="world 42" reaches the kernel as "hello=world 42"), and $var is expanded. So keep
# command lines made of plain word=value words; this script rejects the characters GRUB would
# rewrite ( " ' \ $ ; | & < > { } # and newlines ) instead of producing a surprising cmdline.
# GRUB 2.06's multiboot2 command passes only the words after the kernel path (no path) to the
# kernel in MBI tag 1 (checked with a test kernel: "-append"-style cmdline, identical to PVH).
#
# Only the i386-pc (BIOS) platform is put on the ISO, with the few modules needed, no fonts,
# locales or themes, and no compression: about 1 MB and ~0.2 s to build. Boot it with
#     scripts/qemu-run.sh --iso OUT.ISO      (SeaBIOS, -cdrom ISO -boot d; qboot cannot boot ISOs)
set -euo pipefail

die() { printf 'mkiso: %s\n' "$*" >&2; exit 1; }

if [ $# -lt 2 ] || [ $# -gt 3 ]; then die "usage: $0 KERNEL.ELF OUT.ISO [\"kernel command line\"]"; fi
kernel=$1
iso=$2
cmdline=${3-}

[ -f "$kernel" ] || die "kernel image '$kernel' not found"
case $cmdline in
*[\"\'\\\$\;\|\&\<\>{}\#]* | *$'\n'*)
	die "command line '$cmdline' contains characters GRUB would rewrite (\" ' \\ \$ ; | & < > { } #)"
	;;
esac

missing=
for tool in grub-mkrescue xorriso mformat; do
	command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
[ -z "$missing" ] || die "missing tool(s):$missing (packages grub-common grub-pc-bin xorriso mtools; run scripts/install-deps.sh)"

grub_dir=${GRUB_PC_DIR:-/usr/lib/grub/i386-pc}
[ -f "$grub_dir/modinfo.sh" ] || die "GRUB BIOS platform files not found in $grub_dir (package grub-pc-bin; run scripts/install-deps.sh)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/mkiso.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/iso/boot/grub"
cp "$kernel" "$tmp/iso/boot/kernel.elf"
# Two spaces collapse to one in GRUB anyway; an empty cmdline leaves no trailing blank.
cat >"$tmp/iso/boot/grub/grub.cfg" <<EOF
set timeout=0
set default=0
menuentry "kernel" {
	multiboot2 /boot/kernel.elf${cmdline:+ $cmdline}
	boot
}
EOF

mkdir -p "$(dirname "$iso")"
# Build into a temp file first so a failed run never leaves a half-written ISO behind.
if ! grub-mkrescue --directory="$grub_dir" \
	--install-modules="normal multiboot2 iso9660 biosdisk part_msdos configfile" \
	--fonts= --locales= --themes= --compress=no \
	-o "$tmp/out.iso" "$tmp/iso" >"$tmp/log" 2>&1; then
	cat "$tmp/log" >&2
	die "grub-mkrescue failed"
fi
mv -f "$tmp/out.iso" "$iso"
