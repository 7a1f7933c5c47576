rcutree.gp_preinit_delay=3 rcutree.gp_init_delay=3 rcutree.gp_cleanup_delay=3
rcutorture.n_barrier_cbs=4
# CPU hotplug: Linux has 200 ms after 30 s; every 20 ms after 2 s here, so that the 20-s short
# matrix does hundreds of operations (ONOFF01.features wants them).
rcutorture.onoff_interval=20 rcutorture.onoff_holdoff=2
