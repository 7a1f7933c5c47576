# shellcheck shell=bash
# tests/boot/46-kvm-remote.sh - kvm-html.sh, the results page of a kvm.sh run (index.html).
# - kvm-html: the page of a run directory made from canned consoles (tests/fixtures/torture/: a
#   TREE02 console with rcutorture.stat_interval=3, TINY01, and a TREE02 copy with an error
#   marker planted) through kvm-recheck.sh, rendered by headless chromium: every guest row is in
#   the DOM, every image loaded (the page's script sets data-images="loaded"), every link and
#   image names a file of the run. Skipped without chromium, failing under CI=true.
# About 15 s.

KVM_HTML_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm-html.sh
KVM_RECHECK_SH=$TESTS_ROOT/tools/testing/rcutorture/bin/kvm-recheck.sh
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

if command -v chromium >/dev/null 2>&1; then
	run_cmd_test kvm-html kvm_html
elif [ "${CI:-}" = true ]; then
	run_cmd_test kvm-html remote_missing chromium
else
	skip_test kvm-html "chromium not installed (scripts/install-deps.sh)"
fi
