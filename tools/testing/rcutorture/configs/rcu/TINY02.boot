rcupdate.rcu_self_test=1
