# One fuzz slot per CPU, restarted for the whole run (each life: 1500 calls, then a fatal last
# operation); seed 1 (replay: the same line). The trace dump stays off: hours of user-mode
# entries would fill the console.
user.run=fuzz:1@0-3 user.respawn=1000000
rcupdate.rcu_cpu_stall_timeout=10
# No forward-progress flood (DEBUG01 has it): on a loaded host (load average 16 on 2 cores) the
# flood's check failed in 4 of 11 floods of a 30-min FUZZ01 run, and as often with the fuzzer
# replaced by one hello process (grace periods of 1.5-4.5 s while the vCPUs waited for the host):
# here it judged the host, not the fuzzer.
rcutorture.fwd_progress=0
# No CPU hotplug here (kvm.sh would otherwise add Linux's default, onoff_interval=1000).
rcutorture.onoff_interval=0
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
