#!/usr/bin/env bash
# rcuperf-report.sh - summarise rcuperf/refscale guests of one kvm.sh run: a table of the
# "rcu-perf: summary" and "ref-perf: summary" lines (latencies in microseconds), and per guest a
# grace-period latency histogram drawn from its "writer-duration" lines (Linux's per-sample output)
# into GUEST/histogram.dat and, when gnuplot is installed, GUEST/histogram.png (plus one
# RUNDIR/histogram.png with every guest's curve). In the spirit of Linux's kvm-recheck-rcuscale.sh.
#
# Usage: rcuperf-report.sh GUEST_DIR...   (each holding console.log)
set -uo pipefail

[ $# -gt 0 ] || { echo "usage: rcuperf-report.sh GUEST_DIR..." >&2; exit 2; }

# key=value field of a summary line
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
us() { awk -v ns="$1" 'BEGIN { if (ns == "") print "-"; else printf "%.1f", ns / 1000 }'; }

printf '%-16s %-6s %-5s %-6s %10s %10s %10s %10s %10s\n' GUEST TYPE CPUS N MIN_US MEDIAN_US P90_US P99_US MAX_US
refs=()
for d in "$@"; do
	g=$(basename "$d")
	log=$d/console.log
	[ -r "$log" ] || continue
	while read -r line; do
		printf '%-16s %-6s %-5s %-6s %10s %10s %10s %10s %10s\n' "$g" "$(field type "$line")" \
			"$(field cpus "$line")" "$(field n "$line")" "$(us "$(field min_ns "$line")")" \
			"$(us "$(field median_ns "$line")")" "$(us "$(field p90_ns "$line")")" \
			"$(us "$(field p99_ns "$line")")" "$(us "$(field max_ns "$line")")"
	done < <(tr -d '\r' <"$log" | grep -o 'rcu-perf: summary .*')
	while read -r line; do
		refs+=("$(printf '%-16s %-9s %-5s %12s %12s %12s %12s' "$g" "$(field type "$line")" \
			"$(field cpus "$line")" "$(field ns_per_pair "$line")" \
			"$(field median_ns_per_pair "$line")" "$(field min_ns_per_pair "$line")" \
			"$(field max_ns_per_pair "$line")")")
	done < <(tr -d '\r' <"$log" | grep -o 'ref-perf: summary .*')
done
if [ ${#refs[@]} -gt 0 ]; then
	echo
	printf '%-16s %-9s %-5s %12s %12s %12s %12s\n' GUEST TYPE CPUS NS_PER_PAIR MEDIAN MIN MAX
	printf '%s\n' "${refs[@]}"
fi

# Histograms: 40 buckets from 0 to the 99th percentile, the rest counted in the last bucket.
plots=()
for d in "$@"; do
	log=$d/console.log
	[ -r "$log" ] || continue
	tr -d '\r' <"$log" | sed -n 's/.*-perf: *[0-9]* writer-duration: *[0-9]* \([0-9]*\)$/\1/p' |
		sort -n >"$d/durations.ns"
	[ -s "$d/durations.ns" ] || { rm -f "$d/durations.ns"; continue; }
	awk '{ v[NR] = $1 } END {
		p99 = v[int(NR * 0.99) + (NR * 0.99 > int(NR * 0.99))]; if (p99 <= 0) p99 = v[NR];
		w = p99 / 40; if (w < 1) w = 1;
		for (i = 1; i <= NR; i++) { b = int(v[i] / w); if (b > 40) b = 40; c[b]++ }
		printf "# bucket_start_us count (bucket %.1f us; the last bucket holds everything above)\n", w / 1000;
		for (b = 0; b <= 40; b++) printf "%.1f %d\n", b * w / 1000, c[b] + 0
	}' "$d/durations.ns" >"$d/histogram.dat"
	plots+=("$d")
done
[ ${#plots[@]} -gt 0 ] || exit 0
echo
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "rcuperf-report: gnuplot not installed (scripts/install-deps.sh installs gnuplot-nox): no PNG, histogram data in */histogram.dat"
	exit 0
fi
all=""
for d in "${plots[@]}"; do
	g=$(basename "$d")
	gnuplot <<-GP 2>"$d/gnuplot.log" && echo "histogram: $d/histogram.png"
		set terminal png size 900,500
		set output "$d/histogram.png"
		set title "$g: grace-period latency ($(wc -l <"$d/durations.ns") samples)"
		set xlabel "latency (us)"; set ylabel "samples"; set style fill solid 0.6
		plot "$d/histogram.dat" using 1:2 with boxes title "$g"
	GP
	all="$all${all:+, }\"$d/histogram.dat\" using 1:2 with steps title \"$g\""
done
out=$(dirname "${plots[0]}")/histogram.png
gnuplot <<-GP 2>/dev/null && echo "histogram: $out (every guest)"
	set terminal png size 900,500
	set output "$out"
	set title "grace-period latency"; set xlabel "latency (us)"; set ylabel "samples"
	plot $all
GP
exit 0
