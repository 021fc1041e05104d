/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the primordial stack is: the [stack] line of /proc/self/maps, and
 * where the mmap area below it ends.  Only the programs use it; it is kept
 * here so that samples/ holds programs and nothing else.
 */
#ifndef GUEST_LIB_STACKMAP_H
#define GUEST_LIB_STACKMAP_H

#include <stdint.h>

/* Returns 0 and fills start/end, or -1 with errno set. */
int stack_mapping(uintptr_t *start, uintptr_t *end);

/*
 * The highest end of any mapping that ends at or below limit (the stack's
 * start): the top of the mmap area.  With ASLR off that is the mmap base
 * itself, since the vDSO is mapped first, right below it.
 */
int mapping_top_below(uintptr_t limit, uintptr_t *top);

/* The soft RLIMIT_STACK as text: bytes, or "unlimited". */
const char *rlimit_text(unsigned long long value, char *buf, unsigned int len);

#endif
