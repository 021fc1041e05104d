// SPDX-License-Identifier: GPL-2.0
/*
 * execbench N PROGRAM [NEXT [ARG...]]: vfork and execute PROGRAM (no
 * arguments, empty environment) N times, waiting for each, and print
 *
 *   execs=N ns_per_exec=T
 *
 * with T the mean wall time of one vfork + execve + exit + wait, from
 * CLOCK_MONOTONIC.  Used by i386-guest/bench.sh to compare kernels; it is a
 * measurement, not a test.  With NEXT it then executes NEXT with its
 * arguments: the scenarios use it to flood the kernel log with what N
 * execs of PROGRAM log, then see whether NEXT's line still gets through.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char *const child_argv[] = { argc > 2 ? argv[2] : NULL, NULL };
	char *const envp[] = { NULL };
	struct timespec start, end;
	long n, i;

	if (argc < 3 || (n = atol(argv[1])) <= 0) {
		fprintf(stderr, "usage: execbench N PROGRAM [NEXT [ARG...]]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < n; i++) {
		int status;
		pid_t pid = vfork();

		if (pid == 0) {
			execve(argv[2], child_argv, envp);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid ||
		    !WIFEXITED(status) || WEXITSTATUS(status)) {
			fprintf(stderr, "execbench: %s failed\n", argv[2]);
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &end);
	printf("execs=%ld ns_per_exec=%lld\n", n,
	       ((end.tv_sec - start.tv_sec) * 1000000000LL + end.tv_nsec - start.tv_nsec) / n);
	if (argc == 3)
		return 0;
	fflush(stdout);
	execv(argv[3], argv + 3);
	perror("execbench: NEXT");
	return 1;
}
