/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adding the policy note to a linked executable that has none: a new
 * PT_NOTE, which needs a larger program header table, which moves to a
 * new PT_LOAD appended to the file (docs/note-format.md, "Stamping after
 * linking").
 */
#ifndef ELFNOTE_ADDNOTE_H
#define ELFNOTE_ADDNOTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Returns a new image of len or more bytes whose first len bytes are
 * image's except the ELF header and zero padding in a segment's page tail,
 * with a note of both requests; or NULL with a one-line reason in *why.
 * image must be an executable that elf_inspect_image() found without a
 * note.  The caller frees the result.  Every layout starts on kernels
 * before 5.18 too (AT_PHDR = load address + e_phoff): addnote.c says how.
 */
unsigned char *addnote(unsigned char *image, size_t len, uint64_t suid_stack,
		       uint64_t stack_guard_gap, size_t *new_len, const char **why);

/* The bytes addnote() puts between the new table and the note. */
#define ADDNOTE_UNDO_BYTES	64

/*
 * The original file, exactly, from one addnote() made with these
 * requests (the note's current values): a new image of *new_len bytes,
 * or NULL with a one-line reason in *why when image is not exactly what
 * addnote() would make of it (no undo record, or changed since).  The
 * caller frees the result.
 */
unsigned char *removenote(unsigned char *image, size_t len, uint64_t suid_stack,
			  uint64_t stack_guard_gap, size_t *new_len, const char **why);

#endif
