#!/bin/sh
# Turns `nm -n` output (file or - for stdin, /dev/null for an empty table)
# into an assembly file holding the kernel's sorted text-symbol table, which
# the backtrace code (kernel/kallsyms.c) searches.
awk '
BEGIN { n = 0 }
$2 ~ /^[TtWw]$/ && $3 !~ /^(\.|__kallsyms|_stext$|_etext$)/ { addr[n] = $1; name[n] = $3; n++ }
END {
	print "\t.section .kallsyms,\"a\""
	print "\t.balign 8"
	print "\t.globl kallsyms_num"
	print "kallsyms_num:\t.quad " n + 0
	print "\t.globl kallsyms_addrs"
	print "kallsyms_addrs:"
	for (i = 0; i < n; i++) print "\t.quad 0x" addr[i]
	print "\t.globl kallsyms_offsets"
	print "kallsyms_offsets:"
	off = 0
	for (i = 0; i < n; i++) { print "\t.long " off; off += length(name[i]) + 1 }
	print "\t.globl kallsyms_names"
	print "kallsyms_names:"
	for (i = 0; i < n; i++) print "\t.asciz \"" name[i] "\""
	print "\t.section .note.GNU-stack,\"\",@progbits"
}' "$1"
