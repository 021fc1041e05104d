// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into a sample to stamp it at build time with an exec policy note
 * requesting SUID_STACK bytes of secureexec stack, or STACK_GUARD_GAP
 * bytes of stack guard gap (samples/Makefile sets one of them), the way a
 * packager would with elf-note-tool's header.
 */
#include <exec-policy-note.h>

#if defined(SUID_STACK) && defined(STACK_GUARD_GAP)
EXEC_POLICY(SUID_STACK, STACK_GUARD_GAP);
#elif defined(STACK_GUARD_GAP)
EXEC_POLICY_STACK_GUARD_GAP(STACK_GUARD_GAP);
#else
EXEC_POLICY_SUID_STACK(SUID_STACK);
#endif
