#!/bin/bash
# check-fpu-free.sh KERNEL_ELF: the kernel never touches x87/MMX/SSE/AVX
# state, so a process's registers stay as it left them while the kernel
# runs (arch/x86_64/kernel/fpu.c switches them only between processes; the
# kernel is built -mgeneral-regs-only). Lists every instruction that reads
# or writes that state outside fpu.c's own functions, and fails if any.
set -euo pipefail
elf=${1:?usage: $0 KERNEL_ELF}
allowed='^<(x86_fpu_cpu_init|x86_fpu_switch|arch_user_fpu_init|fpu_save|fpu_restore)>:'
# x87 mnemonics (f...), MMX/SSE/AVX registers, MXCSR and the save/restore instructions.
pattern='^(f[a-z0-9]+|emms|ldmxcsr|stmxcsr|vldmxcsr|vstmxcsr|v[a-z0-9]+|xsave[a-z0-9]*|xrstor[a-z0-9]*|xsetbv)$|%([xyz]?mm[0-9]+|st)'
found=$(objdump -d --no-show-raw-insn "$elf" | awk -v allowed="$allowed" -v pat="$pattern" '
	/^[0-9a-f]+ <.*>:$/ { fn = $2; ok = (fn ~ allowed); next }
	/^ +[0-9a-f]+:\t/ {
		split($0, f, "\t"); n = split(f[2], w, " ")
		if (n == 0) next
		m = w[1]; if (m ~ /^(rex|data16|addr32|lock|rep|repz|repnz|cs|ds|es|fs|gs|ss|notrack|bnd)/ && n > 1) m = w[2]
		if (!ok && (m ~ pat || f[2] ~ pat)) print fn "\t" $0
	}')
if [ -n "$found" ]; then
	echo "check-fpu-free: the kernel touches FPU/SSE/AVX state outside arch/x86_64/kernel/fpu.c:"
	echo "$found" | head -20
	exit 1
fi
echo "check-fpu-free: no x87/MMX/SSE/AVX instruction in $elf outside fpu.c"
