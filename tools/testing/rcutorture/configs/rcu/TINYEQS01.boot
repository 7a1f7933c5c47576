rcutorture.fwd_progress=1 rcutorture.fwd_progress_holdoff=5 rcutorture.n_barrier_cbs=1
rcutorture.fqs_duration=100 rcutorture.fqs_holdoff=3 rcutorture.gp_cond=1 rcutorture.gp_poll=1
