/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI argument grammar for sizes: what a user types for a limit,
 * bytes or one K, M, G or T suffix in either case, or KiB, MiB, GiB, TiB
 * (powers of 1024): "32M", "32m", "4K", "32MiB".
 *
 * The guest harness has another grammar, the scenario expression grammar
 * (i386-guest/lib/size-expr.h), which accepts arithmetic such as
 * "6M-22-$PTR*193" because test data writes a boundary as its formula.
 * This one accepts no arithmetic because a limit on a command line is
 * one number, and "32M-1" there is more likely a typo than a wish.
 */
#ifndef ELFNOTE_SIZE_ARG_H
#define ELFNOTE_SIZE_ARG_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Parses s ("33554432", "32M", "32m", "32MiB", "1T") into *bytes.  Returns false
 * with a reason in *why for anything else: no digits, another suffix,
 * trailing text, or a value that does not fit in 64 bits.
 */
bool size_arg_parse(const char *s, uint64_t *bytes, const char **why);

#endif
