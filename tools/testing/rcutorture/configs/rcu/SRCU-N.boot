rcutorture.torture_type=srcu rcutorture.stat_interval=5
