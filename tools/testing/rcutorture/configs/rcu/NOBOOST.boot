# test_boost=2: test even though the flavor cannot boost. The grace-period kthread must outrank
# the spinners (kthread_prio >= 2) or the test is skipped, as in Linux. No stutter and a window
# every 2 s, so that every window of a short run has readers to starve; 4 s windows stay well
# below the 21 s stall timeout, so no stall warning muddles the verdict.
rcutorture.test_boost=2 rcutree.kthread_prio=2
rcutorture.stutter=0 rcutorture.test_boost_interval=2 rcutorture.test_boost_duration=4
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
