rcutorture.torture_type=srcud rcutorture.stat_interval=5
# The call_srcu() flood of the forward-progress test, first after 3 s as in TREE05 (Linux runs it
# on SRCU-N with fwd_progress=3), with a 10-s stall timeout as its yardstick.
rcutorture.fwd_progress_holdoff=3 rcupdate.rcu_cpu_stall_timeout=10
