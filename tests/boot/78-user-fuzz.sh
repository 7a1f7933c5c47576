# shellcheck shell=bash
# tests/boot/78-user-fuzz.sh - the system-call fuzzer (user/fuzz.c, Documentation/user-mode.md
# "The fuzzer") and the process accounting it relies on.
#   user-exit-status    hostile case 27 exits with status 200: counted as an exit, not a kill
#                       (the kernel counted every status >= 128 as a kill: "1 processes started,
#                       0 exited, 1 killed", a kill no report explained)
#   user-fuzz-smp4      -cpu max (SMEP, SMAP, UMIP), 4 CPUs, two fuzz slots per CPU, 9 restarts
#                       each (80 processes, done in 1.5 s at host load average 11; 10 s given):
#                       random system calls with boundary arguments and RFLAGS/segment states,
#                       then one fatal instruction, int N, TF or exit each.
#                       The kernel stays alive to the planned power-off, prints no warning, oops
#                       or RCU splat, and no result is one the kernel must never give
#   user-fuzz-smp4-base the same machine without user programs, 2 s: the pages and kmalloc objects
#                       a boot keeps
#   user-fuzz-smp4-kills  from the logs: every kill has its one-line report (reports = the power-off
#                       line's "killed"), every process ended (started = exited + killed = 80),
#                       tables were printed, and the fuzz run keeps no more pages (slab pages
#                       aside: the caches keep what 8 processes at once needed) and kmalloc objects
#                       than the base run, 2 of each allowed (a page a process kept would be 80)
#   user-fuzz-replay    the replay rule: two boots with the same user.run= and user.respawn= (2 CPUs,
#                       two slots each, 4 lives a slot) print the same fuzz lines, pids aside: every
#                       process seed, table row, total and last operation
# About 30 s on 2 host cores.

boot_test user-exit-status --smp 2 --append "user.run=hostile:27@1 shutdown_secs=2" \
	--expect "$KLINE"'user: hostile\[[0-9]+\] exited with status 200$' \
	--expect "$KLINE"'user: 1 processes started, 1 exited, 0 killed' \
	--expect "$KLINE"'reboot: Power down'

fuzz_slots=8
fuzz_respawn=9
boot_test user-fuzz-smp4 --smp 4 --qemu-args "-cpu max" --timeout 90 \
	--append "user.run=fuzz:1@0-3+fuzz:1@0-3 user.respawn=$fuzz_respawn shutdown_secs=10" \
	--expect "fuzz: pid [0-9]+ on CPU 3, slot 1 life $fuzz_respawn: seed 1, process seed [0-9a-f]+\$" \
	--expect 'fuzz:   - unknown +[0-9]+ +0  ENOSYS:[0-9]+$' \
	--expect "$KLINE"'reboot: Power down' \
	--reject 'fuzz: FAIL' \
	--reject "$KLINE"'(Oops|general protection fault: |suspicious RCU usage|INFO: rcu|detected stalls|Call Trace)'

boot_test user-fuzz-smp4-base --smp 4 --qemu-args "-cpu max" --append "shutdown_secs=2" \
	--expect "$KLINE"'reboot: Power down'

# mm_kept LOG: "PAGES OBJECTS" still allocated at power-off, slab pages not counted.
mm_kept() {
	tr -d '\r' <"$1" | grep -oE "$KLINE"'mm: .* ([0-9]+) page allocs, ([0-9]+) frees, .* ([0-9]+) live \([0-9]+ large, ([0-9]+) slab pages\)' |
		sed -E 's/.* ([0-9]+) page allocs, ([0-9]+) frees, .* ([0-9]+) live \([0-9]+ large, ([0-9]+) slab pages\)/\1 \2 \3 \4/' |
		{ read -r a f live slab && echo "$((a - f - slab)) $live"; }
}

fuzz_kills() { # NAME BASE: every kill reported, every process ended, nothing kept
	local log="$LOGDIR/$1.log" reports stats started exited killed want pages objs bpages bobjs
	want=$((fuzz_slots * (fuzz_respawn + 1)))
	reports=$(tr -d '\r' <"$log" | grep -cE "$KLINE"'(traps: fuzz\[[0-9]+\] |fuzz\[[0-9]+\]: segfault at )')
	stats=$(tr -d '\r' <"$log" | grep -oE "$KLINE"'user: [0-9]+ processes started, [0-9]+ exited, [0-9]+ killed' |
		sed -E 's/.*user: ([0-9]+) processes started, ([0-9]+) exited, ([0-9]+) killed/\1 \2 \3/')
	read -r started exited killed <<<"$stats"
	read -r pages objs <<<"$(mm_kept "$log")"
	read -r bpages bobjs <<<"$(mm_kept "$LOGDIR/$2.log")"
	echo "kill reports $reports; started $started, exited $exited, killed $killed (want $want started)"
	echo "kept at power-off: $pages pages (slab aside), $objs kmalloc objects; without user programs: $bpages, $bobjs"
	echo "tables: $(tr -d '\r' <"$log" | grep -cE '^fuzz: +- unknown')"
	[ -n "$started" ] && [ "$reports" = "$killed" ] && [ "$started" = "$want" ] &&
		[ $((exited + killed)) = "$started" ] && [ "$killed" -gt 0 ] &&
		[ "$(tr -d '\r' <"$log" | grep -cE '^fuzz: +- unknown')" -gt 0 ] &&
		[ -n "$pages" ] && [ -n "$bpages" ] && [ "$pages" -le $((bpages + 2)) ] &&
		[ "$objs" -le $((bobjs + 2)) ]
}
run_cmd_test user-fuzz-smp4-kills fuzz_kills user-fuzz-smp4 user-fuzz-smp4-base

replay_run="user.run=fuzz:77@0-1+fuzz:77@0-1 user.respawn=3 shutdown_secs=5"
for r in a b; do
	boot_test user-fuzz-replay-$r --smp 2 --append "$replay_run" --reject 'fuzz: FAIL' \
		--expect "$KLINE"'user: 16 processes started, [0-9]+ exited, [0-9]+ killed'
done
fuzz_lines() { # LOG: its fuzz lines, pids removed, sorted (processes print in any order)
	tr -d '\r' <"$1" | grep -E '^fuzz: ' | sed -E 's/pid [0-9]+/pid -/' | sort
}
fuzz_replay() {
	local a b
	a=$(fuzz_lines "$LOGDIR/user-fuzz-replay-a.log")
	b=$(fuzz_lines "$LOGDIR/user-fuzz-replay-b.log")
	echo "$(wc -l <<<"$a") fuzz lines, $(grep -c 'process seed' <<<"$a") processes, $(grep -c ' last: ' <<<"$a") last operations"
	diff <(echo "$a") <(echo "$b") | head -20
	[ "$(grep -c 'process seed' <<<"$a")" = 16 ] && [ "$(grep -c ' last: ' <<<"$a")" = 16 ] &&
		[ "$a" = "$b" ]
}
run_cmd_test user-fuzz-replay fuzz_replay
