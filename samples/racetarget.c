// SPDX-License-Identifier: GPL-2.0
/*
 * racetarget: the program samples/execrace runs, installed setuid, setgid
 * and with a file capability, unstamped and stamped.  It prints
 *
 *   rlim_cur=V secure=S
 *
 * V: the highest soft RLIMIT_STACK it saw, in bytes or "unlimited", read
 * once when it starts and again after yielding the CPU a few times, so
 * that a write a racer made late in the exec is seen too; S: AT_SECURE.
 * It does nothing else: an exec of it is cheap, and the race is run
 * thousands of times.
 */
#include <sched.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <sys/resource.h>

#include "../i386-guest/lib/stackmap.h"

int main(void)
{
	struct rlimit first, last;
	char text[32];

	if (getrlimit(RLIMIT_STACK, &first))
		return 1;
	for (int i = 0; i < 4; i++)
		sched_yield();
	if (getrlimit(RLIMIT_STACK, &last))
		return 1;
	if (last.rlim_cur > first.rlim_cur)
		first.rlim_cur = last.rlim_cur;
	printf("rlim_cur=%s secure=%lu\n", rlimit_text(first.rlim_cur, text, sizeof(text)),
	       getauxval(AT_SECURE));
	return 0;
}
