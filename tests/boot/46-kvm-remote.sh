# shellcheck shell=bash
# tests/boot/46-kvm-remote.sh - kvm-remote.sh (kvm.sh's guests on other machines over ssh, GNU
# parallel) and kvm-html.sh (the results page of a run).
# - kvm-remote: a throwaway sshd (temporary host and user keys, 127.0.0.1, a free port, UsePAM
#   no, its own config; started and killed here, the system's ssh untouched) serves the "hosts"
#   of a temporary ssh config: rhost1 (localhost), dying (the same sshd through a ProxyCommand
#   that cuts every connection after 20 s, so the host dies mid-run) and deadhost (a port
#   nothing listens on). kvm-remote.sh "rhost1 dying deadhost" --retry runs TINY01 and FQS01
#   (2 vCPUs, 20 s): deadhost is reported unreachable up front, the guest sent to dying is
#   reported "host dying unreachable" and rerun on rhost1, both verdicts come back PASS in kvm.sh's
#   summary table and layout (GUEST/host: rhost1, no kernel.elf left); then the same kernels
#   again (--reuse, no build) on dead2 (through a ProxyCommand that lets only the first
#   connection through: it dies after the check), without --retry: both guests are "FAIL (host
#   dead2 unreachable)", exit 1, and kvm-recheck.sh keeps those verdicts.
#   Without GNU parallel, rsync or sshd the test is skipped, except under CI=true, where it fails
#   (scripts/install-deps.sh installs them).
# - kvm-html: the page of a run directory made from canned consoles (tests/fixtures/torture/: a
#   TREE02 console with rcutorture.stat_interval=3, TINY01, and a TREE02 copy with an error
#   marker planted) through kvm-recheck.sh, rendered by headless chromium: every guest row is in
#   the DOM, every image loaded (the page's script sets data-images="loaded"), every link and
#   image names a file of the run. Skipped without chromium, failing under CI=true.
# About 3 minutes (two kernel builds and two rounds of 20-s guests on 2 host cores, then 15 s
# for the dead host) plus 15 s for the page.

KVM_REMOTE_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm-remote.sh
KVM_HTML_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm-html.sh
KVM_RECHECK_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm-recheck.sh
REMOTE_SSHD=${SSHD:-/usr/sbin/sshd}

# remote_sshd_start DIR: keys, sshd_config and ssh_config in DIR, sshd on a free port of
# 127.0.0.1 (pid in DIR/sshd.pid). Prints the port.
remote_sshd_start() {
	local dir=$1 port
	rm -rf "$dir"
	mkdir -p "$dir"
	ssh-keygen -q -t ed25519 -N '' -f "$dir/hostkey" &&
		ssh-keygen -q -t ed25519 -N '' -f "$dir/userkey" &&
		cp "$dir/userkey.pub" "$dir/authorized_keys" || return 1
	[ -d /run/sshd ] || mkdir -p /run/sshd 2>/dev/null	# sshd's privilege-separation directory
	for _ in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 20000))
		cat >"$dir/sshd_config" <<-EOF
			Port $port
			ListenAddress 127.0.0.1
			HostKey $dir/hostkey
			AuthorizedKeysFile $dir/authorized_keys
			PidFile $dir/sshd.pid
			UsePAM no
			StrictModes no
			PasswordAuthentication no
			KbdInteractiveAuthentication no
			PermitRootLogin prohibit-password
		EOF
		cat >"$dir/ssh_config" <<-EOF
			Host rhost1
			  HostName localhost
			Host rhost2
			  HostName 127.0.0.1
			Host dying
			  HostName 127.0.0.1
			  ProxyCommand timeout 20 ssh -F $dir/ssh_config -W 127.0.0.1:%p rhost2
			Host dead2
			  HostName 127.0.0.1
			  ProxyCommand $dir/dead2-proxy
			Host deadhost
			  HostName 127.0.0.1
			  Port $((port + 1))
			Host *
			  Port $port
			  User $(id -un)
			  IdentityFile $dir/userkey
			  IdentitiesOnly yes
			  StrictHostKeyChecking no
			  UserKnownHostsFile /dev/null
			  LogLevel ERROR
		EOF
		# dead2 answers the first connection (kvm-remote.sh's check) and no other: a host that
		# dies between the check and its jobs.
		cat >"$dir/dead2-proxy" <<-EOF
			#!/bin/sh
			[ -e "$dir/dead2.used" ] && exit 1
			touch "$dir/dead2.used"
			exec ssh -F "$dir/ssh_config" -W 127.0.0.1:$port rhost2
		EOF
		chmod +x "$dir/dead2-proxy"
		rm -f "$dir/sshd.pid" "$dir/dead2.used"
		"$REMOTE_SSHD" -f "$dir/sshd_config" -E "$dir/sshd.log" || continue
		for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$dir/sshd.pid" ] && break; sleep 0.2; done
		if ssh -F "$dir/ssh_config" -o BatchMode=yes -o ConnectTimeout=5 rhost1 true </dev/null; then
			echo "$port"
			return 0
		fi
		[ -s "$dir/sshd.pid" ] && kill "$(cat "$dir/sshd.pid")" 2>/dev/null
	done
	return 1
}

