#!/usr/bin/env bash
# kvm-html.sh - write RUN_DIR/index.html, the results page of a kvm.sh (or kvm-remote.sh,
# kvm-recheck.sh) run: self-contained (no network; images are PNG files next to it, links are
# relative), so the run directory can be copied anywhere and opened in a browser.
#
# Usage: tools/testing/rcutorture/bin/kvm-html.sh RUN_DIR
#
# The page holds the summary table, one row per guest: scenario, CPUs, host (kvm-remote.sh),
# expectation, how the guest ended, duration (guest uptime), GPs (the grace periods rcutorture's
# writer waited for: the version number of its last statistics line, as Linux's kvm-recheck-rcu.sh
# counts "N GPs", and the same number the plot below ends at), core GPs (every grace period the
# RCU core completed, normal + expedited, from the power-off line: more, as the other users of
# RCU start theirs too), errors (!!! markers, BUG, WARNING, stall lines, rcutorture's error counters and the
# first offending console line), the verdict, and links to its console.log, .config and
# console.log.diags. Then, for rcutorture runs, one plot per guest (GUEST/stats.png, data in
# GUEST/stats.dat) of rcutorture's periodic statistics lines ("rcu-torture: rtc: ... ver: N ...
# rta: A ... rtf: F", every rcutorture.stat_interval seconds): the writer's version count (one per
# grace period waited for) and the elements retired but not yet freed (rta - rtf: updates
# waiting for a grace period, i.e. callbacks outstanding) over guest time; for rcuperf runs the
# latency histograms of rcuperf-report.sh (GUEST/histogram.png, RUN_DIR/histogram.png; made here
# when missing) and a CDF per guest (GUEST/cdf.png from GUEST/durations.ns). Without gnuplot the
# page says so and shows no plots. The page's own script marks <body data-images="loaded"> once
# every image has loaded (data-images="broken" otherwise), for a headless-browser check.
set -uo pipefail

KVM=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
PARSE=$KVM/bin/parse-console.sh
# shellcheck source=functions.sh
. "$KVM/bin/functions.sh"

