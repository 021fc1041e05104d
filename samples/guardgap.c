// SPDX-License-Identifier: GPL-2.0
/*
 * guardgap: the stack guard gap this process got, measured at its stack.
 *
 *   guardgap touch OFFSET     put one readable page below the stack, then
 *                             write the byte OFFSET bytes above the
 *                             page's end, growing the stack down to it:
 *                             exits 0, or dies of SIGSEGV where the gap
 *                             refuses the growth
 *   guardgap measure          the same in forked children, bisecting the
 *                             page offsets up to 6 MiB: prints gap=N, the
 *                             smallest offset the stack may reach (the
 *                             children's gap is the one fork gave them)
 *   guardgap exec PROG ARG... run PROG (from a stamped launcher)
 *
 * The kernel refuses to grow a stack to an address less than the gap
 * above the end of an accessible mapping below it (expand_downwards()),
 * in whole pages, so the smallest offset that works is the gap itself.
 * The page goes PAGE_BELOW bytes under the current bottom of [stack], so
 * that even the 8 MiB stack limit of a setuid run reaches it; run
 * with a stack limit of at least 8 MiB.  Prints key=value lines.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "size.h"
#include "stackmap.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PAGE		4096UL
#define PAGE_BELOW	(6UL << 20)
#define MEASURE_MAX	PAGE_BELOW

/* The end of the readable page placed below the stack, or 0. */
static uintptr_t place_page(void)
{
	uintptr_t start, end, page;
	void *p;

	if (stack_mapping(&start, &end)) {
		perror("guardgap: /proc/self/maps");
		return 0;
	}
	page = start - PAGE_BELOW - PAGE;
	p = mmap((void *)page, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		 -1, 0);
	if (p != (void *)page) {
		fprintf(stderr, "guardgap: mmap at %#lx: %s\n", (unsigned long)page, strerror(errno));
		return 0;
	}
	printf("stack_low=%#lx page_end=%#lx\n", (unsigned long)start, (unsigned long)(page + PAGE));
	fflush(stdout);
	return page + PAGE;
}

/* Grows the stack down to page_end + offset; SIGSEGV if refused. */
static void touch(uintptr_t page_end, unsigned long offset)
{
	volatile char *at = (volatile char *)(page_end + offset);

	*at = 1;
}

/* Whether a child can grow its stack to page_end + offset. */
static int reaches(uintptr_t page_end, unsigned long offset)
{
	int status;
	pid_t pid = fork();

	if (pid < 0) {
		perror("guardgap: fork");
		exit(2);
	}
	if (!pid) {
		touch(page_end, offset);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("guardgap: waitpid");
		exit(2);
	}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
		return 0;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 1;
	fprintf(stderr, "guardgap: child ended with status %#x\n", status);
	exit(2);
}

static int measure(uintptr_t page_end)
{
	unsigned long lo = 0, hi = MEASURE_MAX;	/* lo fails, hi works */

	if (reaches(page_end, lo) || !reaches(page_end, hi)) {
		printf("gap=out-of-range\n");
		return 1;
	}
	while (hi - lo > PAGE) {
		unsigned long mid = (lo + (hi - lo) / 2) & ~(PAGE - 1);

		if (reaches(page_end, mid))
			hi = mid;
		else
			lo = mid;
	}
	printf("gap=%lu\n", hi);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long offset;
	uintptr_t page_end;

	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		execv(argv[2], argv + 2);
		perror("guardgap: exec");
		return 2;
	}
	if (argc == 2 && !strcmp(argv[1], "measure")) {
		page_end = place_page();
		return page_end ? measure(page_end) : 2;
	}
	if (argc != 3 || strcmp(argv[1], "touch") || parse_size(argv[2], &offset)) {
		fprintf(stderr, "usage: guardgap touch OFFSET | measure | exec PROG ARG...\n");
		return 2;
	}
	page_end = place_page();
	if (!page_end)
		return 2;
	touch(page_end, (unsigned long)offset);
	printf("touched=%llu\n", offset);
	return 0;
}
