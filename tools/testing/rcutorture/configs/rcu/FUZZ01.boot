# One fuzz slot per CPU, restarted for the whole run (each life: 1500 calls, then a fatal last
# operation); seed 1 (replay: the same line). The trace dump stays off: hours of user-mode
# entries would fill the console.
user.run=fuzz:1@0-3 user.respawn=1000000
rcupdate.rcu_cpu_stall_timeout=10
