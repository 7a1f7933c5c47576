rcutorture.torture_type=tasks rcutorture.nreaders=8 rcutorture.nfakewriters=8
rcutorture.n_barrier_cbs=2 rcutorture.stutter=3
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
