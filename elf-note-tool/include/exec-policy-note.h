/* SPDX-License-Identifier: MIT */
/*
 * exec-policy-note.h: the Linux exec policy note, for programs and tools.
 *
 * A program asks execve() for things about itself in an ELF note
 * (docs/note-format.md): name "Linux", type 0x45584543 ("EXEC"), a list
 * of (type, size, data) properties padded to 4 bytes, in the file's byte
 * order.  The kernel defines it in <linux/elf.h> (NT_LINUX_EXEC_POLICY);
 * this header mirrors it so that programs need no kernel headers, and the
 * project's tests check that the two agree.
 *
 * Stamping a program at link time, in any one C file:
 *
 *	#include <exec-policy-note.h>
 *	EXEC_POLICY_SUID_STACK(32 << 20);
 *
 * The size is in bytes, a multiple of 4096, written as an integer
 * constant expression the assembler can evaluate (no C suffixes such as
 * 32u).  The note goes into an allocated .note section, so it is placed in
 * the program's PT_NOTE and survives strip.
 */
#ifndef EXEC_POLICY_NOTE_H
#define EXEC_POLICY_NOTE_H

#define EXEC_POLICY_NOTE_NAME		"Linux"
#define EXEC_POLICY_NOTE_NAMESZ		6	/* with its NUL */
#define EXEC_POLICY_NOTE_TYPE		0x45584543
#define EXEC_POLICY_NOTE_ALIGN		4
#define EXEC_POLICY_NOTE_SECTION	".note.linux.exec-policy"

/* Property types. */
#define EXEC_POLICY_PROP_SUID_STACK	1	/* 64-bit byte count */
#define EXEC_POLICY_STACK_UNIT		4096

#ifndef __ASSEMBLER__
#include <stdint.h>

struct exec_policy_prop {
	uint32_t pr_type;
	uint32_t pr_datasz;
};

#define EXEC_POLICY_STR_(x)	#x
#define EXEC_POLICY_STR(x)	EXEC_POLICY_STR_(x)

/* At file scope: emit a note requesting BYTES of secureexec stack. */
#define EXEC_POLICY_SUID_STACK(bytes)					\
	__asm__(".pushsection " EXEC_POLICY_NOTE_SECTION ",\"a\",%note\n"	\
		".if ((" EXEC_POLICY_STR(bytes) ") % "			\
		EXEC_POLICY_STR(EXEC_POLICY_STACK_UNIT) ")\n"		\
		".error \"EXEC_POLICY_SUID_STACK: not a multiple of 4096\"\n" \
		".endif\n"						\
		".balign " EXEC_POLICY_STR(EXEC_POLICY_NOTE_ALIGN) "\n"	\
		".long " EXEC_POLICY_STR(EXEC_POLICY_NOTE_NAMESZ) ", 16, "	\
		EXEC_POLICY_STR(EXEC_POLICY_NOTE_TYPE) "\n"		\
		".asciz \"" EXEC_POLICY_NOTE_NAME "\"\n"			\
		".balign " EXEC_POLICY_STR(EXEC_POLICY_NOTE_ALIGN) "\n"	\
		".long " EXEC_POLICY_STR(EXEC_POLICY_PROP_SUID_STACK) ", 8\n"	\
		".8byte " EXEC_POLICY_STR(bytes) "\n"			\
		".popsection\n")
#endif

#endif
