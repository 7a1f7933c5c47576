rcutree.kthread_prio=2
# A boost-test window every 2 s rather than Linux's 7: our runs last tens of seconds, not hours,
# and stutter pauses (5 s of every 10) leave a window without readers to starve.
rcutorture.test_boost_interval=2
# CPU hotplug as Linux's scenario has it (interval as Linux, holdoff 5 s rather than 30: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
# Ours: every CPU but 0 goes down first, so even the short matrix's 20 s reach the state BOOST01
# once hung in (issue 28; BOOST01.features checks the power-off line's "CPU 0 alone N times").
torture.onoff_sweep=1
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
