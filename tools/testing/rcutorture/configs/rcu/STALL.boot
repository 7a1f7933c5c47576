rcutorture.stall_cpu=6 rcutorture.stall_cpu_holdoff=2 rcutorture.stutter=0 rcupdate.rcu_cpu_stall_timeout=3
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
