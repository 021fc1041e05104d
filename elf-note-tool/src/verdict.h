/* SPDX-License-Identifier: GPL-2.0 */
/* A verdict of elffile.c for people and scripts: its name, its complaint. */
#ifndef ELFNOTE_VERDICT_H
#define ELFNOTE_VERDICT_H

#include "elffile.h"

/* The "status" member of show's and scan's JSON ("annotated", "none", ...). */
const char *verdict_name(enum elf_verdict v);

/*
 * "elfnote: FILE: reason" on stderr for a file that is not an executable
 * with a well-formed note or none; nothing for one that is.
 */
void verdict_complain(const char *path, const struct elf_report *r);

#endif
