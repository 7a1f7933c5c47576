# CPU hotplug every 50 ms after 2 s (Linux's TREE scenarios: 200 ms after 30 s), so that a 20-s run
# takes CPUs down and up while readers report at every unlock.
rcutorture.onoff_interval=50 rcutorture.onoff_holdoff=2
# Two readers (the default at 4 CPUs is 3: two leave the vCPUs room for the IPIs on a busy host).
rcutorture.nreaders=2
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
