rcutorture.torture_type=srcud rcutorture.stat_interval=5
# The call_srcu() flood of the forward-progress test, first after 3 s as in FWD01 (Linux runs it
# on SRCU-N with fwd_progress=3), with a 10-s stall timeout as its yardstick.
rcutorture.fwd_progress_holdoff=3 rcupdate.rcu_cpu_stall_timeout=10
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
