#!/bin/sh
# Checks that the documentation lists every boot parameter the source
# declares (KPARAM*() or torture_param*() in any .c file, and the X() entries of
# kernel/rcu/tree_param_list.h) and every user-visible Kconfig option
# (a `config` with a prompt). Prints what is missing; exits 1 if anything is.
srctree=$(cd "$(dirname "$0")/.." && pwd)
cd "$srctree" || exit 2
status=0

# KPARAM*("name", ...), and torture_param*([type, ]name, ...) under the file's TORTURE_PARAM_PREFIX.
torture_params() {
	grep -rl --include='*.c' '^#define TORTURE_PARAM_PREFIX' arch kernel lib mm init drivers 2>/dev/null |
		while read -r f; do
			prefix=$(sed -n 's/^#define TORTURE_PARAM_PREFIX "\([^"]*\)".*/\1/p' "$f")
			sed -nE 's/^torture_param_(bool|string)\(([a-z0-9_]+),.*/\2/p;
				s/^torture_param\((unsigned )?[a-z]+, ([a-z0-9_]+),.*/\2/p' "$f" |
				sed "s/^/$prefix/"
		done
}
# rcutorture's parameters are declared in one list too, as the fields of its const view.
rcutorture_params() {
	sed -nE 's/^RCUTORTURE_PARAM(_BOOL|_STRING)?\(((unsigned )?[a-z]+, )?([a-z0-9_]+),.*/rcutorture.\4/p' \
		kernel/rcu/torture/rcutorture_param_list.h
}
# Tree RCU's parameters are declared from one list, not by KPARAM literals.
tree_params() {
	sed -nE 's/^[[:space:]]*X\(KPARAM[A-Z_]*, [^,]+, [^,]+, ([a-z_0-9]+),.*/rcutree.\1/p' \
		kernel/rcu/tree_param_list.h
}
params=$( (grep -rhoE 'KPARAM(_[A-Z]+)?\("[^"]+"' --include='*.c' arch kernel lib mm init drivers 2>/dev/null |
	sed -E 's/.*\("//; s/"$//'; torture_params; rcutorture_params; tree_params) | sort -u)
for p in $params; do
	if ! grep -q "\`$p\`" Documentation/admin-guide/kernel-parameters.md; then
		echo "check-docs: boot parameter $p is not in Documentation/admin-guide/kernel-parameters.md"
		status=1
	fi
done

# A config symbol with a prompt: "bool \"...\"", "int \"...\"", "prompt" lines after "config X".
configs=$(find . -name 'Kconfig*' -not -path './.git/*' -not -path './tools/*' -exec awk '
	/^(menu)?config / { sym = $2; next }
	/^[ \t]+(bool|int|tristate|string|hex)[ \t]+"/ && sym != "" { print sym; sym = "" }
	/^[ \t]+prompt[ \t]+"/ && sym != "" { print sym; sym = "" }
	/^(choice|endchoice|menu|endmenu|if|endif|source)/ { sym = "" }
' {} + | sort -u)
for c in $configs; do
	if ! grep -q "CONFIG_$c\b" Documentation/kconfig.md; then
		echo "check-docs: Kconfig option CONFIG_$c is not in Documentation/kconfig.md"
		status=1
	fi
done
[ $status -eq 0 ] && echo "check-docs: $(echo "$params" | wc -w) parameters and $(echo "$configs" | wc -w) Kconfig options documented"
exit $status
