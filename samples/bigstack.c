// SPDX-License-Identifier: GPL-2.0
/*
 * bigstack SIZE: a program that needs a deep stack.
 *
 * Recurses, touching every page of each frame, until it has written the byte
 * SIZE bytes below the top of its [stack] mapping (SIZE as in size-expr.h:
 * "8M", "8M+1").  Prints "touched=SIZE lowest=ADDR" and exits 0 when it got
 * there; when the kernel refuses to grow the stack that far it dies of
 * SIGSEGV, as any program would.
 *
 * Measuring from the mapping's top makes the limit exact: the stack may grow
 * to RLIMIT_STACK bytes, so SIZE == rlimit is the last byte that fits and
 * SIZE == rlimit + 1 the first that does not.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../i386-guest/lib/size-expr.h"
#include "../i386-guest/lib/stackmap.h"

#define FRAME 16384
#define PAGE 4096

static volatile char *target;

static __attribute__((noinline)) unsigned int descend(void)
{
	volatile char frame[FRAME];
	unsigned int i;

	for (i = 0; i < FRAME; i += PAGE)
		frame[FRAME - 1 - i] = 1;
	frame[0] = 1;
	/* Stop one frame above the target and touch it directly. */
	if ((uintptr_t)frame > (uintptr_t)target + 2 * FRAME)
		return descend() + frame[1];
	*target = *target;	/* a write that keeps whatever is there */
	return frame[1];
}

int main(int argc, char **argv)
{
	unsigned long long size;
	uintptr_t lo, hi;

	if (argc != 2 || size_expr_parse(argv[1], &size)) {
		fprintf(stderr, "usage: bigstack SIZE (bytes below the stack top, e.g. 8M+1)\n");
		return 2;
	}
	if (stack_mapping(&lo, &hi)) {
		perror("bigstack: /proc/self/maps");
		return 1;
	}
	if (size == 0 || size >= hi) {
		fprintf(stderr, "bigstack: SIZE out of range\n");
		return 2;
	}
	target = (volatile char *)(hi - (uintptr_t)size);
	descend();
	printf("touched=%llu lowest=%#lx\n", size, (unsigned long)target);
	return 0;
}
