#!/bin/sh
# Checks that the documentation lists every boot parameter the source
# declares (KPARAM*() or torture_param*() in any file Kbuild builds, and the
# X() entries of kernel/rcu/tree_param_list.h: scripts/kparams.py list) and
# every user-visible Kconfig option
# (a `config` with a prompt). Prints what is missing; exits 1 if anything is.
srctree=$(cd "$(dirname "$0")/.." && pwd)
cd "$srctree" || exit 2
status=0

# Every declared name, as scripts/kparams.py reads the declarations (the same reading that
# tells a build which declared names it lacks).
params=$(/usr/bin/python3 scripts/kparams.py list .) || exit 2
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
