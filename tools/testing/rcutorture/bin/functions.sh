# shellcheck shell=bash
# functions.sh - helpers shared by kvm.sh and torture.sh (sourced, not run).
#
#   duration_secs D    print D in seconds: D is minutes, or N with an s, m or h suffix;
#                      returns 1 (printing nothing) unless D is a whole positive duration
#   cflist_of CFDIR    print the scenario names of CFDIR/CFLIST, comments left out

duration_secs() {
	local d=$1 s
	case $d in
	*s) s=${d%s} ;;
	*m) s=${d%m} ;;
	*h) s=${d%h} ;;
	*) s=$d ;;
	esac
	[[ $s =~ ^[0-9]+$ ]] || return 1
	s=$((10#$s))
	case $d in
	*s) ;;
	*h) s=$((s * 3600)) ;;
	*) s=$((s * 60)) ;;
	esac
	[ "$s" -gt 0 ] || return 1
	echo "$s"
}

cflist_of() { grep -v '^#' "$1/CFLIST"; }
