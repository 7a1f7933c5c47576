rcutorture.irqreader=1 rcutorture.n_barrier_cbs=1
