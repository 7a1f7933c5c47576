rcutorture.torture_type=srcu rcutorture.stat_interval=5
# The srcu_barrier() testers (Linux's SRCU-N has none; they cost little and use srcu_barrier()).
rcutorture.n_barrier_cbs=4
