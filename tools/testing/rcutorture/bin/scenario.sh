# shellcheck shell=bash
# scenario.sh - how kvm.sh reads a scenario as Linux's kvm.sh does (sourced, not run): guest CPU
# count (Linux: configNR_CPUS.sh, configfrag_boot_cpus, configfrag_boot_maxcpus), the per-flavor
# boot defaults (Linux: configs/rcu/ver_functions.sh, per_version_boot_params), the #CHECK#
# lines (Linux: configcheck.sh), Kconfig symbols this kernel lacks, and scenarios marked as not
# runnable here.
#
#   scen_not_runnable FILE      print the reason and succeed when the fragment FILE has a line
#                               "# kvm.sh: not runnable: REASON" (a feature this kernel lacks)
#   boot_param ARGS NAME        the last value of NAME=VALUE among the words of ARGS (NAME whole,
#                               so nr_cpus= is not maxcpus=)
#   scen_cpus FRAG ARGS ALLOT   the guest's CPU count (-smp) before any --cpus trim: 1 when FRAG
#                               turns CONFIG_SMP off, else FRAG's CONFIG_NR_CPUS, else
#                               max(ALLOT, maxcpus= of ARGS); then at most nr_cpus= of ARGS
#   rcu_boot_defaults ARGS CONFIG SECS
#                               Linux's per_version_boot_params for rcutorture: onoff (1000 ms,
#                               after 30 s) when CONFIG has CONFIG_HOTPLUG_CPU=y and ARGS no
#                               torture.onoff_*, n_barrier_cbs=4 and stat_interval unless ARGS
#                               set them, shutdown_secs=SECS, test_no_idle_hz=1, verbose=1; ARGS
#                               last, so a scenario's own value wins. stat_interval is Linux's 15
#                               for runs of 225 s and more, else SECS/15, at least 3
#                               (torture_stat_interval): the one place kvm.sh decides it
#   bootparam_hotplug_cpu ARGS  Linux's (functions.sh): ARGS set some *torture.onoff_* parameter
#   configfrag_hotplug_cpu CONFIG
#                               Linux's: CONFIG (a .config here) has CONFIG_HOTPLUG_CPU=y; the
#                               two serve a suite's configs/<suite>/ver_functions.sh, whose
#                               per_version_boot_params ARGS CONFIG SECS kvm.sh calls as Linux's
#   kconfig_report NAME FRAG CONFIG SRCTREE
#                               one line each, when there is something to say: the settings of
#                               FRAG whose symbol this kernel does not have ("not in this kernel";
#                               =n of a missing symbol means what Linux means and is not listed),
#                               those olddefconfig did not keep, and the #CHECK# lines CONFIG
#                               contradicts (Linux's "improperly set")

scen_not_runnable() {
	local r
	r=$(sed -n 's/^# kvm\.sh: not runnable: //p' "$1" 2>/dev/null | head -1)
	[ -n "$r" ] || return 1
	echo "$r"
}

boot_param() {
	local w v=""
	for w in $1; do
		case $w in "$2="*) v=${w#"$2="} ;; esac
	done
	echo "$v"
}

scen_cpus() {
	local frag=$1 args=$2 allot=$3 smp n mc nr
	smp=$(sed -n 's/^CONFIG_SMP=\(.\).*/\1/p; s/^# CONFIG_SMP is not set.*/n/p' <<<"$frag" | tail -1)
	if [ "$smp" = n ]; then echo 1; return; fi
	n=$(sed -n 's/^CONFIG_NR_CPUS=\([0-9]*\).*/\1/p' <<<"$frag" | tail -1)
	if [ -z "$n" ]; then
		# Linux takes the host CPUs it may use (cpus2use.sh). A TCG vCPU needs no host CPU of
		# its own: never fewer than the maxcpus= CPUs the scenario boots with (TREE01: 8).
		n=$allot
		mc=$(boot_param "$args" maxcpus)
		[ -z "$mc" ] || [ "$mc" -le "$n" ] || n=$mc
	fi
	nr=$(boot_param "$args" nr_cpus)
	[ -z "$nr" ] || [ "$nr" -ge "$n" ] || n=$nr
	echo "$n"
}

