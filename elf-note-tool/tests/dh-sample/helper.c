/*
 * A setuid helper that needs more than the 8 MiB of stack Linux gives
 * setuid programs: it recurses through DEPTH frames of 64 KiB (default
 * 256, 16 MiB).  Prints its stack limit and "depth=DEPTH" when it got
 * there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static int descend(int depth)
{
	volatile char frame[64 * 1024];

	memset((char *)frame, depth, sizeof(frame));
	return depth ? descend(depth - 1) + frame[0] - frame[1] : 0;
}

int main(int argc, char **argv)
{
	int depth = argc > 1 ? atoi(argv[1]) : 256;
	struct rlimit rl;

	if (getrlimit(RLIMIT_STACK, &rl))
		return 1;
	printf("rlim_cur=%llu depth=%d\n", (unsigned long long)rl.rlim_cur, descend(depth) + depth);
	return 0;
}
