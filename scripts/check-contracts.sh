#!/bin/sh
# Checks the contracts between the kernel's layers, which the compiler alone
# does not enforce. Run by `make check` (tests/run-all.sh, test
# "check-contracts"); prints each violation and exits 1 if there is any.
#
#  1. Generic code names no <asm/...> header. The contract headers
#     include/kernel/X.h are the one exception: each may include its own
#     arch half, <asm/X.h>, and nothing else from asm/. Outside arch/ and
#     tests/host/ (host builds, no arch), everything else includes the
#     generic header instead.
#  2. lib/ depends on nothing above it: its files include only the
#     lib-level headers below (types, compiler, errno, and the interfaces
#     lib/ itself implements), never another kernel/ header.
#  3. No weak symbols: a hook is declared once and implemented by each of
#     its providers, or stubbed in a header (__weak hid dead defaults).
#  4. Boot parameters are declared so the registry can read them
#     (scripts/kparams.py check): every KPARAM*()/torture_param*() line in a
#     form the generator of the "not in this build" table reads, under no
#     #if it cannot decide, and a test parameter (#define KPARAM_TEST, or
#     torture_param*()) exactly where its file is built only with an option
#     that needs CONFIG_KERNEL_TESTS. (Until issue 32 rule 4 kept a
#     hand-typed list of Tree-only parameters aligned for Tiny RCU; that
#     list is gone, and the number was reused for the check that replaces it.)
#  5. Only Tree RCU includes kernel/rcu/tree.h (Tree's private header; it
#     has an #error for other builds): a kernel/rcu/tree*.[ch] file, or a
#     file whose object its directory's Kbuild builds only for Tree RCU
#     (an obj-$(CONFIG_TREE_RCU) line or inside `ifdef CONFIG_TREE_RCU`).
#     Every flavor shares kernel/rcu/rcu.h; tests built for every flavor
#     read a flavor's state through <rcu/torture.h>.
#  6. Consoles register themselves (register_console(), <kernel/console.h>):
#     printk, arch setup and everyone else reach a console driver only
#     through its struct console, never by name. A console driver's
#     symbols (its prefix, listed below) appear only in its own files.
#  7. A file in a kernel test/ folder is named after what it tests: no
#     "selftest", leading "test_" or trailing "_test" in its name, which
#     the folder already says (Documentation/process/coding-style.md).
#  8. rcutorture's parts share no bare names: its headers
#     (kernel/rcu/torture/*.h) declare as extern only the flavors (struct
#     rcu_torture_ops, rcuperf's rcu_perf_ops) and the state named rcu_torture_* / rcu_fwd_* (or
#     cur_ops). Parameters are read through the const view rtp, counters
#     through rcu_torture_counters, so `verbose` or `stutter` never become
#     kernel-wide globals again.
srctree=$(cd "$(dirname "$0")/.." && pwd -P)
cd "$srctree" || exit 2
export LC_ALL=C
status=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "check-contracts: $*"
	status=1
}

# Headers lib/ may include: pure types and the interfaces lib/ implements.
LIB_HEADERS="types compiler errno string sprintf kstrtox bitmap param sort"
# Console drivers: "symbol prefix:the driver's own files (path prefix)".
CONSOLE_DRIVERS="serial8250_:drivers/tty/serial/8250"
# Files being moved or converted, which may keep their <asm/...> include or
# lib/ dependency until then (a note, not a failure). Empty today.
PENDING=""

pending() {
	for p in $PENDING; do
		[ "$p" = "$1" ] && return 0
	done
	return 1
}

# The tree's files: git's list when srctree is a work tree's top (not a copy inside another
# repository's work tree, which git would answer for with that repository's files), else find.
sources() {
	if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$srctree" ]; then
		git ls-files -co --exclude-standard -- '*.c' '*.h' '*.S'
	else
		find . -name '*.[chS]' -not -path './.git/*' | sed 's|^\./||'
	fi
}

# 1. <asm/...> outside arch/. (One grep over all files: a process per file was most of the time.)
sources | grep -vE '^(arch|tests/host|tools)/' | xargs -r grep -HsE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<asm/' |
	sed -nE 's|^([^:]+):[[:space:]]*#[[:space:]]*include[[:space:]]*<asm/([^>]+)>.*|\1 \2|p' >"$tmp/asm"
