rcuperf.perf_runnable=1 rcuperf.gp_async=1 rcuperf.gp_async_max=100
