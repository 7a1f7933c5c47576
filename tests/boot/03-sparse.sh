# shellcheck shell=bash
# tests/boot/03-sparse.sh - sparse, the static checker behind `make C=1` / `make C=2`
# (Documentation/RCU/sparse.md). No QEMU boot; each build is in its own O= directory under $LOGDIR.
#   sparse-clean-test     `make C=2 all` in the suite's own kernel build ($O: test_defconfig with
#                         the in-kernel tests, already built, so nothing recompiles): sparse checks
#                         every kernel C file and prints nothing at all
#   sparse-clean-preempt  `make checksrc` (sparse only) of preempt_defconfig with the in-kernel
#                         tests: the preemptible-RCU files and suites test_defconfig lacks
#   sparse-clean-tiny     the same for tiny_defconfig (Tiny RCU, Tiny SRCU)
#   sparse-clean-debug    the same for debug_defconfig (every RCU debugging option's code)
#   sparse-planted        `make C=1` of tests/sparse/rcu_misuse.c (never part of a kernel): sparse
#                         reports each planted misuse of an __rcu pointer at its file:line with the
#                         message its "SPARSE:" marker gives, and nothing on the correct uses
# Any line sparse prints fails a clean test; so does a run that checked suspiciously few files.
# Without sparse ($CHECK, if set) installed the tests are skipped, except under CI=true, where they fail:
# scripts/install-deps.sh installs it, so its absence there is a broken setup, not a choice.
# Sourced by tests/run-all.sh with tests/lib.sh loaded. Whole file: about 30 s on 2 host cores.

sparse_dir=$(cd "$LOGDIR" && pwd)/build-sparse

# The lines `make` prints itself; anything else in a sparse run's output came from sparse.
sparse_progress_re='^  (CC|AS|LD|SIZE|CHECK) '

# sparse_clean DIR DEFCONFIG MIN_FILES MAKE_ARGS...: configure DIR from DEFCONFIG plus the
# in-kernel tests, run `make MAKE_ARGS` there, and pass only if sparse checked at least MIN_FILES
# files and printed nothing. DEFCONFIG "-": DIR is already configured and built (the suite's own
# kernel, $O): make there compiles nothing, so `make C=2 all` costs only sparse's time.
sparse_clean() {
	local dir=$1 defconfig=$2 min=$3 out checked noise
	shift 3
	out=$LOGDIR/$(basename "$dir").sparse.out
	mkdir -p "$dir"
	if [ "$defconfig" != - ] && ! { make -C "$TESTS_ROOT" O="$dir" "$defconfig" >/dev/null &&
		echo CONFIG_KERNEL_TESTS=y >>"$dir/.config" &&
		make -C "$TESTS_ROOT" O="$dir" olddefconfig >/dev/null; }; then
		echo "configuring $defconfig failed"
		return 1
	fi
	grep -qx CONFIG_SPARSE_RCU_POINTER=y "$dir/.config" || { echo "$dir/.config lacks CONFIG_SPARSE_RCU_POINTER=y"; return 1; }
	if ! make -C "$TESTS_ROOT" --no-print-directory O="$dir" -j2 "$@" >"$out" 2>&1; then
		cat "$out"
		echo "make $* failed"
		return 1
	fi
	checked=$(grep -c '^  CHECK ' "$out" || true)
	noise=$(grep -Ev "$sparse_progress_re" "$out" || true)
	echo "sparse checked $checked files of $defconfig (+ CONFIG_KERNEL_TESTS=y)"
	if [ -n "$noise" ]; then
		echo "sparse reported:"
		printf '%s\n' "$noise"
		return 1
	fi
	[ "$checked" -ge "$min" ] || { echo "only $checked files checked (expected at least $min)"; return 1; }
}

# Each "SPARSE: text" marker in the planted file must match a report at its line, and every
# report (its first line; sparse adds indented detail lines after it) must be on a marked line.
sparse_planted() {
	local src=tests/sparse/rcu_misuse.c dir=$sparse_dir-planted out line text reports bad=0
	out=$dir.out
	mkdir -p "$dir"
	make -C "$TESTS_ROOT" O="$dir" test_defconfig >/dev/null || { echo "configuring test_defconfig failed"; return 1; }
	rm -f "$dir/${src%.c}.o"
	if ! make -C "$TESTS_ROOT" --no-print-directory O="$dir" C=1 "$dir/${src%.c}.o" >"$out" 2>&1; then
		cat "$out"
		echo "make C=1 of $src failed"
		return 1
	fi
	cat "$out"
	echo "---"
	# file:line:col: severity: message (make runs sparse from the source tree: relative names)
	reports=$(grep -E "^$src:[0-9]+:[0-9]+: (warning|error): " "$out" || true)
	[ -n "$reports" ] || { echo "sparse reported nothing on $src"; return 1; }
	while IFS=: read -r line text; do
		text=${text#*SPARSE: }
		text=${text%% \*/*}
		if grep -qF "$src:$line:" <<<"$reports" &&
			grep -F "$src:$line:" <<<"$reports" | grep -qF "$text"; then
			echo "found    $src:$line: $text"
		else
			echo "MISSING  $src:$line: $text"
			bad=1
		fi
	done < <(grep -n 'SPARSE: ' "$TESTS_ROOT/$src")
	while IFS= read -r r; do
		line=${r#"$src:"}
		line=${line%%:*}
		if ! sed -n "${line}p" "$TESTS_ROOT/$src" | grep -q 'SPARSE: '; then
			echo "UNEXPECTED (no marker on line $line): $r"
			bad=1
		fi
	done <<<"$reports"
	return $bad
}

sparse_missing() {
	echo "${CHECK:-sparse} is not installed, and CI=true: scripts/install-deps.sh should have installed it"
	return 1
}

# CHECK names the checker, for make as for us (default sparse).
if ! command -v "${CHECK:-sparse}" >/dev/null 2>&1; then
	for t in sparse-clean-test sparse-clean-preempt sparse-clean-tiny sparse-clean-debug sparse-planted; do
		if [ "${CI:-}" = true ]; then
			run_cmd_test "$t" sparse_missing
		else
			skip_test "$t" "sparse not installed (scripts/install-deps.sh)"
		fi
	done
else
	# make C=2 on the suite's own kernel (test_defconfig with the in-kernel tests, already built):
	# what a developer runs, sparse over every kernel C file, nothing recompiled.
	run_cmd_test sparse-clean-test sparse_clean "$O" - 80 C=2 all
	run_cmd_test sparse-clean-preempt sparse_clean "$sparse_dir-preempt" preempt_defconfig 80 checksrc
	run_cmd_test sparse-clean-tiny sparse_clean "$sparse_dir-tiny" tiny_defconfig 60 checksrc
	# Every debugging option's code (debug objects, tracing, EQS checks, lockdep).
	run_cmd_test sparse-clean-debug sparse_clean "$sparse_dir-debug" debug_defconfig 80 checksrc
	run_cmd_test sparse-planted sparse_planted
fi