while read -r f h; do
	case $f in
	include/kernel/*.h)
		[ "$h" = "$(basename "$f")" ] && continue ;;
	esac
	if pending "$f"; then
		echo "check-contracts: note: $f includes <asm/$h> (pending conversion)"
		continue
	fi
	fail "$f includes <asm/$h>: include the generic <kernel/...> contract header instead"
done <"$tmp/asm"

# 2. lib/ includes only lib-level headers.
for f in $(sources | grep -E '^lib/'); do
	[ -f "$f" ] || continue
	for h in $(sed -nE 's|^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]([^>"]+)[>"].*|\1|p' "$f"); do
		case $h in
		kernel/*.h)
			base=${h#kernel/}
			base=${base%.h}
			case " $LIB_HEADERS " in *" $base "*) continue ;; esac ;;
		*/*) ;;
		*) continue ;;	# a file's own neighbour in lib/
		esac
		if pending "$f"; then
			echo "check-contracts: note: $f includes <$h> (pending move out of lib/)"
			continue
		fi
		fail "$f includes <$h>: lib/ may include only <kernel/{$(echo "$LIB_HEADERS" | tr ' ' ',')}.h>"
	done
done

# 3. No weak symbols anywhere (the pattern is split so this file does not match itself).
weak='__w''eak|__attribute__ *\(\( *w''eak'
sources | xargs -r grep -HnsE "$weak" | sed "s|^|check-contracts: |; s|\$|  (weak symbol)|" | grep . &&
	status=1

# 4. The parameter declarations scripts/kparams.py reads (Kconfiglib: /usr/bin/python3).
/usr/bin/python3 scripts/kparams.py check . | sed 's/^/check-contracts: /' | grep . && status=1

# 5. tree.h only in Tree-only files.
# tree_only_obj KBUILD OBJ: every line of KBUILD that builds OBJ is Tree-only (at least one).
tree_only_obj() {
	awk -v obj="$2" '
		/^[[:space:]]*ifn?def[[:space:]]/ || /^[[:space:]]*ifn?eq[[:space:]]*\(/ {
			depth++; tree[depth] = ($1 == "ifdef" && $2 == "CONFIG_TREE_RCU"); next }
		/^[[:space:]]*else/ { tree[depth] = 0; next }
		/^[[:space:]]*endif/ { depth--; next }
		/\+=|:=/ {
			n = split($0, w, /[[:space:]]+/)
			for (i = 1; i <= n; i++) if (w[i] == obj) {
				t = ($0 ~ /^obj-\$\(CONFIG_TREE_RCU\)/)
				for (d = 1; d <= depth; d++) if (tree[d]) t = 1
				seen = 1; if (!t) bad = 1
			}
		}
		END { exit !(seen && !bad) }' "$1"
}
for f in $(sources | grep -E '^(kernel|include|arch|lib|init|mm|drivers)/' |
	xargs -r grep -lsE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*/)?tree\.h"'); do
	case $f in
	kernel/rcu/tree*.[ch]) continue ;;
	esac
	dir=$(dirname "$f")
	base=$(basename "$f")
	case $base in
	*.c) [ -f "$dir/Kbuild" ] && tree_only_obj "$dir/Kbuild" "${base%.c}.o" && continue ;;
	esac
	fail "$f includes kernel/rcu/tree.h, Tree RCU's private header, but is not built for Tree RCU alone: include rcu.h (every flavor) or <rcu/torture.h> (what tests may read), or build it only under CONFIG_TREE_RCU"
done

# 6. A console driver is named only in its own files.
for d in $CONSOLE_DRIVERS; do
	prefix=${d%%:*}
	home=${d#*:}
	sources | grep -vE "^(tools|tests/host|$home)" |
		xargs -r grep -HnsE "(^|[^A-Za-z0-9_])$prefix[A-Za-z0-9_]*" |
		sed "s|^|check-contracts: |; s|\$|  (console driver $prefix* named outside $home*: reach it through register_console())|" |
		grep . && status=1
done

# 7. Plain names in test/ folders (tests/ and tools/ are not test/ folders).
sources | grep -E '(^|/)test/[^/]+$' | grep -E '/(test_[^/]*|[^/]*(selftest|_test\.)[^/]*)$' |
	sed 's|^|check-contracts: |; s|$|: a file in a test/ folder is named after what it tests, without test or selftest (Documentation/process/coding-style.md)|' |
	grep . && status=1

# 8. rcutorture's headers declare no bare extern names.
sources | grep -E '^kernel/rcu/torture/[^/]*\.h$' |
	xargs -r grep -HnE '^[[:space:]]*extern[[:space:]]' |
	grep -vE 'extern (const )?struct rcu_(torture|perf)_ops [a-z0-9_]+;|[ *](rcu_torture_[a-z0-9_]*|rcu_fwd_[a-z0-9_]*|cur_ops)(\[[^]]*\])?;' |
	sed "s|^|check-contracts: |; s|\$|  (an rcutorture extern with a bare name: read parameters through rtp, counters through rcu_torture_counters)|" |
	grep . && status=1

[ $status -eq 0 ] && echo "check-contracts: asm/, lib/, weak-symbol, parameter-declaration, tree.h, console-driver, test-file-name and rcutorture-name contracts hold"
exit $status
