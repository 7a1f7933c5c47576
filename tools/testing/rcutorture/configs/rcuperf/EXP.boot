rcuperf.perf_runnable=1 rcuperf.gp_exp=1
