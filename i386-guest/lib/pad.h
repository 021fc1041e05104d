/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Argument padding as the guest tests count it: BYTES of strings of 'x',
 * each at most PAD_CHUNK bytes including its NUL (the kernel allows 128 KiB
 * per string), full strings first and the shorter one last.  Shared by the
 * guest runner (argv_bytes=, envp_bytes=) and argflood, whose boundaries
 * the scenarios compare.
 */
#ifndef GUEST_LIB_PAD_H
#define GUEST_LIB_PAD_H

#define PAD_CHUNK 32768

/* How many strings BYTES of padding take. */
unsigned long long pad_strings(unsigned long long bytes);

/* String i (from 0) of BYTES of padding; NULL when out of memory. */
char *pad_string(unsigned long long bytes, unsigned long long i);

#endif
