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

/* Where a property's values sit, so that an editor can rewrite them. */
#define POLICY_SITES_MAX	16

/*
 * The size in bytes of the note an editor adds: header, "Linux", and
 * both properties (so that either can later be rewritten in place).
 */
#define POLICY_NOTE_BYTES	52

struct policy_sites {
	uint64_t at[POLICY_SITES_MAX];	/* file offsets of the 8-byte values */
	size_t n;		/* notes carrying the property (may exceed at[]) */
};

struct policy {
	bool found;		/* a policy note was seen */
	bool malformed;		/* the kernel refuses the exec (ENOEXEC) */
	uint64_t suid_stack;	/* bytes; 0: no request */
	uint64_t stack_guard_gap;	/* bytes; 0: no request */
	const char *problem;	/* why malformed, or why a note was not seen */
	size_t notes;		/* policy notes seen */
	bool unread;		/* the kernel's bounds left notes unread */
	/* For editors: the caller sets base to the file offset of buf[0]. */
	uint64_t base;
	struct policy_sites stack_sites, gap_sites;
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

/*
 * Whether len bytes of a PT_NOTE segment hold a policy note anywhere,
 * walked without the kernel's bounds: for saying that a note lies where
 * the kernel does not look.
 */
bool policy_note_present(const unsigned char *buf, size_t len, size_t align, bool big_endian);

/* Encodes the note an editor adds, with both requests, in out. */
void policy_encode_note(unsigned char out[POLICY_NOTE_BYTES], uint64_t suid_stack,
			uint64_t stack_guard_gap, bool big_endian);

/* Stores value as 8 bytes in the given byte order (a stack property's data). */
void policy_put64(unsigned char *out, uint64_t value, bool big_endian);

/* Reads 8 bytes in the given byte order. */
uint64_t policy_get64(const unsigned char *b, bool big_endian);

#endif