remote_sshd_stop() { [ -s "$1/sshd.pid" ] && kill "$(cat "$1/sshd.pid")" 2>/dev/null; rm -f "$1/sshd.pid"; }

kvm_remote() {
	local dir=$LOGDIR/remote-ssh out rc=0 run g ok=1
	remote_sshd_start "$dir" >/dev/null || { echo "could not start sshd (see $dir/sshd.log)"; cat "$dir/sshd.log"; return 1; }
	out=$(KVM_REMOTE_SSH="ssh -F $dir/ssh_config" "$KVM_REMOTE_SH" "rhost1 dying deadhost" --retry \
		--configs "TINY01 FQS01" --kconfig CONFIG_NR_CPUS=2 --duration 20s --cpus 2 \
		--build-cache "$TEST_BUILD_CACHE" \
		--bootargs "rcutorture.stat_interval=3" --results "$LOGDIR/kvm-remote-res" 2>&1) || rc=$?
	echo "$out"
	run=$(sed -n 's/^kvm.sh: results in //p' <<<"$out")
	[ $rc = 0 ] && [ -d "$run" ] &&
		grep -Eq '^kvm-remote: host rhost1: [1-9][0-9]* CPUs$' <<<"$out" &&
		grep -Eq '^kvm-remote: host dying: [1-9][0-9]* CPUs$' <<<"$out" &&
		grep -q '^kvm-remote: host deadhost: unreachable: .*[Cc]onnection refused' <<<"$out" &&
		grep -Eq '^kvm-remote: (TINY01|FQS01): host dying unreachable or timed out' <<<"$out" &&
		grep -Eq '^kvm-remote: --retry: (TINY01|FQS01) again on rhost1$' <<<"$out" &&
		grep -Eq '^TINY01 +1 +success +poweroff +[1-9][0-9]* +[0-9.]+ +PASS' <<<"$out" &&
		grep -Eq '^FQS01 +2 +success +poweroff +[1-9][0-9]* +[0-9.]+ +PASS' <<<"$out" &&
		grep -q '^kvm-remote: 2 of 2 guests as expected ' <<<"$out" &&
		[ -f "$run/remote.joblog" ] && [ -f "$run/remote.joblog.retry" ] &&
		[ -s "$run/index.html" ] || ok=0
	for g in TINY01 FQS01; do
		for f in console.log qemu.log qemu.rc qemu-cmd scenario cpus expect .config verdict host; do
			[ -s "$run/$g/$f" ] || { echo "missing $run/$g/$f"; ok=0; }
		done
		[ "$(cat "$run/$g/host" 2>/dev/null)" = rhost1 ] || { echo "$g: not from rhost1"; ok=0; }
		[ ! -e "$run/$g/kernel.elf" ] || { echo "$g: kernel.elf left behind"; ok=0; }
	done
	[ $ok = 1 ] || { remote_sshd_stop "$dir"; return 1; }

	# The same kernels again (--reuse: no build) on dead2, which dies after the check, without
	# --retry: both guests are failures of their host, and kvm-recheck.sh keeps that.
	rc=0
	out=$(KVM_REMOTE_SSH="ssh -F $dir/ssh_config" "$KVM_REMOTE_SH" dead2 --reuse "$run" 2>&1) || rc=$?
	remote_sshd_stop "$dir"
	echo "$out"
	run=$(sed -n 's/^kvm-remote: guests of .* again, results in //p' <<<"$out")
	[ $rc = 1 ] && [ -d "$run" ] &&
		grep -Eq '^kvm-remote: host dead2: [1-9][0-9]* CPUs$' <<<"$out" &&
		grep -q '^kvm-remote: TINY01: host dead2 unreachable or timed out' <<<"$out" &&
		grep -Eq '^TINY01 +1 +success +- +- +- +FAIL \(host dead2 unreachable\)$' <<<"$out" &&
		grep -Eq '^FQS01 +2 +success +- +- +- +FAIL \(host dead2 unreachable\)$' <<<"$out" &&
		grep -q '^kvm-remote: 0 of 2 guests as expected ' <<<"$out" || return 1
	rc=0
	out=$("$KVM_RECHECK_SH" "$run" 2>&1) || rc=$?
	echo "$out"
	[ $rc = 1 ] && [ "$(grep -c 'FAIL (host dead2 unreachable)$' <<<"$out")" = 2 ] &&
		grep -q '^kvm-recheck: 0 of 2 guests as expected' <<<"$out"
}