# A torture test's own default stat_interval is 60 s: a one-minute run would plot one point. A
# statistics line about every fifteenth of the run, 3 to 15 s apart (Linux's kvm.sh: always 15).
# rcutorture's defaults below and the suites' configs/<suite>/ver_functions.sh use it.
torture_stat_interval() { # SECS
	local si=$(($1 / 15))
	[ $si -ge 3 ] || si=3
	[ $si -le 15 ] || si=15
	echo "$si"
}

rcu_boot_defaults() {
	local args=$1 config=$2 secs=$3 d=""
	if ! grep -q 'torture\.onoff_' <<<"$args" && grep -qx 'CONFIG_HOTPLUG_CPU=y' "$config" 2>/dev/null; then
		d="rcutorture.onoff_interval=1000 rcutorture.onoff_holdoff=30 "
	fi
	grep -q 'rcutorture\.n_barrier_cbs' <<<"$args" || d+="rcutorture.n_barrier_cbs=4 "
	grep -q 'rcutorture\.stat_interval=' <<<"$args" || d+="rcutorture.stat_interval=$(torture_stat_interval "$secs") "
	echo "${d}rcutorture.shutdown_secs=$secs rcutorture.test_no_idle_hz=1 rcutorture.verbose=1 $args"
}

bootparam_hotplug_cpu() { grep -q 'torture\.onoff_' <<<"$1"; }
configfrag_hotplug_cpu() { grep -qx 'CONFIG_HOTPLUG_CPU=y' "$1" 2>/dev/null; }

# Every symbol some Kconfig file of SRCTREE defines, one a line (cached per source tree).
kconfig_symbols() {
	if [ -z "${_kconfig_syms-}" ]; then
		_kconfig_syms=$(find "$1" -path "$1/tools" -prune -o -name 'Kconfig*' -type f -print0 |
			xargs -0 sed -n 's/^[[:space:]]*\(menu\)\{0,1\}config[[:space:]]\{1,\}\([A-Za-z0-9_]*\).*/\2/p' | sort -u)
	fi
	echo "$_kconfig_syms"
}

# Does CONFIG say CONFIG_SYM=VAL? =n holds when CONFIG has the symbol off or leaves it out (its
# dependencies unmet), as in Linux's configcheck.sh.
config_holds() { # SYM VAL CONFIG
	if [ "$2" = n ]; then
		! grep -q "^CONFIG_$1=" "$3"
	else
		grep -qxF -- "CONFIG_$1=$2" "$3"
	fi
}

kconfig_report() {
	local name=$1 frag=$2 config=$3 syms line sym val missing="" lost="" bad=""
	syms=$(kconfig_symbols "$4")
	while read -r line; do
		[[ $line =~ ^CONFIG_([A-Za-z0-9_]+)=(.*)$ ]] || [[ $line =~ ^#\ CONFIG_([A-Za-z0-9_]+)\ is\ not\ set ]] || continue
		sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]:-n}
		if ! grep -qxF "$sym" <<<"$syms"; then
			[ "$val" = n ] || missing+="CONFIG_$sym=$val "
			continue
		fi
		config_holds "$sym" "$val" "$config" || lost+="CONFIG_$sym=$val "
	done < <(grep -E '^(CONFIG_[A-Za-z0-9_]+=|# CONFIG_[A-Za-z0-9_]+ is not set)' <<<"$frag" | sort -u)
	# Linux's configcheck.sh: "#CHECK#CONFIG_X=v" must be what .config says (=n: not set or absent).
	while read -r line; do
		[[ $line =~ ^#CHECK#CONFIG_([A-Za-z0-9_]+)=(.*)$ ]] || continue
		sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
		config_holds "$sym" "$val" "$config" || bad+=":CONFIG_$sym=$val: "
	done <<<"$frag"
	[ -z "$missing" ] || echo "kvm.sh: $name: not in this kernel: ${missing% }"
	[ -z "$lost" ] || echo "kvm.sh: $name: not in .config after olddefconfig: ${lost% }"
	[ -z "$bad" ] || echo "kvm.sh: $name: #CHECK# improperly set: ${bad% }"
	return 0
}
