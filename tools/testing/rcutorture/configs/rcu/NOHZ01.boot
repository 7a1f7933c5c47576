nohz_full=1-3 rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_sched_qs=5
rcutorture.shuffle_interval=1 rcutorture.n_barrier_cbs=4
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
