rcu_nocbs=0-3 rcu_nocb_poll
rcutorture.fwd_progress=1 rcutorture.fwd_progress_holdoff=3 rcupdate.rcu_cpu_stall_timeout=10
rcutree.jiffies_till_first_fqs=1 rcutree.jiffies_till_next_fqs=1
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
