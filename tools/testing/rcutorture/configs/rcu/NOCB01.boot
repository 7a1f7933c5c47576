rcu_nocbs=1-3 rcutree.rcu_nocb_leader_stride=2
rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_first_fqs=0 rcutree.jiffies_till_next_fqs=1
rcutree.blimit=3 rcutree.qhimark=100 rcutree.qlowmark=10