# The results page from canned consoles, checked in headless chromium.
kvm_html() {
	local run=$LOGDIR/html-run out rc=0 dom f
	rm -rf "$run"
	mkdir -p "$run/TREE02" "$run/TINY01" "$run/TREE02.2"
	echo rcu >"$run/torture"
	tr -d '\r' <"$TESTS_ROOT/tests/fixtures/torture/TREE02-stat3.console.log" >"$run/TREE02/console.log"
	tr -d '\r' <"$TESTS_ROOT/tests/fixtures/torture/TINY01.console.log" >"$run/TINY01/console.log"
	sed '0,/rcu-torture: rtc:/s/\(rcu-torture: rtc:.*\)/\1\n[   10.000000] rcu-torture: !!! planted <error> \& marker/' \
		"$run/TREE02/console.log" >"$run/TREE02.2/console.log"
	for g in TREE02 TINY01 TREE02.2; do
		echo 0 >"$run/$g/qemu.rc"
		echo "${g%.2}" >"$run/$g/scenario"
		echo success >"$run/$g/expect"
		echo "CONFIG_SMP=y" >"$run/$g/.config"
	done
	echo 2 >"$run/TREE02/cpus" && echo 2 >"$run/TREE02.2/cpus" && echo 1 >"$run/TINY01/cpus"
	out=$("$KVM_RECHECK_SH" "$run" 2>&1) || rc=$?
	echo "$out"
	{ [ $rc = 1 ] && grep -q "^kvm-recheck: results page: $run/index.html" <<<"$out" &&
		grep -q 'index.html' <<<"$("$KVM_HTML_SH" --help)" && ! "$KVM_HTML_SH" 2>/dev/null; } || return 1
	grep -q 'planted &lt;error&gt; &amp; marker' "$run/index.html" || { echo "offending line not escaped/shown"; return 1; }
	{ [ -s "$run/TREE02/stats.png" ] && [ -s "$run/TREE02.2/stats.png" ]; } || { echo "no statistics plot"; return 1; }
	# Every link and image of the page names a file of the run.
	while read -r f; do
		[ -f "$run/$f" ] || { echo "broken link or image: $f"; return 1; }
	done < <(grep -o '\(href\|src\)="[^"]*"' "$run/index.html" | sed 's/^[a-z]*="//; s/"$//')
	{ [ "$(grep -c 'href="[A-Z0-9.]*/console.log"' "$run/index.html")" = 3 ] &&
		[ "$(grep -c 'href="[A-Z0-9.]*/.config"' "$run/index.html")" = 3 ]; } || { echo "links missing"; return 1; }
	dom=$(timeout 120 chromium --headless --disable-gpu --no-sandbox --virtual-time-budget=5000 \
		--dump-dom "file://$run/index.html" 2>"$LOGDIR/kvm-html.chromium.log")
	echo "$dom" >"$LOGDIR/kvm-html.dom"
	grep -q '<body data-images="loaded">' <<<"$dom" || { echo "images not all loaded (or no script run): $(grep -o '<body[^>]*>' <<<"$dom")"; return 1; }
	[ "$(grep -c '<img ' <<<"$dom")" -ge 3 ] || { echo "fewer than 3 images in the DOM"; return 1; }
	grep -Eq '<tr class="pass guest" id="guest-TREE02"><td>TREE02</td>.*<td class="num">[1-9][0-9]*</td>.*PASS' <<<"$dom" &&
		grep -q '<tr class="pass guest" id="guest-TINY01">' <<<"$dom" &&
		grep -Eq '<tr class="fail guest" id="guest-TREE02.2">.*!!!=1.*FAIL \(expected success\)' <<<"$dom" &&
		grep -q '<p id="totals">2 of 3 guests as expected.</p>' <<<"$dom"
}

remote_missing() { echo "$1 not installed, and CI=true: scripts/install-deps.sh should have installed it"; return 1; }

missing=""
for t in parallel rsync ssh ssh-keygen "$REMOTE_SSHD"; do command -v "$t" >/dev/null 2>&1 || missing="$missing $t"; done
if [ -z "$missing" ]; then
	run_cmd_test kvm-remote kvm_remote
elif [ "${CI:-}" = true ]; then
	run_cmd_test kvm-remote remote_missing "${missing# }"
else
	skip_test kvm-remote "${missing# } not installed (scripts/install-deps.sh)"
fi
if command -v chromium >/dev/null 2>&1; then
	run_cmd_test kvm-html kvm_html
elif [ "${CI:-}" = true ]; then
	run_cmd_test kvm-html remote_missing chromium
else
	skip_test kvm-html "chromium not installed (scripts/install-deps.sh)"
fi
