// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into a sample to stamp it at build time with an exec policy note
 * requesting SUID_STACK bytes (samples/Makefile sets it), the way a
 * packager would with elf-note-tool's header.
 */
#include <exec-policy-note.h>

EXEC_POLICY_SUID_STACK(SUID_STACK);
