# Our own choice for Linux's nohz_full=... line: fqs bursts and rcu_barrier() tests over all levels.
rcutorture.fqs_duration=100 rcutorture.fqs_holdoff=3 rcutorture.n_barrier_cbs=4
