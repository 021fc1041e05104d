/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Byte sizes as written in scenarios and on sample command lines:
 * a sum of terms joined by + or -, each term a product of factors joined
 * by *, each factor decimal digits with an optional binary suffix K (KiB),
 * M (MiB) or G (GiB):  "8M", "8M+1", "6M-772", "6M-22-8*193".
 * Evaluated left to right in 64 bits; * binds tighter than + and -.
 */
#ifndef SAMPLES_SIZE_H
#define SAMPLES_SIZE_H

/*
 * Returns 0 and stores the value, or -1 when the text is empty, has a
 * character outside the grammar, an unknown suffix, overflows 64 bits or
 * goes below zero (after any term).
 */
int parse_size(const char *text, unsigned long long *value);

#endif
