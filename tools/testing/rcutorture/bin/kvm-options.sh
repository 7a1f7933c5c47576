# shellcheck shell=bash
# shellcheck disable=SC2034,SC2154 # kvm.sh's variables, set here and there
# kvm-options.sh - the options of Linux 6.1's kvm.sh that kvm.sh takes besides its own, and the
# words for those it does not implement (sourced by kvm.sh after its defaults; not run by itself).
# What each option does here, and where it differs from Linux, is in kvm.sh --help and
# tools/testing/rcutorture/README.md ("Linux's kvm.sh options").
#
#   need_arg OPT [VALUE...]  exit 2 unless OPT has a value (one that does not begin with "--")
#   kconfig_arg V            --kconfig V: check V as Linux does, add it to the earlier ones
#   torture_arg T            --torture T: a suite with a scenario directory configs/T/ (rcu,
#                            lock, scf, rcuperf, rcuscale, refscale); Linux's X* suites are
#                            reported as not implemented
#   jitter_arg "N [S [P]]"   --jitter: N jitter processes (-1: one per --cpus), S the longest
#                            sleep and P the longest spin, in microseconds (Linux's form)
#   dryrun_arg WORD          --dryrun's optional Linux word (batches|scenarios|sched|script):
#                            returns 0 when WORD is one (it is consumed)
#   linux_option OPT [VALUE...]  one of Linux's options kvm.sh implements; sets opt_shift to the
#                            number of values it took (0 or 1)
#   linux_unimplemented OPT  exit 2 with "kvm.sh: OPT: Linux option not implemented here
#                            (REASON)" for Linux's options that are not; returns 1 for others
#   linux_options_check      after the options: their consequences (memory, gdb, trust-make...)
#   gdb_check                after the scenarios are known: --gdb takes one guest
#   guest_timeout            the host-side limit of a guest in seconds (0: none, with --gdb)
#   gdb_banner KERNEL        Linux's instructions to attach gdb to a guest started with --gdb
#   record_run RUNDIR        write what kvm-again.sh needs to boot the run's kernels again

need_arg() {
	[ $# -ge 2 ] && [[ $2 != --* ]] || die "$1 needs an argument (try --help)"
}

kconfig_arg() {
	local w re='^(#CHECK#)?CONFIG_[A-Z0-9_]+=([ynm]|-?[0-9]+|0x[0-9a-fA-F]+|"[^"]*")$'
	for w in $1; do
		[[ $w =~ $re ]] || die "--kconfig: '$w' is not CONFIG_NAME=VALUE (y, n, m, a number or a \"string\")"
	done
	kconfig="$kconfig${kconfig:+ }$1"
}

torture_arg() {
	case $1 in
	X*) die "--torture $1: Linux option not implemented here (no out-of-tree X* suites: every suite needs its configs/ directory and judge)" ;;
	esac
	# A suite is a scenario directory, configs/<suite>/ (Linux's rule too).
	[[ $1 =~ ^[a-z]+$ ]] && [ -d "$KVM/configs/$1" ] ||
		die "bad --torture '$1' ($(cd "$KVM/configs" && ls -d -- */ | tr -d / | tr '\n' ' ' | sed 's/ $//' | sed 's/ /, /g'))"
}

jitter_arg() {
	local -a w
	[[ $1 =~ ^-?[0-9]+( +[0-9]+){0,2}\ *$ ]] || die "bad --jitter '$1' (N [ maxsleep-us [ maxspin-us ] ])"
	read -r -a w <<<"$1"
	jitter=${w[0]}
	[ "$jitter" -ge -1 ] || die "bad --jitter '$1' (N >= -1)"
	[ -z "${w[1]-}" ] || jitter_sleep_us=${w[1]}
	[ -z "${w[2]-}" ] || jitter_spin_us=${w[2]}
	[ "$jitter_spin_us" -ge 1000 ] || die "bad --jitter '$1' (a spin of at least 1000 us)"
}

dryrun_mode=""
dryrun_arg() {
	case $1 in batches | scenarios | sched | script) dryrun_mode=$1; return 0 ;; esac
	return 1
}

