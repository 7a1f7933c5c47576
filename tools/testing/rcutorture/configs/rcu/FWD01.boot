rcutorture.fwd_progress=1
rcutree.jiffies_till_first_fqs=1 rcutree.jiffies_till_next_fqs=1
# Forward progress is what FWD01 is for: start the first test after 3 s, not Linux's 60 (the short
# matrix runs 20 s, and the test stops a quarter of the run before its end), and a 10-s stall
# timeout, so the cond_resched() loop (a quarter to all of the stall timeout) ends in time:
# FWD01.features wants "rcu_torture_fwd_prog: tested [1-9]".
rcutorture.fwd_progress_holdoff=3 rcupdate.rcu_cpu_stall_timeout=10
# CPU hotplug as Linux's scenario has it (interval as Linux, holdoff 5 s rather than 30: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
