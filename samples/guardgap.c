// SPDX-License-Identifier: GPL-2.0
/*
 * guardgap: the stack guard gap this process got, measured at its stack.
 *
 *   guardgap touch OFFSET [BELOW]
 *                             put one readable page BELOW bytes (default
 *                             6 MiB) under the stack, then write the byte
 *                             OFFSET bytes above the page's end, growing
 *                             the stack down to it: exits 0, or dies of
 *                             SIGSEGV where the gap refuses the growth
 *   guardgap measure [BELOW]  the same in forked children, bisecting the
 *                             page offsets up to BELOW: prints gap=N, the
 *                             smallest offset the stack may reach (the
 *                             children's gap is the one fork gave them)
 *   guardgap hint OFFSET      ask mmap() (not MAP_FIXED) for one page
 *                             ending OFFSET bytes below the stack's
 *                             bottom: prints placed=hint if it lands
 *                             there, placed=elsewhere if the kernel keeps
 *                             it out of the gap (vm_start_gap())
 *   guardgap exec PROG ARG... run PROG (from a stamped launcher)
 *
 * The kernel refuses to grow a stack to an address less than the gap
 * above the end of an accessible mapping below it (expand_downwards()),
 * in whole pages, so the smallest offset that works is the gap itself.
 * The page goes BELOW bytes under the current bottom of [stack]; the
 * default 6 MiB lets even the 8 MiB stack limit of a setuid run reach
 * it: run with a stack limit of at least BELOW + 2 MiB.  A gap larger
 * than 6 MiB needs a larger BELOW (64 MiB: BELOW 72M, stack limit 128M).
 * Prints key=value lines.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../i386-guest/lib/size-expr.h"
#include "../i386-guest/lib/stackmap.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define PAGE		4096UL
#define PAGE_BELOW	(6UL << 20)	/* the default BELOW */

/*
 * The page ending offset bytes below the bottom of [stack] (its start in
 * *page, the bottom in *start), or -1 after saying why.
 */
static int page_below(unsigned long offset, uintptr_t *start, uintptr_t *page)
{
	uintptr_t end;

	if (stack_mapping(start, &end)) {
		perror("guardgap: /proc/self/maps");
		return -1;
	}
	if (offset & (PAGE - 1) || offset >= *start - PAGE) {
		fprintf(stderr, "guardgap: %#lx: not a page multiple below the stack\n", offset);
		return -1;
	}
	*page = *start - offset - PAGE;
	return 0;
}

/* The end of the readable page placed below the stack, or 0. */
static uintptr_t place_page(unsigned long below)
{
	uintptr_t start, page;
	void *p;

	if (page_below(below, &start, &page))
		return 0;
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

/*
 * Whether a mmap() hint for the page ending offset bytes below the stack
 * is taken: the placement side of the gap.  The stack must not move in
 * between: the initial [stack] already spans 128 KiB below the
 * arguments, far more than this needs, and it is read again to be sure.
 */
static int hint(unsigned long offset)
{
	uintptr_t start, again, end, want;
	void *p;

	if (page_below(offset, &start, &want))
		return 2;
	p = mmap((void *)want, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("guardgap: mmap");
		return 2;
	}
	if (stack_mapping(&again, &end) || again != start) {
		fprintf(stderr, "guardgap: the stack moved (%#lx, then %#lx)\n",
			(unsigned long)start, (unsigned long)again);
		return 2;
	}
	printf("stack_low=%#lx hint=%#lx got=%#lx\n", (unsigned long)start, (unsigned long)want,
	       (unsigned long)p);
	printf("placed=%s\n", p == (void *)want ? "hint" : "elsewhere");
	return 0;
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

static int measure(uintptr_t page_end, unsigned long below)
{
	unsigned long lo = 0, hi = below;	/* lo fails, hi works */

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

/* The optional BELOW argument at argv[i]: 0 if invalid. */
static unsigned long below_arg(int argc, char **argv, int i)
{
	unsigned long long below = PAGE_BELOW;

	if (i < argc && (size_expr_parse(argv[i], &below) || !below || below > 1UL << 30))
		return 0;
	return (unsigned long)below;
}

int main(int argc, char **argv)
{
	unsigned long long offset;
	unsigned long below;
	uintptr_t page_end;

	if (argc >= 3 && !strcmp(argv[1], "exec")) {
		execv(argv[2], argv + 2);
		perror("guardgap: exec");
		return 2;
	}
	if (argc == 3 && !strcmp(argv[1], "hint") && !size_expr_parse(argv[2], &offset))
		return hint((unsigned long)offset);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], "measure") &&
	    (below = below_arg(argc, argv, 2))) {
		page_end = place_page(below);
		return page_end ? measure(page_end, below) : 2;
	}
	if ((argc != 3 && argc != 4) || strcmp(argv[1], "touch") ||
	    size_expr_parse(argv[2], &offset) || !(below = below_arg(argc, argv, 3))) {
		fprintf(stderr, "usage: guardgap touch OFFSET [BELOW] | measure [BELOW] | hint OFFSET | exec PROG ARG...\n");
		return 2;
	}
	page_end = place_page(below);
	if (!page_end)
		return 2;
	touch(page_end, (unsigned long)offset);
	printf("touched=%llu\n", offset);
	return 0;
}
