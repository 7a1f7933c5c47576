rcutorture.torture_type=srcu rcutorture.stat_interval=5
# The srcu_barrier() testers (Linux's SRCU-N has none; they cost little and use srcu_barrier()).
rcutorture.n_barrier_cbs=4
# Refresh the per-CPU request marks at the end of every grace period (mask 0), so that the
# counter-wrap check, which Linux's default mask almost never reaches, runs all the time.
srcutree.counter_wrap_check=0
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
