/*
 * The user programs (user/*.c, built freestanding by the top Makefile into
 * $(objtree)/user/NAME.elf) embedded as blobs, with a table the loader
 * searches by name. Adding a program: list it here and in USER_PROGS.
 */
	.macro USER_PROG name
	.section .rodata
	.balign 16
user_prog_\name\()_start:
	.incbin "\name\().elf"
user_prog_\name\()_end:
user_prog_\name\()_name:
	.asciz "\name"
	.endm

	.irp p, init, hello, hostile, spin, fpu, fuzz
	USER_PROG \p
	.endr

	.section .rodata
	.balign 8
	.globl user_programs
user_programs:
	.irp p, init, hello, hostile, spin, fpu, fuzz
	.quad user_prog_\p\()_name, user_prog_\p\()_start, user_prog_\p\()_end
	.endr
	.quad 0, 0, 0

	.section .note.GNU-stack, "", @progbits
