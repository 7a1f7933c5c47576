nohz_full=1
