/*
 * agree.c: compiled by check-tools.sh after the header of elfutils'
 * patched elf.h or binutils' patched include/elf/common.h (-include):
 * each defines the Linux exec policy note as the project's header for
 * programs does, or this does not compile.
 */
#include "exec-policy-note.h"

_Static_assert(NT_LINUX_EXEC_POLICY == EXEC_POLICY_NOTE_TYPE, "note type");
_Static_assert(LINUX_EXEC_POLICY_SUID_STACK == EXEC_POLICY_PROP_SUID_STACK,
	       "stack property");
_Static_assert(LINUX_EXEC_POLICY_STACK_GUARD_GAP == EXEC_POLICY_PROP_STACK_GUARD_GAP,
	       "gap property");
_Static_assert(LINUX_EXEC_POLICY_STACK_UNIT == EXEC_POLICY_STACK_UNIT, "unit");
#ifdef ELF_NOTE_LINUX
_Static_assert(sizeof(ELF_NOTE_LINUX) == EXEC_POLICY_NOTE_NAMESZ, "name size");
#endif
