/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Opening an ELF executable with libelf and reading its policy note the
 * way the kernel does: every PT_NOTE of the file itself, in program
 * header order.
 */
#ifndef ELFNOTE_ELFFILE_H
#define ELFNOTE_ELFFILE_H

#include <stddef.h>

#include "policy.h"

/*
 * The section that names the program header table elfnote set moves to
 * when it adds a note after linking (addnote.c), so that strip tools keep
 * the table.  The reader recognises it to explain what GNU strip did to
 * such a file; defined here, with the reader, because the writer builds
 * on the reader and never the other way round.
 */
#define ELF_ADDED_PHDR_SECTION	".elfnote.phdrs"

/* The section over the copies of the old notes it makes then (addnote.c). */
#define ELF_ADDED_NOTES_SECTION	".elfnote.notes"

enum elf_verdict {
	ELF_ANNOTATED = 0,	/* a well-formed note (its request may be 0) */
	ELF_NO_NOTE = 1,	/* an executable without a policy note */
	ELF_MALFORMED = 2,	/* a policy note the kernel refuses */
	ELF_NOT_EXECUTABLE = 3,	/* not an ELF executable we can read */
	ELF_IO_ERROR = 4,	/* could not open or read */
};

struct elf_report {
	enum elf_verdict verdict;
	struct policy policy;
	int elf_class;		/* 32 or 64 */
	bool big_endian;
	bool has_elf_magic;	/* starts with \177ELF, however damaged the rest */
	bool added_sections;	/* has the sections elfnote set adds after linking */
	const char *type;	/* "executable", "pie" or "shared-object" */
	char reason[256];	/* for NOT_EXECUTABLE and IO_ERROR */
	/*
	 * Which note, property, interpreter, dynamic or program header
	 * segment's header disagrees with the bytes it describes (an empty
	 * PT_NOTE or PT_GNU_PROPERTY, or an address other than the one its
	 * bytes load at), or "".  GNU strip leaves a stamped file so, and
	 * elfnote stamps no file that already is.
	 */
	char disagreeing[160];
};

/* Never fails: the outcome, with a reason when it is not a verdict on a note. */
void elf_inspect(const char *path, struct elf_report *r);

/* The same for an open file descriptor (of a regular file); fd stays open. */
void elf_inspect_fd(int fd, struct elf_report *r);

/*
 * The same for a file read into memory (editors judge the very bytes they
 * will change); image is not modified.
 */
void elf_inspect_image(unsigned char *image, size_t len, struct elf_report *r);

#endif
