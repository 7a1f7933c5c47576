# The forward-progress flood tracks tens of thousands of queued heads at once (the tracker's pool
# grows), rcu_barrier() testers queue heads without call_rcu(); the trace buffers are printed at
# power-off. First flood after 3 s, as FWD01, so a 20-s run sees one.
rcutorture.fwd_progress=1 rcutorture.fwd_progress_holdoff=3 rcupdate.rcu_cpu_stall_timeout=10
rcutorture.n_barrier_cbs=4 rcutree.trace_dump_at_shutdown=1
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
