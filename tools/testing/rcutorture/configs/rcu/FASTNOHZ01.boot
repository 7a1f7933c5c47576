# The default delays (4 jiffies, 6 s lazy); stutter makes the CPUs idle with callbacks queued.
rcutorture.stutter=3 rcutorture.n_barrier_cbs=4
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
