// SPDX-License-Identifier: GPL-2.0
/*
 * probe: print, in one key=value line, what exec gave this process:
 *
 *   uid= euid= gid= egid=   who it runs as
 *   secure=                 AT_SECURE from the auxiliary vector
 *   rlim_cur= rlim_max=     RLIMIT_STACK in bytes, or "unlimited"
 *   mmap=                   where a fresh anonymous one-page mmap lands
 *   mmap_top=               the highest end of a mapping below the stack:
 *                           the mmap base when ASLR is off
 *   stack_top= stack_size=  the [stack] mapping's end and current size
 *   capeff=                 CapEff from /proc/self/status (hex)
 *   gap=                    StackGuardGap from /proc/self/status (kB there)
 *                           in bytes, or "none" when the kernel prints no
 *                           such line
 *   context=                /proc/self/attr/current: the SELinux context
 *                           it runs in, or "none" without one
 *
 * The guest installs copies of it as root 4755, root 2755 and with a file
 * capability, so one program shows every secureexec path.
 */
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "../i386-guest/lib/proc-status.h"
#include "../i386-guest/lib/stackmap.h"

/* The security context this process runs in, or "none" (no LSM gives one). */
static const char *security_context(char *buf, size_t len)
{
	FILE *f = fopen("/proc/self/attr/current", "re");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? buf : "none";
}

int main(void)
{
	struct rlimit rl;
	uintptr_t lo = 0, hi = 0, top = 0;
	char cur[32], max[32], context[128];
	struct proc_status st;
	void *map;

	if (getrlimit(RLIMIT_STACK, &rl)) {
		perror("probe: getrlimit");
		return 1;
	}
	map = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED) {
		perror("probe: mmap");
		return 1;
	}
	if (stack_mapping(&lo, &hi) || mapping_top_below(lo, &top)) {
		perror("probe: /proc/self/maps");
		return 1;
	}
	proc_status(0, &st);
	printf("uid=%u euid=%u gid=%u egid=%u secure=%lu rlim_cur=%s rlim_max=%s mmap=%#lx mmap_top=%#lx stack_top=%#lx stack_size=%lu capeff=%s gap=%s context=%s\n",
	       getuid(), geteuid(), getgid(), getegid(), getauxval(AT_SECURE),
	       rlimit_text(rl.rlim_cur, cur, sizeof(cur)),
	       rlimit_text(rl.rlim_max, max, sizeof(max)),
	       (unsigned long)map, (unsigned long)top, (unsigned long)hi,
	       (unsigned long)(hi - lo), st.capeff, st.gap,
	       security_context(context, sizeof(context)));
	return 0;
}
