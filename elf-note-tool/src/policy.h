/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The exec policy note as the kernel reads it (docs/note-format.md): a
 * walk over the bytes of one PT_NOTE segment that classifies what the
 * kernel will do with it.  Pure, so tests and the fuzzer can drive it.
 *
 * Written by hand rather than with libelf's gelf_getnote(): the tool must
 * reach the kernel's verdict for damaged notes too (a policy note cut
 * short by the end of its segment is malformed, a foreign one ends the
 * walk quietly), and gelf_getnote() stops at the first note it cannot
 * decode without saying whether it was the policy note.
 */
#ifndef ELFNOTE_POLICY_H
#define ELFNOTE_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's bounds: bytes and notes per PT_NOTE segment, segments. */
#define POLICY_READ_MAX		1024
#define POLICY_NOTES_MAX	64
#define POLICY_SEGMENTS_MAX	16

struct policy {
	bool found;		/* a policy note was seen */
	bool malformed;		/* the kernel refuses the exec (ENOEXEC) */
	uint64_t suid_stack;	/* bytes; 0: no request */
	const char *problem;	/* why malformed, or why a note was not seen */
	size_t notes;		/* policy notes seen */
};

/*
 * Walks len bytes of a PT_NOTE segment (at most POLICY_READ_MAX are
 * looked at), whose entries are padded to align (4 or 8); complete says
 * whether buf holds the whole segment; big_endian is the file's byte
 * order.  Updates p across calls, one per segment, in program header
 * order.  Returns false once p->malformed is set.
 */
bool policy_walk_segment(const unsigned char *buf, size_t len, size_t align,
			 bool complete, bool big_endian, struct policy *p);

#endif
