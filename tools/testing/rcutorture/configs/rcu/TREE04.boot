rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_first_fqs=0 rcutree.jiffies_till_next_fqs=1
rcutree.blimit=3 rcutree.qhimark=100 rcutree.qlowmark=10
