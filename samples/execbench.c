// SPDX-License-Identifier: GPL-2.0
/*
 * execbench [-a ARG]... N PROGRAM [NEXT [ARG...]]: vfork and execute
 * PROGRAM (with the -a arguments after argv[0], empty environment) N
 * times, waiting for each, and print
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

#define MAX_ARGS 8

static int usage(void)
{
	fprintf(stderr, "usage: execbench [-a ARG]... N PROGRAM [NEXT [ARG...]]\n");
	return 2;
}

static long long now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* The ns of one vfork + execve + exit + wait of @path, or -1. */
static long long time_exec(const char *path, char *const *child_argv)
{
	char *const envp[] = { NULL };
	long long start = now_ns();
	int status;
	pid_t pid = vfork();

	if (pid == 0) {
		execve(path, child_argv, envp);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		return -1;
	return now_ns() - start;
}

int main(int argc, char **argv)
{
	char *child_argv[MAX_ARGS + 2] = { NULL };
	int opt, nargs = 0;
	long long ns, sum = 0;
	long n, i;

	while ((opt = getopt(argc, argv, "+a:")) != -1) {
		if (opt != 'a' || nargs == MAX_ARGS)
			return usage();
		child_argv[1 + nargs++] = optarg;
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || (n = atol(argv[0])) <= 0)
		return usage();
	child_argv[0] = argv[1];
	for (i = 0; i < n; i++) {
		ns = time_exec(argv[1], child_argv);
		if (ns < 0) {
			fprintf(stderr, "execbench: %s failed\n", argv[1]);
			return 1;
		}
		sum += ns;
	}
	printf("execs=%ld ns_per_exec=%lld\n", n, sum / n);
	if (argc == 2)
		return 0;
	fflush(stdout);
	execv(argv[2], argv + 2);
	perror("execbench: NEXT");
	return 1;
}
