/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Just enough JSON for one object per line: every string goes through
 * json_string(), which escapes quotes, backslashes and control
 * characters, and writes bytes that are not valid UTF-8 (file names may
 * hold any byte) as \u00XX, so the output is always valid JSON.
 */
#ifndef ELFNOTE_JSON_H
#define ELFNOTE_JSON_H

#include <stdio.h>

void json_string(FILE *out, const char *s);

#endif
