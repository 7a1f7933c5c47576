rcuscale.perf_runnable=1 rcuscale.shutdown=1 rcuscale.verbose=1
