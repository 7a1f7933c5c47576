rcupdate.rcu_self_test=1
rcutree.rcu_fanout_exact=1
rcu_nocbs=all
