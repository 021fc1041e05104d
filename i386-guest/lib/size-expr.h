/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The scenario expression grammar: byte sizes as test data writes them, in
 * scenarios (after @let expansion) and on the sample programs' command
 * lines.  A sum of terms joined by + or -, each term a product of factors
 * joined by *, each factor decimal digits with an optional binary suffix
 * K (KiB), M (MiB) or G (GiB):  "8M", "8M+1", "6M-772", "6M-22-8*193".
 * Evaluated left to right in 64 bits; * binds tighter than + and -.
 *
 * elfnote has a grammar of its own for sizes, the CLI argument grammar
 * (elf-note-tool/src/size-arg.h), and the two stay apart on purpose: a
 * user typing a limit ("--suid-stack 32M") gets one number with a unit,
 * and a typo such as "32M-1" is an error there, while test data needs
 * arithmetic to write a boundary as its formula ("6M-22-$PTR*193" is the
 * last argv size that fits).  Neither tool links the other's parser.
 */
#ifndef GUEST_LIB_SIZE_EXPR_H
#define GUEST_LIB_SIZE_EXPR_H

/*
 * Returns 0 and stores the value, or -1 when the text is empty, has a
 * character outside the grammar, an unknown suffix, overflows 64 bits or
 * goes below zero (after any term).
 */
int size_expr_parse(const char *text, unsigned long long *value);

#endif
