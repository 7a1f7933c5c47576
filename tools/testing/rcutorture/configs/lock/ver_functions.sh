# shellcheck shell=bash
# ver_functions.sh - locktorture's boot defaults, as Linux's configs/lock/ver_functions.sh gives
# them (sourced by kvm.sh --torture lock, which calls per_version_boot_params for every guest).
#
#   locktorture_param_onoff ARGS CONFIG   CPU hotplug every 3 s after 30 s (Linux's), when the
#                                         kernel has CONFIG_HOTPLUG_CPU=y and ARGS set no
#                                         *torture.onoff_* (so --bootargs
#                                         locktorture.onoff_interval=0 runs without hotplug)
#   per_version_boot_params ARGS CONFIG SECS
#                                         those, stat_interval (Linux's 15, less for runs under 225 s:
#                                         torture_stat_interval), shutdown_secs=SECS and
#                                         verbose=1; ARGS last, so that a scenario's own value
#                                         wins (Linux puts ARGS first)

locktorture_param_onoff() {
	if ! bootparam_hotplug_cpu "$1" && configfrag_hotplug_cpu "$2"; then
		echo locktorture.onoff_interval=3 locktorture.onoff_holdoff=30
	fi
}

per_version_boot_params() {
	echo "$(locktorture_param_onoff "$1" "$2") locktorture.stat_interval=$(torture_stat_interval "$3") locktorture.shutdown_secs=$3 locktorture.verbose=1 $1"
}
