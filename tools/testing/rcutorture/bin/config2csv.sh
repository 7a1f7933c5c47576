#!/usr/bin/env bash
# config2csv.sh - a spreadsheet of scenarios' Kconfig settings and boot parameters, as Linux's
# script of the same name makes: run it in a scenario directory (configs/rcu/ and the like).
#
# Usage: config2csv.sh PATH.csv [ "SCENARIO1 SCENARIO2 ..." | SCENARIO... ]
#
# Scenarios: those named (the word CFLIST standing for the names in ./CFLIST, so that e.g.
# "CFLIST BUSTED" adds one to the default list), or by default those of ./CFLIST. One column per
# scenario (names sorted), one row per setting (sorted): each CONFIG_ line of the scenario file
# ("#" comments and blank lines left out) and each word of its NAME.boot ("#" lines left out, as kvm.sh does), a
# boot word without "=" given the value "?". Every field is quoted; the header row starts with an
# empty field: ,"A","B" then "CONFIG_X","y","n" - Linux's output, byte for byte (Linux sorts
# with gawk's asorti, here with sort in the C locale: the same order).
set -uo pipefail

case ${1-} in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
csvout=${1-}
if [ -z "$csvout" ]; then
	echo "Need .csv output file as first argument."
	exit 1
fi
shift
defaults=$(grep -v '^#' CFLIST 2>/dev/null | tr '\n' ' ')
if [ $# -eq 0 ]; then args=$defaults; else args="$*"; fi
scenarios=()
for s in $args; do
	if [ "$s" = CFLIST ]; then
		# shellcheck disable=SC2206 # the list's words
		scenarios+=($defaults)
	else
		scenarios+=("$s")
	fi
done
for s in "${scenarios[@]}"; do
	[ -r "$s" ] || { echo "config2csv.sh: no scenario file $s in $(pwd)"; exit 1; }
done

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# One "SCENARIO<TAB>NAME<TAB>VALUE" line per setting, then a table built in awk.
for s in "${scenarios[@]}"; do
	{
		grep -v '^#' "$s" | grep -v '^ *$'
		# Comment lines out first, then one word a line (Linux splits first, so that the
		# words of a "# ..." comment would count as parameters).
		[ -r "$s.boot" ] && grep -v '^ *#' "$s.boot" | tr -s ' \t' '\n\n' | grep -v '^$'
	} | LC_ALL=C awk -v s="$s" '{ if (index($0, "=")) { n = substr($0, 1, index($0, "=") - 1); v = substr($0, index($0, "=") + 1) }
		else { n = $0; v = "?" }
		printf "%s\t%s\t%s\n", s, n, v }'
done >"$tmp"
{
	printf '%s\n' "${scenarios[@]}" | LC_ALL=C sort -u | awk '{ printf ",\"%s\"", $0 } END { printf "\n" }'
	cut -f2 "$tmp" | LC_ALL=C sort -u | awk -F'\t' -v cols="$(printf '%s\n' "${scenarios[@]}" | LC_ALL=C sort -u | tr '\n' ' ')" '
		FNR == NR { p[$2 SUBSEP $1] = $3; next }
		{
			ns = split(cols, sc, " ")
			printf "\"%s\"", $0
			for (j = 1; j <= ns; j++) printf ",\"%s\"", p[$0 SUBSEP sc[j]]
			printf "\n"
		}' "$tmp" -
} >"$csvout.tmp" && mv "$csvout.tmp" "$csvout"
