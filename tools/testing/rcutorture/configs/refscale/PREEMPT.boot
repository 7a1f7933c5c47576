refscale.scale_runnable=1 refscale.shutdown=1 refscale.verbose=0
