rcutorture.stall_cpu=6 rcutorture.stall_cpu_holdoff=2 rcutorture.stutter=0 rcupdate.rcu_cpu_stall_timeout=3
