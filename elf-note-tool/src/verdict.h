/* SPDX-License-Identifier: GPL-2.0 */
/* A verdict of elffile.c for people and scripts: its name, its complaint. */
#ifndef ELFNOTE_VERDICT_H
#define ELFNOTE_VERDICT_H

#include <stdio.h>

#include "elffile.h"

/* The "status" member of the JSON objects ("annotated", "none", ...). */
const char *verdict_name(enum elf_verdict v);

/*
 * The JSON format (man page, "JSON OUTPUT"): one object per file and
 * line, each with "format": VERDICT_JSON_FORMAT first.  The number grows
 * when a member changes meaning or goes; new members do not change it.
 */
#define VERDICT_JSON_FORMAT 1

/*
 * The members every object of show, check and scan starts with, after
 * its "{": format, file, status, class, byte_order, type, suid_stack,
 * stack_guard_gap, notes, problem.  The caller adds its own and the "}".
 */
void verdict_json(FILE *out, const char *path, const struct elf_report *r);

/* The whole object of show and check: those members alone, and a newline. */
void verdict_json_line(FILE *out, const char *path, const struct elf_report *r);

/*
 * "elfnote: FILE: reason" on stderr for a file that is not an executable
 * with a well-formed note or none; nothing for one that is.
 */
void verdict_complain(const char *path, const struct elf_report *r);

#endif
