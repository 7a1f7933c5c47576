# CPU hotplug as TREE03 has it (Linux's interval, a 5-s holdoff: short runs).
rcutorture.onoff_interval=200 rcutorture.onoff_holdoff=5
