/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the primordial stack is: the [stack] line of /proc/self/maps.
 * Shared by the samples that measure stack growth from its top.
 */
#ifndef SAMPLES_STACKMAP_H
#define SAMPLES_STACKMAP_H

#include <stdint.h>

/* Returns 0 and fills start/end, or -1 with errno set. */
int stack_mapping(uintptr_t *start, uintptr_t *end);

/* The soft RLIMIT_STACK as text: bytes, or "unlimited". */
const char *rlimit_text(unsigned long long value, char *buf, unsigned int len);

#endif
