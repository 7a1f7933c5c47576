rcu_nocbs=1-3 rcutree.rcu_nocb_leader_stride=2
rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_first_fqs=0 rcutree.jiffies_till_next_fqs=1
rcutree.blimit=3 rcutree.qhimark=100 rcutree.qlowmark=10
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
