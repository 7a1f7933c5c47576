rcutree.rcu_fanout_leaf=2 rcutree.jiffies_till_first_fqs=0 rcutree.jiffies_till_next_fqs=1
rcutree.blimit=3 rcutree.qhimark=100 rcutree.qlowmark=10
# Expedited-only writers (Linux's TREE04 does not do this; its many-level tree is another
# scenario's job here): the writer and fake writers use synchronize_rcu_expedited() alone, so
# the expedited machinery's per-leaf reporting across the two leaves carries the whole
# update side, while timer readers' call_rcu() and rcu_barrier() keep normal GPs going too.
rcutorture.gp_exp=1
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
