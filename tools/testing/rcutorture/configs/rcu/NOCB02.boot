rcu_nocbs=0-3 rcu_nocb_poll
rcutorture.fwd_progress=1 rcutorture.fwd_progress_holdoff=3 rcupdate.rcu_cpu_stall_timeout=10
rcutree.jiffies_till_first_fqs=1 rcutree.jiffies_till_next_fqs=1
