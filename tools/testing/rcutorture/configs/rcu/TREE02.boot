rcutorture.fqs_duration=100 rcutorture.fqs_holdoff=3
