/* SPDX-License-Identifier: MIT */
/*
 * The exec policy note for builds that are not C: assemble with one or
 * both of
 *
 *	cc -c -DEXEC_POLICY_SUID_STACK_BYTES=33554432 \
 *	      -DEXEC_POLICY_STACK_GUARD_GAP_BYTES=4096 exec-policy-note.S
 *
 * and link the object into the program.  Same note as EXEC_POLICY() in
 * exec-policy-note.h, with 0 for a property not defined.
 */
#include "exec-policy-note.h"

#if !defined(EXEC_POLICY_SUID_STACK_BYTES) && !defined(EXEC_POLICY_STACK_GUARD_GAP_BYTES)
#error "define EXEC_POLICY_SUID_STACK_BYTES or EXEC_POLICY_STACK_GUARD_GAP_BYTES (bytes, multiples of 4096)"
#endif
#ifndef EXEC_POLICY_SUID_STACK_BYTES
#define EXEC_POLICY_SUID_STACK_BYTES 0
#endif
#ifndef EXEC_POLICY_STACK_GUARD_GAP_BYTES
#define EXEC_POLICY_STACK_GUARD_GAP_BYTES 0
#endif

	.pushsection EXEC_POLICY_NOTE_SECTION, "a", %note
	.if (EXEC_POLICY_SUID_STACK_BYTES % EXEC_POLICY_STACK_UNIT)
	.error "EXEC_POLICY_SUID_STACK_BYTES: not a multiple of 4096"
	.endif
	.if (EXEC_POLICY_STACK_GUARD_GAP_BYTES % EXEC_POLICY_STACK_UNIT)
	.error "EXEC_POLICY_STACK_GUARD_GAP_BYTES: not a multiple of 4096"
	.endif
	.balign EXEC_POLICY_NOTE_ALIGN
	.long EXEC_POLICY_NOTE_NAMESZ, 32, EXEC_POLICY_NOTE_TYPE
	.asciz EXEC_POLICY_NOTE_NAME
	.balign EXEC_POLICY_NOTE_ALIGN
	.long EXEC_POLICY_PROP_SUID_STACK, 8
	.8byte EXEC_POLICY_SUID_STACK_BYTES
	.long EXEC_POLICY_PROP_STACK_GUARD_GAP, 8
	.8byte EXEC_POLICY_STACK_GUARD_GAP_BYTES
	.popsection

	/* No executable stack for the objects this joins. */
	.section .note.GNU-stack, "", %progbits
