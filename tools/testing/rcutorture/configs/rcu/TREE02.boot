rcutorture.fwd_progress=2
