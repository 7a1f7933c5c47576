rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_first_fqs=0 rcutree.jiffies_till_next_fqs=1
rcutree.blimit=3 rcutree.qhimark=100 rcutree.qlowmark=10
# Expedited-only writers (Linux's TREE04 does not do this; its many-level tree is another
# scenario's job here): the writer and fake writers use synchronize_rcu_expedited() alone, so
# the expedited machinery's per-leaf reporting across TREE04's two leaves carries the whole
# update side, while timer readers' call_rcu() and rcu_barrier() keep normal GPs going too.
rcutorture.gp_exp=1
