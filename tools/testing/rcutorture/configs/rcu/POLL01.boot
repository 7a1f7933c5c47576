# The writer polls or expedites; one fake writer mostly expedites (its expedited grace periods
# race the writer's start_poll_synchronize_rcu()), then both fall silent for stutter pauses
# longer than the polled-wait limit (2 x the stall timeout), so that a cookie left incomplete
# at a pause times out. As Linux's, the test starts with a pause (11 s) and runs for the stall
# timeout (5 s) between pauses. No timer readers (they call call_rcu()), no read-exit
# kthreads, no forward-progress flood: nothing else asks for a normal grace period.
rcutorture.gp_poll=1 rcutorture.gp_exp=1 rcutorture.nfakewriters=1
rcutorture.irqreader=0 rcutorture.read_exit_burst=0 rcutorture.fwd_progress=0
rcutorture.stutter=11 rcupdate.rcu_cpu_stall_timeout=5
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers (kvm.sh would otherwise add Linux's default, 4): their call_rcu()s
# would start the normal grace periods this scenario must do without.
rcutorture.n_barrier_cbs=0
