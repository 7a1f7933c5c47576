rcutorture.torture_type=srcud rcutorture.stat_interval=5
