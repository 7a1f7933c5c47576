# Our own choice for Linux's nohz_full=... line: fqs bursts and rcu_barrier() tests over all levels.
rcutorture.fqs_duration=100 rcutorture.fqs_holdoff=3 rcutorture.n_barrier_cbs=4
# CPU hotplug as Linux's scenario has it (interval as Linux, holdoff 5 s rather than 30: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
