# CPU hotplug every 10 ms after 2 s; each offline holds CPU 1 in its dying window 3 ms with
# interrupts off (a reader), then 3 ms with them on (timer readers run there).
rcutorture.onoff_interval=10 rcutorture.onoff_holdoff=2 cpuhp.dying_delay_ms=3
# No rcu_barrier() testers, as before kvm.sh added Linux's default (n_barrier_cbs=4).
rcutorture.n_barrier_cbs=0