case ${1-} in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
{ [ $# = 1 ] && [ -d "$1" ]; } || { echo "usage: kvm-html.sh RUN_DIR" >&2; exit 2; }
run=$(cd "$1" && pwd -P)
torture=$(cat "$run/torture" 2>/dev/null || echo rcu)
have_gnuplot=0
command -v gnuplot >/dev/null 2>&1 && have_gnuplot=1

esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' <<<"$1"; }

mapfile -t guests < <(guest_dirs "$run")

# png_plot BASE TITLE <<SCRIPT: BASE.png from the gnuplot commands on stdin (800x400, the title
# given), gnuplot's messages in BASE.gnuplot.log; fails without gnuplot or without a picture.
png_plot() {
	[ $have_gnuplot = 1 ] || return 1
	{ printf 'set terminal png size 800,400\nset output "%s.png"\nset title "%s"\n' "$1" "$2"; cat; } |
		gnuplot >"$1.gnuplot.log" 2>&1 || return 1
	[ -s "$1.png" ]
}

# rcutorture statistics over time: "SECONDS VER OUTSTANDING" a line.
stats_plot() { # GUESTDIR
	local d=$1 g
	g=$(basename "$d")
	[ -f "$d/console.log" ] || return 1
	tr -d '\r' <"$d/console.log" |
		sed -n 's/^\[ *\([0-9.]*\)\] [a-z_-]*-torture: rtc: .* ver: \([0-9]*\) .* rta: \([0-9]*\) .* rtf: \([0-9]*\) .*/\1 \2 \3 \4/p' |
		awk 'BEGIN { print "# guest_seconds versions(grace_periods) outstanding(rta-rtf)" }
			{ print $1, $2, $3 - $4 }' >"$d/stats.dat"
	[ "$(wc -l <"$d/stats.dat")" -gt 1 ] || { rm -f "$d/stats.dat"; return 1; }
	png_plot "$d/stats" "$g: rcutorture statistics ($(($(wc -l <"$d/stats.dat") - 1)) samples)" <<-GP
		set xlabel "guest time (s)"; set ylabel "GPs (rcutorture writer versions)"
		set y2label "callbacks outstanding (rta - rtf)"; set y2tics; set ytics nomirror
		set key top left; set grid; set yrange [0:*]; set y2range [0:*]
		plot "$d/stats.dat" using 1:2 with linespoints title "GPs (writer versions, as the table)" axes x1y1, \
		     "$d/stats.dat" using 1:3 with linespoints title "callbacks outstanding" axes x1y2
	GP
}

# rcuperf: a CDF of the grace-period latencies of one guest.
cdf_plot() { # GUESTDIR
	local d=$1 g
	g=$(basename "$d")
	[ -s "$d/durations.ns" ] || return 1
	sort -n "$d/durations.ns" | awk '{ v[NR] = $1 } END {
		print "# latency_us fraction";
		for (i = 1; i <= NR; i++) printf "%.3f %.5f\n", v[i] / 1000, i / NR }' >"$d/cdf.dat"
	png_plot "$d/cdf" "$g: grace-period latency CDF ($(wc -l <"$d/durations.ns") samples)" <<-GP
		set xlabel "latency (us)"; set ylabel "fraction of samples <= latency"
		set yrange [0:1]; set grid; set key bottom right
		plot "$d/cdf.dat" using 1:2 with steps title "$g"
	GP
}

if perf_suite "$torture" && [ ${#guests[@]} -gt 0 ]; then
	need=0
	for d in "${guests[@]}"; do [ -f "$d/histogram.dat" ] || need=1; done
	[ $need = 0 ] || "$KVM/bin/rcuperf-report.sh" "${guests[@]}" >/dev/null 2>&1
fi

html=$run/index.html
{
	cat <<-EOF
		<!DOCTYPE html>
		<html lang="en"><head><meta charset="utf-8">
		<title>$(esc "$torture run $(basename "$run")")</title>
		<style>
		body { font-family: sans-serif; margin: 1em 2em; }
		table { border-collapse: collapse; } td, th { border: 1px solid #aaa; padding: 2px 6px; vertical-align: top; }
		th { background: #eee; } tr.pass td.verdict { background: #cfc; } tr.fail td.verdict { background: #fcc; }
		td.num { text-align: right; } code { font-size: 90%; } img { max-width: 100%; }
		</style></head>
		<body data-images="pending">
		<h1>$(esc "$torture run $(basename "$run")")</h1>
		<p>$(esc "$run") &mdash; ${#guests[@]} guest(s), $(date -u '+%Y-%m-%d %H:%M:%S UTC')</p>
		<h2>Summary</h2>
		<table id="summary">
		<tr><th>guest</th><th>scenario</th><th>CPUs</th><th>host</th><th>expect</th><th>guest ended</th><th>duration (s)</th><th title="grace periods rcutorture's writer waited for (its last ver:), as plotted below">GPs</th><th title="every grace period the RCU core completed: normal + expedited">core GPs</th><th>errors</th><th>verdict</th><th>files</th></tr>
	EOF
	npass=0
	for d in "${guests[@]}"; do
		g=$(basename "$d")
		name=$(cat "$d/scenario" 2>/dev/null) || name=${g%.[0-9]*}
		v=$(cat "$d/verdict" 2>/dev/null || echo "(not judged)")
		cls=fail
		[[ $v == PASS* ]] && cls=pass npass=$((npass + 1))
		st=""
		[ -f "$d/console.log" ] && st=$("$PARSE" --stats "$d/console.log")
		kv() { sed -n "s/^$1=//p" <<<"$st"; }
		up=$(kv uptime)
		gps=- core=-
		if [ "$torture" = rcu ]; then
			[ -z "$(kv ver)" ] || gps=$(kv ver)
			[ -z "$(kv gps)" ] || core=$(($(kv gps) + $(kv exp_gps | grep . || echo 0)))
		fi
		errs=""
		for k in bang bug warning stall rtmbe rtbe rtbke rtbre rtbf; do
			n=$(kv "$k")
			[ -n "$n" ] && [ "$n" != 0 ] && errs="$errs${errs:+, }${k/#bang/!!!}=$n"
		done
		off=""
		[[ $v != PASS* ]] && [ -s "$d/console.log.diags" ] && off=$(sed -n 2p "$d/console.log.diags")
		files=""
		for f in console.log .config console.log.diags qemu-cmd; do
			[ -f "$d/$f" ] && files="$files <a href=\"$g/$f\">$f</a>"
		done
		printf '<tr class="%s guest" id="guest-%s"><td>%s</td><td>%s</td><td class="num">%s</td><td>%s</td><td>%s</td><td>%s</td><td class="num">%s</td><td class="num">%s</td><td class="num">%s</td><td>%s%s</td><td class="verdict">%s</td><td>%s</td></tr>\n' \
			"$cls" "$(esc "$g")" "$(esc "$g")" "$(esc "$name")" "$(esc "$(cat "$d/cpus" 2>/dev/null || echo -)")" \
			"$(esc "$(cat "$d/host" 2>/dev/null || echo local)")" "$(esc "$(cat "$d/expect" 2>/dev/null || echo success)")" \
			"$(exit_word "$(cat "$d/qemu.rc" 2>/dev/null || echo -)")" "${up:--}" "$gps" "$core" \
			"$(esc "${errs:-none}")" "${off:+<br><code>$(esc "$off")</code>}" "$(esc "$v")" "${files# }"
	done
	echo "</table>"
	echo "<p id=\"totals\">$npass of ${#guests[@]} guests as expected.</p>"
	[ $have_gnuplot = 1 ] || echo "<p>gnuplot is not installed (scripts/install-deps.sh): no plots.</p>"
	if perf_suite "$torture"; then
		echo "<h2>Grace-period latency</h2>"
		[ -s "$run/histogram.png" ] && echo '<h3>Every guest</h3><p><img src="histogram.png" alt="latency histogram of every guest"></p>'
		for d in "${guests[@]}"; do
			g=$(basename "$d")
			imgs=""
			[ -s "$d/histogram.png" ] && imgs="$imgs<img src=\"$g/histogram.png\" alt=\"$g latency histogram\">"
			cdf_plot "$d" && imgs="$imgs<img src=\"$g/cdf.png\" alt=\"$g latency CDF\">"
			[ -z "$imgs" ] || echo "<h3>$(esc "$g")</h3><p>$imgs</p>"
		done
	else
		echo "<h2>Grace periods and callbacks over time</h2>"
		echo "<p>From rcutorture's statistics lines (every rcutorture.stat_interval seconds; kvm.sh fits it to the run's length): the grace periods rcutorture's writer waited for (its version count: the table's GPs are its last value) and callbacks outstanding (rta &minus; rtf: updates waiting for their grace period).</p>"
		for d in "${guests[@]}"; do
			g=$(basename "$d")
			if stats_plot "$d"; then
				echo "<h3>$(esc "$g")</h3><p><img src=\"$g/stats.png\" alt=\"$g statistics\"></p>"
			else
				echo "<h3>$(esc "$g")</h3><p>No plot: fewer than two statistics lines in its console (or no gnuplot).</p>"
			fi
		done
	fi
	cat <<-'EOF'
		<script>
		window.addEventListener("load", function () {
			var ok = Array.prototype.every.call(document.images, function (i) { return i.complete && i.naturalWidth > 0; });
			document.body.setAttribute("data-images", ok ? "loaded" : "broken");
		});
		</script>
		</body></html>
	EOF
} >"$html.tmp" && mv "$html.tmp" "$html"
echo "results page: $html"
