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
 * Stamping a program at link time, in any one C file, one of:
 *
 *	#include <exec-policy-note.h>
 *	EXEC_POLICY_SUID_STACK(32 << 20);
 *	EXEC_POLICY_STACK_GUARD_GAP(4096);
 *	EXEC_POLICY(32 << 20, 4096);
 *
 * Sizes are in bytes, multiples of 4096, written as integer
 * constant expressions the assembler can evaluate (no C suffixes such as
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
#define EXEC_POLICY_PROP_STACK_GUARD_GAP	2	/* 64-bit byte count */
#define EXEC_POLICY_STACK_UNIT		4096

#ifndef __ASSEMBLER__
#include <stdint.h>

struct exec_policy_prop {
	uint32_t pr_type;
	uint32_t pr_datasz;
};

#define EXEC_POLICY_STR_(x)	#x
#define EXEC_POLICY_STR(x)	EXEC_POLICY_STR_(x)

/* Assembler lines: fail the build unless bytes is a multiple of 4096. */
#define EXEC_POLICY_CHECK_(bytes, what)					\
	".if ((" EXEC_POLICY_STR(bytes) ") % "				\
	EXEC_POLICY_STR(EXEC_POLICY_STACK_UNIT) ")\n"			\
	".error \"" what ": not a multiple of 4096\"\n"			\
	".endif\n"

/* Assembler lines: a property of type, 8 bytes of value. */
#define EXEC_POLICY_PROP_(type, bytes)					\
	".long " EXEC_POLICY_STR(type) ", 8\n"				\
	".8byte " EXEC_POLICY_STR(bytes) "\n"

/* The note around descsz bytes of properties (.8byte: see note-format.md). */
#define EXEC_POLICY_NOTE_(descsz, checks, props)				\
	__asm__(".pushsection " EXEC_POLICY_NOTE_SECTION ",\"a\",%note\n"	\
		checks							\
		".balign " EXEC_POLICY_STR(EXEC_POLICY_NOTE_ALIGN) "\n"	\
		".long " EXEC_POLICY_STR(EXEC_POLICY_NOTE_NAMESZ) ", "	\
		#descsz ", " EXEC_POLICY_STR(EXEC_POLICY_NOTE_TYPE) "\n"	\
		".asciz \"" EXEC_POLICY_NOTE_NAME "\"\n"			\
		".balign " EXEC_POLICY_STR(EXEC_POLICY_NOTE_ALIGN) "\n"	\
		props							\
		".popsection\n")

/*
 * At file scope, once per program (the kernel refuses a program whose
 * policy notes disagree, and a property missing from a note counts as 0):
 *
 * EXEC_POLICY_SUID_STACK(bytes): BYTES of stack when run setuid, setgid
 * or with file capabilities.
 */
#define EXEC_POLICY_SUID_STACK(bytes)					\
	EXEC_POLICY_NOTE_(16,						\
		EXEC_POLICY_CHECK_(bytes, "EXEC_POLICY_SUID_STACK"),	\
		EXEC_POLICY_PROP_(EXEC_POLICY_PROP_SUID_STACK, bytes))

/* EXEC_POLICY_STACK_GUARD_GAP(bytes): the program's own stack guard gap. */
#define EXEC_POLICY_STACK_GUARD_GAP(bytes)				\
	EXEC_POLICY_NOTE_(16,						\
		EXEC_POLICY_CHECK_(bytes, "EXEC_POLICY_STACK_GUARD_GAP"),	\
		EXEC_POLICY_PROP_(EXEC_POLICY_PROP_STACK_GUARD_GAP, bytes))

/* EXEC_POLICY(stack, gap): both (0 for no request); the note elfnote adds. */
#define EXEC_POLICY(stack, gap)						\
	EXEC_POLICY_NOTE_(32,						\
		EXEC_POLICY_CHECK_(stack, "EXEC_POLICY stack")		\
		EXEC_POLICY_CHECK_(gap, "EXEC_POLICY gap"),		\
		EXEC_POLICY_PROP_(EXEC_POLICY_PROP_SUID_STACK, stack)	\
		EXEC_POLICY_PROP_(EXEC_POLICY_PROP_STACK_GUARD_GAP, gap))
#endif

#endif
