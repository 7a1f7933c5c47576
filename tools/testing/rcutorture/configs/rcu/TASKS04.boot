rcutorture.torture_type=tasks rcutorture.nreaders=4
# CPU hotplug as BOOST01 has it (Linux's interval, a 5-s holdoff: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
# Each move of a task between CPUs busy-waits 200 us between leaving one runqueue and joining the
# next (test-only, CONFIG_SCHED_MOVE_DELAY): readers moved mid-read sit in that window longer.
sched.move_delay_us=200
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
