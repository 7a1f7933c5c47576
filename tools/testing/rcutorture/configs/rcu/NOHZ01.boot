nohz_full=1-3 rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_sched_qs=5
rcutorture.shuffle_interval=1 rcutorture.n_barrier_cbs=4
