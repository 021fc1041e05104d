/* SPDX-License-Identifier: GPL-2.0 */
/* Sizes on the command line: bytes, or a K, M or G suffix (powers of 1024). */
#ifndef ELFNOTE_SIZE_H
#define ELFNOTE_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Parses s ("33554432", "32M", "32MiB", "1G") into *bytes.  Returns false
 * with a reason in *why for anything else: no digits, another suffix,
 * trailing text, or a value that does not fit in 64 bits.
 */
bool size_parse(const char *s, uint64_t *bytes, const char **why);

#endif
