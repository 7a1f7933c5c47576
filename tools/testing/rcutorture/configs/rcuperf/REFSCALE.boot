refscale.scale_runnable=1 refscale.scale_type=rcu
