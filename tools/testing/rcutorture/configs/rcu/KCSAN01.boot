# CPU hotplug as BOOST01 has it (Linux's interval, a 5-s holdoff: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
