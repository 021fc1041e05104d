/* SPDX-License-Identifier: MIT */
/*
 * The exec policy note for builds that are not C: assemble with
 *
 *	cc -c -DEXEC_POLICY_SUID_STACK_BYTES=33554432 exec-policy-note.S
 *
 * and link the object into the program.  Same note as
 * EXEC_POLICY_SUID_STACK() in exec-policy-note.h.
 */
#include "exec-policy-note.h"

#ifndef EXEC_POLICY_SUID_STACK_BYTES
#error "define EXEC_POLICY_SUID_STACK_BYTES (bytes, a multiple of 4096)"
#endif

	.pushsection EXEC_POLICY_NOTE_SECTION, "a", %note
	.if (EXEC_POLICY_SUID_STACK_BYTES % EXEC_POLICY_STACK_UNIT)
	.error "EXEC_POLICY_SUID_STACK_BYTES: not a multiple of 4096"
	.endif
	.balign EXEC_POLICY_NOTE_ALIGN
	.long EXEC_POLICY_NOTE_NAMESZ, 16, EXEC_POLICY_NOTE_TYPE
	.asciz EXEC_POLICY_NOTE_NAME
	.balign EXEC_POLICY_NOTE_ALIGN
	.long EXEC_POLICY_PROP_SUID_STACK, 8
	.8byte EXEC_POLICY_SUID_STACK_BYTES
	.popsection

	/* No executable stack for the objects this joins. */
	.section .note.GNU-stack, "", %progbits
