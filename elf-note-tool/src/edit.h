/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What elfnote set and clear change in a file, decided on its bytes in
 * memory: nothing (the value is already there), the value in place (the
 * note exists), or a new note (see addnote.h).
 */
#ifndef ELFNOTE_EDIT_H
#define ELFNOTE_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Bounds of a request: above what every program gets, below half the space. */
#define EDIT_MIN_STACK		(8ULL << 20)
#define EDIT_MAX_STACK_32	(2ULL << 30)
#define EDIT_MAX_STACK_64	(1ULL << 46)

enum edit_action {
	EDIT_UNCHANGED,		/* no write at all */
	EDIT_IN_PLACE,		/* the existing notes' values rewritten */
	EDIT_ADD_NOTE,		/* a note added after linking */
};

struct edit {
	enum edit_action action;
	uint64_t old_value;	/* 0: no request before */
	unsigned char *image;	/* the new contents, unless EDIT_UNCHANGED */
	size_t len;
	char why[200];		/* the reason, when edit_plan() fails */
};

/*
 * Plans setting the request to value bytes, or clearing it (value 0), in
 * the file whose contents are image.  Returns false with e->why set.  The
 * new image is checked: the tool reads back the request it wrote.
 */
bool edit_plan(unsigned char *image, size_t len, uint64_t value, struct edit *e);

void edit_free(struct edit *e);

#endif
