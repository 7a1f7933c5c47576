# shellcheck shell=bash
# parse-console-linux.sh - Linux's form of parse-console.sh, "parse-console.sh FILE TITLE"
# (sourced by parse-console.sh, which documents what it prints; not run by itself).
#
#   parse_console_linux FILE TITLE   print the problems of console log FILE with TITLE in Linux's
#                                    words, write FILE.diags; returns 0 without problems, 1 with

# shellcheck source=functions.sh
. "$KVM_BIN/functions.sh"

# Linux's print_bug / print_warning: a "BUG: " or "WARNING: " prefix, red or yellow on a terminal.
pcl_bug() { if [ -t 1 ]; then printf '\033[031mBUG: \033[m'; else printf 'BUG: '; fi; echo "$*"; }
pcl_warning() { if [ -t 1 ]; then printf '\033[033mWARNING: \033[m'; else printf 'WARNING: '; fi; echo "$*"; }

# The suite that made FILE: $TORTURE_SUITE as Linux's scripts set it, else the run directory's
# torture_suite (Linux's file) or torture (kvm.sh's).
pcl_suite() { # FILE
	local run
	run=$(dirname "$(dirname "$1")")
	if [ -n "${TORTURE_SUITE-}" ]; then echo "$TORTURE_SUITE"
	elif [ -r "$run/torture_suite" ]; then cat "$run/torture_suite"
	elif [ -r "$run/torture" ]; then cat "$run/torture"
	else echo rcu
	fi
}

# The end of the test: FAILURE and "!!!", or no SUCCESS, or a writer whose version stalled.
pcl_termination() { # FILE TITLE
	local file=$1 title=$2 nerrs seq
	if grep -q FAILURE "$file" || grep -q -e '-torture.*!!!' "$file"; then
		# The last "!!!" line: a histogram (its last nine counts are the reads that saw an
		# element two or more grace periods old) or a message, shown as it is.
		nerrs=$(grep -a '!!!' "$file" | tail -1 | tr -d '\r' | awk '{
			if (NF < 9) { sub(/^\[[^]]*\] /, ""); print; exit }
			for (i = NF - 8; i <= NF; i++) {
				if ($i !~ /^[0-9]+$/) { sub(/^\[[^]]*\] /, ""); print; exit }
				sum += $i
			}
			print sum " instances" }')
		pcl_bug "$title FAILURE, ${nerrs:-0 instances}"
		return
	fi
	# The writer's version must grow from one statistics line to the next (the end-of-test
	# lines, printed once the writer is gone, carry a NULL rtc and are left out).
	seq=$(grep -a -- '-torture:.*ver:' "$file" | tr -d '\r' | grep -E -v '\(null\)|rtc: (0x)?0+ ' |
		sed -e 's/^\[[^]]*\] //' -e 's/^.* ver: //' | awk '
		!bad && ($1 + 0 != $1 || $1 <= ver) { a = ver; b = $1; nr = NR; bad = 1 }
		{ ver = $1 }
		END {
			if (!bad) exit
			if (a == b && b == ver) print "GP HANG at " ver " torture stat " nr
			else print "BAD SEQ " a ":" b " last:" ver " version " nr
		}')
	if grep -q SUCCESS "$file"; then
		[ -z "$seq" ] || { pcl_warning "$title $seq"; echo "    $file"; }
	elif grep -q "_HOTPLUG:" "$file"; then
		pcl_warning "HOTPLUG FAILURES $title $seq"
		echo "    $file"
	else
		echo "$title no success message, $(grep -a -c 'ver:' "$file") successful version messages"
		[ -z "$seq" ] || pcl_warning "$title $seq"
	fi
}

parse_console_linux() { # FILE TITLE
	local file=$1 title=$2 bad summary n nb i
	if [ ! -f "$file" ] || [ ! -r "$file" ]; then
		echo "$title unreadable console output file: $file"
		return 1
	fi
	grep -qaP '\x00' "$file" 2>/dev/null && pcl_warning "Console output contains nul bytes, old qemu still running?"
	: >"$file.diags"
	perf_suite "$(pcl_suite "$file")" || pcl_termination "$file" "$title" | tee -a "$file.diags"

	bad=$("$KVM_BIN/console-badness.sh" <"$file")
	if [ -n "$bad" ]; then
		pcl_warning "Assertion failure in $file $title"
		summary=""
		cnt() { tr -d '\r' <"$file" | grep -E -c -- "$1"; }
		n=$(cnt Badness); [ "$n" = 0 ] || summary="$summary Badness: $n"
		n=$(tr -d '\r' <"$file" | grep -v -e 'Warning: unable to open an initial console' \
			-e 'Warning: Failed to add ttynull console' | grep -E -c 'WARNING:|Warn')
		[ "$n" = 0 ] || summary="$summary Warnings: $n"
		nb=$(cnt '\bBUG|Oops:'); [ "$nb" = 0 ] || summary="$summary Bugs: $nb"
		n=$(cnt 'BUG: KCSAN: ')
		if [ "$n" != 0 ]; then
			if [ "$n" = "$nb" ]; then summary="$summary (all bugs kcsan)"; else summary="$summary KCSAN: $n"; fi
		fi
		n=$(cnt 'Call Trace:|Call trace:'); [ "$n" = 0 ] || summary="$summary Call Traces: $n"
		n=$(cnt '==========='); [ "$n" = 0 ] || summary="$summary lockdep: $n"
		n=$(cnt 'detected stalls on CPUs/tasks:|self-detected stall on CPU|Stall ended before state dump start|rcu_tasks detected stalls on tasks|\?\?\? Writer stall state')
		[ "$n" = 0 ] || summary="$summary Stalls: $n"
		n=$(cnt 'rcu_.*kthread starved for'); [ "$n" = 0 ] || summary="$summary Starves: $n"
		pcl_warning "Summary:$summary"
		echo "$bad" >>"$file.diags"
	fi
	for i in "$file".*.diags; do
		[ -f "$i" ] && cat "$i" >>"$file.diags"
	done
	if [ -s "$file.diags" ]; then return 1; fi
	rm -f "$file.diags"
	return 0
}
