rcutorture.fqs_duration=100 rcutorture.fqs_holdoff=3
# CPU hotplug as Linux's scenario has it (interval as Linux, holdoff 5 s rather than 30: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
