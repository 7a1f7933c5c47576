# shellcheck shell=bash
# ver_functions.sh - scftorture's boot defaults, as Linux's configs/scf/ver_functions.sh gives
# them (sourced by kvm.sh --torture scf, which calls per_version_boot_params for every guest).
#
#   scftorture_param_onoff ARGS CONFIG    CPU hotplug every 1000 jiffies after 30 s (Linux's),
#                                         when the kernel has CONFIG_HOTPLUG_CPU=y and ARGS set
#                                         no *torture.onoff_*
#   per_version_boot_params ARGS CONFIG SECS
#                                         those, stat_interval (Linux's 15, less for runs under 225 s:
#                                         torture_stat_interval), shutdown_secs=SECS and
#                                         verbose=1; ARGS last, so that a scenario's own value
#                                         wins (Linux puts ARGS first)

scftorture_param_onoff() {
	if ! bootparam_hotplug_cpu "$1" && configfrag_hotplug_cpu "$2"; then
		echo scftorture.onoff_interval=1000 scftorture.onoff_holdoff=30
	fi
}

per_version_boot_params() {
	echo "$(scftorture_param_onoff "$1" "$2") scftorture.stat_interval=$(torture_stat_interval "$3") scftorture.shutdown_secs=$3 scftorture.verbose=1 $1"
}
