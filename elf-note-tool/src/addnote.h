/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adding the policy note to a linked executable that has none: a new
 * PT_NOTE, which needs a larger program header table, which moves to a
 * new PT_LOAD appended to the file (docs/note-format.md, "Stamping after
 * linking").
 */
#ifndef ELFNOTE_ADDNOTE_H
#define ELFNOTE_ADDNOTE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Returns a new image of len + some bytes whose first len bytes are
 * image's except the ELF header, with a note of both requests; or NULL
 * with a one-line reason in *why.  image must be an executable that
 * elf_inspect_image() found without a note.  The caller frees the result.
 */
unsigned char *addnote(unsigned char *image, size_t len, uint64_t suid_stack,
		       uint64_t stack_guard_gap, size_t *new_len, const char **why);

#endif
