// SPDX-License-Identifier: GPL-2.0
/*
 * javastack [--xss SIZE] [--reserve SIZE]: HotSpot's 32-bit x86 start-up on the
 * primordial thread as it was before JDK-8197429, and what it does to a kernel
 * with a 1 MiB stack guard gap.
 *
 * HotSpot, running Java on the primordial thread:
 *  1. takes the stack top from the end of the [stack] mapping and the bottom
 *     as top - size, size = min(-Xss, rlimit - 2 pages), or min(rlimit, 8 MiB)
 *     without -Xss;
 *  2. reserves one page at bottom - 4 pages (its guard zones plus one) with a
 *     non-fixed PROT_NONE mmap, insists on getting exactly that address,
 *     commits it read/write/execute with MAP_FIXED, writes a `ret` there,
 *     calls it, and leaves it mapped;
 *  3. runs Java code, whose stack grows down toward the bottom.
 *
 * Since the kernel keeps stack_guard_gap (1 MiB) between a growing stack and
 * any accessible mapping below it, step 3 is refused about 1 MiB early and
 * the JVM dies of SIGSEGV.  This program grows its stack down to `--reserve`
 * (default 4 pages) above the bottom and prints how far it got:
 *
 *   top= bottom= page=     the addresses above
 *   wanted=                bytes below top it tries to reach
 *   reached=               bytes below top it did reach
 *   result=ok|SIGSEGV      ok: exit 0; SIGSEGV: printed from the handler on
 *                          an alternate stack, then the signal is re-raised
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../i386-guest/lib/size-expr.h"
#include "../i386-guest/lib/stackmap.h"

#define PAGE 4096UL
#define FRAME 8192

static uintptr_t top, bottom, page, want;
static volatile uintptr_t lowest;

static void report(const char *result)
{
	char line[256];
	int n = snprintf(line, sizeof(line),
			 "top=%#lx bottom=%#lx page=%#lx wanted=%lu reached=%lu result=%s\n",
			 (unsigned long)top, (unsigned long)bottom, (unsigned long)page,
			 (unsigned long)(top - want), (unsigned long)(top - lowest), result);

	/* write(), not stdio: this also runs from the SIGSEGV handler. */
	if (n > 0 && write(STDOUT_FILENO, line, (size_t)n) < 0)
		_exit(1);
}

static void on_segv(int sig)
{
	report("SIGSEGV");
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_segv(void)
{
	static char altstack[65536];
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_ONSTACK;
	if (sigaltstack(&ss, NULL) || sigaction(SIGSEGV, &sa, NULL)) {
		perror("javastack: sigaltstack");
		exit(1);
	}
}

/* HotSpot's primordial stack size: os::Linux::capture_initial_stack(). */
static uintptr_t initial_stack_size(unsigned long long xss)
{
	struct rlimit rl;
	unsigned long long size;

	if (getrlimit(RLIMIT_STACK, &rl)) {
		perror("javastack: getrlimit");
		exit(1);
	}
	size = rl.rlim_cur;
	if (rl.rlim_cur == RLIM_INFINITY || size > 8UL << 20)
		size = 8UL << 20;
	if (xss && rl.rlim_cur != RLIM_INFINITY && xss > rl.rlim_cur - 2 * PAGE)
		xss = rl.rlim_cur - 2 * PAGE;
	if (xss)
		size = xss;
	return (uintptr_t)size;
}

/*
 * A return instruction, for the page to hold and be called: x86's ret as
 * HotSpot wrote it; on arm, bx lr in ARM state (the call, to an even
 * address, switches to it from Thumb code); on arm64, ret.
 */
#if defined(__i386__) || defined(__x86_64__)
static const unsigned char ret_insn[] = { 0xc3 };
#elif defined(__aarch64__)
static const unsigned char ret_insn[] = { 0xc0, 0x03, 0x5f, 0xd6 };
#elif defined(__arm__)
static const unsigned char ret_insn[] = { 0x1e, 0xff, 0x2f, 0xe1 };
#else
#error "javastack: no return instruction for this architecture"
#endif

/* The executable page just below the stack (the "codebuf" of JDK-8197429). */
static void map_exec_page(void)
{
	uintptr_t hint = bottom - 4 * PAGE;
	void *p = mmap((void *)hint, PAGE, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p != (void *)hint) {
		fprintf(stderr, "javastack: wanted %#lx below the stack, got %p\n",
			(unsigned long)hint, p);
		exit(3);
	}
	p = mmap(p, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	if (p == MAP_FAILED) {
		perror("javastack: mmap RWX");
		exit(3);
	}
	memcpy(p, ret_insn, sizeof(ret_insn));
	__builtin___clear_cache((char *)p, (char *)p + sizeof(ret_insn));
	((void (*)(void))p)();
	page = (uintptr_t)p;
}

static __attribute__((noinline)) unsigned int grow(void)
{
	volatile char frame[FRAME];
	unsigned int i;

	for (i = 0; i < FRAME; i += PAGE)
		frame[FRAME - 1 - i] = 1;
	frame[0] = 1;
	lowest = (uintptr_t)frame;
	if ((uintptr_t)frame > want + FRAME)
		return grow() + frame[1];
	return frame[1];
}

int main(int argc, char **argv)
{
	unsigned long long xss = 0, reserve = 4 * PAGE;
	uintptr_t lo;
	int i;

	for (i = 1; i + 1 < argc; i += 2) {
		unsigned long long *v = !strcmp(argv[i], "--xss") ? &xss :
					!strcmp(argv[i], "--reserve") ? &reserve : NULL;

		if (!v || size_expr_parse(argv[i + 1], v))
			break;
	}
	if (i != argc) {
		fprintf(stderr, "usage: javastack [--xss SIZE] [--reserve SIZE]\n");
		return 2;
	}
	if (stack_mapping(&lo, &top)) {
		perror("javastack: /proc/self/maps");
		return 1;
	}
	bottom = top - initial_stack_size(xss);
	want = bottom + (uintptr_t)reserve;
	lowest = top;
	map_exec_page();
	catch_segv();
	grow();
	report("ok");
	return 0;
}
