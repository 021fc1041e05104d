/* SPDX-License-Identifier: GPL-2.0 */
/*
 * File names in human-readable output.  A file name may hold any byte but
 * '/' and NUL, so one written as it is could forge a line of an audit (a
 * newline), rewrite the terminal (escape sequences, C1 controls) or
 * reorder what is shown (Unicode bidi controls).  Those, and backslashes,
 * are written as C octal escapes (\012); JSON has json_string().
 */
#ifndef ELFNOTE_NAMES_H
#define ELFNOTE_NAMES_H

#include <stdio.h>

void name_print(FILE *out, const char *s);

/* "elfnote: NAME: MESSAGE" and a newline on stderr, both escaped. */
void name_error(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
