#!/usr/bin/env bash
# install-deps.sh - install the Debian packages that the build and the tests need (idempotent).
#
# Usage: scripts/install-deps.sh [--check] [--quiet]
#   --check   only report missing packages; exit 1 if any are missing, never install
#   --quiet   print nothing when everything is present
# Checks each package with dpkg-query; only when something is missing does it run apt-get update
# and apt-get install -y --no-install-recommends of the missing ones (through sudo when not root).
# Works without a terminal (CI=true, stdin closed). Extra packages: EXTRA_PACKAGES="a b".
set -euo pipefail

# Package                 why
#  gcc binutils make      kernel build (host gcc/ld, no cross compiler)
#  libc6-dev              host unit tests (gcc only recommends it)
#  python3-kconfiglib     make *config (Kconfiglib; run with /usr/bin/python3)
#  qemu-system-x86        QEMU; pulls qemu-system-data with /usr/share/qemu/qboot.rom
#  grub-pc-bin grub-common xorriso mtools   GRUB ISO (scripts/mkiso.sh)
#  clang libclang-rt-dev  libFuzzer fuzzers in tests/host (the runtime is only a Recommends of clang)
#  gnuplot-nox            rcuperf / torture plots
#  gdb                    qemu-run.sh's report on a guest that overran its time (QEMU's threads)
#  spin                   the Promela model of RCU's handshakes (tools/model/rcu, make model)
#  sparse                 `make C=1` / `make C=2` (__rcu, __iomem checks; make check runs it)
#  parallel rsync openssh-client openssh-server
#                         kvm-remote.sh (GNU parallel ships guests over ssh, rsync moves their
#                         files) and its test, which serves two "hosts" from a throwaway sshd
#  chromium               the results-page test: index.html rendered in a headless browser
packages=(gcc binutils make libc6-dev python3-kconfiglib qemu-system-x86 qemu-system-data
	grub-pc-bin grub-common xorriso mtools clang libclang-rt-dev gnuplot-nox gdb
	spin sparse parallel rsync openssh-client openssh-server chromium)
read -r -a extra <<<"${EXTRA_PACKAGES:-}"
packages+=("${extra[@]}")

check_only=0
quiet=0
for arg in "$@"; do
	case $arg in
	--check) check_only=1 ;;
	--quiet) quiet=1 ;;
	-h | --help)
		sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"
		exit 0
		;;
	*)
		echo "install-deps: unknown argument '$arg' (try --help)" >&2
		exit 2
		;;
	esac
done

if ! command -v dpkg-query >/dev/null 2>&1; then
	# Not Debian: the best we can do is check for the tools themselves.
	missing_tools=
	for tool in gcc ld make qemu-system-x86_64 grub-mkrescue xorriso mformat clang gnuplot spin sparse; do
		command -v "$tool" >/dev/null 2>&1 || missing_tools="$missing_tools $tool"
	done
	python3 -c 'import kconfiglib' 2>/dev/null || missing_tools="$missing_tools python3-kconfiglib"
	if [ -n "$missing_tools" ]; then
		echo "install-deps: no dpkg here; install these by hand:$missing_tools" >&2
		exit 1
	fi
	[ "$quiet" = 1 ] || echo "install-deps: all packages present"
	exit 0
fi

missing=()
for pkg in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
	[ "$quiet" = 1 ] || echo "install-deps: all packages present"
	exit 0
fi

echo "install-deps: missing: ${missing[*]}" >&2
if [ "$check_only" = 1 ]; then
	exit 1
fi

sudo=()
if [ "$(id -u)" != 0 ]; then
	if command -v sudo >/dev/null 2>&1; then
		sudo=(sudo -n)
	else
		echo "install-deps: not root and no sudo; run as root: apt-get install ${missing[*]}" >&2
		exit 1
	fi
fi

export DEBIAN_FRONTEND=noninteractive
apt_opts=(-q -o Dpkg::Use-Pty=0 -o DPkg::Lock::Timeout=300)
echo "install-deps: apt-get update" >&2
if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" update </dev/null >&2; then
	echo "install-deps: apt-get update failed" >&2
	exit 1
fi
echo "install-deps: apt-get install ${missing[*]}" >&2
if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y \
	--no-install-recommends "${missing[@]}" </dev/null >&2; then
	echo "install-deps: apt-get install failed" >&2
	exit 1
fi
echo "install-deps: installed ${missing[*]}" >&2
