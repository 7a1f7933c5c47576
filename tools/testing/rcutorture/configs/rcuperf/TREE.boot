rcuperf.perf_runnable=1