opt_shift=0
linux_option() {
	opt_shift=0
	case $1 in
	--allcpus) cpus=$(nproc 2>/dev/null || echo 2) ;;
	--defconfig)
		need_arg "$@"
		[ -f "$SRCTREE/arch/x86_64/configs/$2" ] ||
			die "--defconfig: no arch/x86_64/configs/$2 (there are: $(cd "$SRCTREE/arch/x86_64/configs" && ls -- *defconfig | tr '\n' ' '))"
		defconfig=$2 opt_shift=1 ;;
	--gdb) gdb=1 ;;
	--memory)
		need_arg "$@"
		[[ $2 =~ ^[0-9]+[MG]?$ ]] || die "bad --memory '$2' (megabytes, or a number with M or G)"
		memory=$2 opt_shift=1 ;;
	--remote) remote=1 ;;
	--shutdown-grace)
		need_arg "$@"
		[[ $2 =~ ^[0-9]+$ ]] || die "bad --shutdown-grace '$2' (seconds)"
		shutdown_grace=$2 opt_shift=1 ;;
	--trust-make) trust_make=1 ;;
	--datestamp)
		need_arg "$@"
		[[ $2 =~ ^[a-zA-Z0-9._/-]+$ ]] && [[ $2 != /* ]] && [[ $2 != *..* ]] ||
			die "bad --datestamp '$2' (a relative path of letters, digits, . _ / -)"
		datestamp=$2 opt_shift=1 ;;
	--kmake-arg | --kmake-args) need_arg "$@"; kmake_args="$kmake_args${kmake_args:+ }$2" opt_shift=1 ;;
	--qemu-cmd)
		need_arg "$@"
		[[ $2 == *qemu-system-* ]] || die "bad --qemu-cmd '$2' (a qemu-system-... command)"
		export QEMU=$2	# scripts/qemu-run.sh's QEMU binary
		opt_shift=1 ;;
	--debug-info | --debuginfo) echo "kvm.sh: $1: nothing to add: kernels here always carry debug information (-g)" ;;
	--no-affinity) ;;	# what kvm.sh always does: guests are never bound to host CPUs
	--no-initrd) ;;	# there is no initrd: the user space is linked into the kernel
	esac
}

linux_unimplemented() {
	local why
	case $1 in
	--bootimage) why="one boot image, kernel.elf, booted directly by QEMU" ;;
	--interactive) why="guests' consoles go to console.log; boot one by hand with scripts/qemu-run.sh or make run" ;;
	--mac) why="guests have no network device" ;;
	*) return 1 ;;
	esac
	die "$1: Linux option not implemented here ($why)"
}

linux_options_check() {
	# --trust-make: reuse earlier builds and let make's dependencies decide what to rebuild
	# (Linux's default is make clean first; ours, a new build directory for every run).
	if [ $trust_make = 1 ]; then
		[ -n "$build_cache" ] || build_cache=$results/build-cache
		echo "kvm.sh: --trust-make: kernels kept in $build_cache/, make rebuilds what changed"
	fi
	[ -z "$dryrun_mode" ] || echo "kvm.sh: --dryrun $dryrun_mode: Linux option not implemented here (no batches: guests start as host CPUs free up); the plan instead:"
	if [ "$jitter" = -1 ]; then
		if [[ $cpus =~ ^[1-9][0-9]*$ ]]; then jitter=$cpus; else jitter=$(nproc 2>/dev/null || echo 2); fi
	fi
	launch_extra=()
	[ -z "$memory" ] || launch_extra+=(--mem "$memory")
	[ $gdb = 0 ] || launch_extra+=(--gdb)
	return 0
}

gdb_check() {
	[ $gdb = 0 ] || [ ${#runs[@]} = 1 ] ||
		die "--gdb: only one scenario may run (the --configs list is: ${runs[*]})"
}

guest_timeout() { if [ $gdb = 1 ]; then echo 0; else echo $((secs + grace)); fi; }

gdb_banner() { # KERNEL
	echo "kvm.sh: Waiting for you to attach a debug session, for example:"
	echo "kvm.sh:     gdb $1"
	echo 'kvm.sh: After symbols load and the "(gdb)" prompt appears:'
	echo "kvm.sh:     target remote :1234"
	echo "kvm.sh:     continue"
}

record_run() { # RUNDIR
	echo "$accel" >"$1/accel"
	echo "$qemu_args" >"$1/qemu_args"
	echo "$memory" >"$1/memory"
	echo "$secs" >"$1/duration"
	echo "$grace" >"$1/grace"
	echo "$torture" >"$1/torture_suite"	# Linux's name for kvm.sh's torture file
	echo "$0 $kvm_cmdline" >>"$1/log"	# Linux's log starts with the command line
	[ $build_only = 0 ] || echo "--buildonly" >>"$1/log"
}
