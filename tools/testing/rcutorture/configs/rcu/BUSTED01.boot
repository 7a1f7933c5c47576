rcutorture.torture_type=busted
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
# No shuffler: with PREEMPT_NONE a reader is caught only while the writer runs on the other
# CPU, and the shuffler keeps one of the two CPUs idle two thirds of the time. Under a loaded
# host its all-CPU windows fell inside stutter pauses and a 20-s run caught nothing.
rcutorture.shuffle_interval=0
