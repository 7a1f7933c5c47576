#!/usr/bin/env bash
# console-badness.sh - copy to standard output the lines of standard input (a console log) that
# show a problem, as Linux's tools/testing/selftests/rcutorture/bin/console-badness.sh does:
# Badness, WARNING:, Warn, BUG (KASAN's, KCSAN's and UBSAN's reports among them), lockdep's
# "===" rules, Call Trace:, Oops:, RCU CPU stall warnings (either form, and "Stall ended before
# state dump start"), "??? Writer stall state", "rcu_*kthread starved for" and rcutorture's
# "!!!" error marker. Lines Linux knows to be harmless are left out (ODEBUG, the DEBUG-kernel
# banner, the missing initial console).
#
# Usage: console-badness.sh < console.log
#
# Beyond Linux's list: "UBSAN:" (a report of ours may carry no "BUG") and "rcu_tasks detected
# stalls on tasks" (Tasks RCU's stall warning, which Linux's list misses). Exit status: grep's,
# 0 when some line was printed, 1 when none.
set -uo pipefail

case ${1-} in -h | --help) sed -n '2,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
tr -d '\r' |
	grep -E 'Badness|WARNING:|Warn|BUG|UBSAN:|===========|Call Trace:|Oops:|detected stalls on CPUs/tasks:|self-detected stall on CPU|Stall ended before state dump start|rcu_tasks detected stalls on tasks|\?\?\? Writer stall state|rcu_.*kthread starved for|!!!' |
	grep -v -e 'ODEBUG: ' -e 'This means that this is a DEBUG kernel and it is' \
		-e 'Warning: unable to open an initial console' \
		-e 'Warning: Failed to add ttynull console. No stdin, stdout, and stderr.*the init process!' \
		-e 'NOHZ tick-stop error: Non-RCU local softirq work is pending, handler'
