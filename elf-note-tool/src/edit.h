/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What elfnote set and clear change in a file, decided on its bytes in
 * memory: nothing (the values are already there), values in place (the
 * note exists and carries the properties), or a new note (addnote.h).
 */
#ifndef ELFNOTE_EDIT_H
#define ELFNOTE_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds of a stack request: above what every program gets, below half the space. */
#define EDIT_MIN_STACK		(8ULL << 20)
#define EDIT_MAX_STACK_32	(2ULL << 30)
#define EDIT_MAX_STACK_64	(1ULL << 46)
/* The largest stack guard gap the kernel grants (fs/exec.c). */
#define EDIT_MAX_GUARD_GAP	(64ULL << 20)
/* Kernel defaults a request is judged against (docs/policy.md). */
#define EDIT_DEFAULT_STACK_MAX	(64ULL << 20)	/* fs.secureexec_stack_max */
#define EDIT_DEFAULT_GUARD_GAP	(1ULL << 20)	/* stack_guard_gap=256 pages */

enum edit_action {
	EDIT_UNCHANGED,		/* no write at all */
	EDIT_IN_PLACE,		/* the existing notes' values rewritten */
	EDIT_ADD_NOTE,		/* a note added after linking */
	EDIT_REMOVE_NOTE,	/* a note elfnote added taken out again */
};

/* What to set: each property given, to its value (0: no request). */
struct edit_request {
	bool set_stack, set_gap;
	uint64_t suid_stack, stack_guard_gap;
};

struct edit {
	enum edit_action action;
	uint64_t old_stack, old_gap;	/* 0: no request before */
	unsigned char *image;	/* the new contents, unless EDIT_UNCHANGED */
	size_t len;
	char why[200];		/* the reason, when edit_plan() fails */
};

/*
 * Plans the request on the file whose contents are image.  Returns false
 * with e->why set.  The new image is checked: the tool reads back the
 * requests it wrote.
 */
bool edit_plan(unsigned char *image, size_t len, const struct edit_request *req,
	       struct edit *e);

/*
 * Plans taking out a note that elfnote set added after linking, giving
 * back the original file exactly; EDIT_UNCHANGED for a file without a
 * note.  Returns false with e->why set (a note linked in, or a file
 * changed since the note was added).
 */
bool edit_plan_remove(unsigned char *image, size_t len, struct edit *e);

void edit_free(struct edit *e);

#endif
