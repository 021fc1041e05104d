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

#include "stackmap.h"

static void capeff(char *out, size_t len)
{
	char line[256];
	FILE *status = fopen("/proc/self/status", "re");

	snprintf(out, len, "unknown");
	if (!status)
		return;
	while (fgets(line, sizeof(line), status)) {
		if (sscanf(line, "CapEff: %63s", out) == 1)
			break;
	}
	fclose(status);
}

int main(void)
{
	struct rlimit rl;
	uintptr_t lo = 0, hi = 0, top = 0;
	char cur[32], max[32], caps[64];
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
	capeff(caps, sizeof(caps));
	printf("uid=%u euid=%u gid=%u egid=%u secure=%lu rlim_cur=%s rlim_max=%s mmap=%#lx mmap_top=%#lx stack_top=%#lx stack_size=%lu capeff=%s\n",
	       getuid(), geteuid(), getgid(), getegid(), getauxval(AT_SECURE),
	       rlimit_text(rl.rlim_cur, cur, sizeof(cur)),
	       rlimit_text(rl.rlim_max, max, sizeof(max)),
	       (unsigned long)map, (unsigned long)top, (unsigned long)hi,
	       (unsigned long)(hi - lo), caps);
	return 0;
}
