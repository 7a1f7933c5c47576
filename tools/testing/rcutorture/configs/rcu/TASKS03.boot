rcutorture.torture_type=tasks rcutorture.nreaders=8 rcutorture.nfakewriters=8
rcutorture.n_barrier_cbs=2 rcutorture.stutter=3
