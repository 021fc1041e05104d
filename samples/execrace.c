// SPDX-License-Identifier: GPL-2.0
/*
 * execrace [-c CONTEXT] [-f NFDS] N BOUND PROGRAM: an attacker's race
 * against the stack limit of a privileged exec.  N times, a child execs
 * PROGRAM (racetarget: setuid, setgid or with file capabilities, stamped
 * or not) while a racer, a process of the same user started once, loops
 *
 *   prlimit(child, RLIMIT_STACK, { unlimited, unlimited })
 *
 * on whichever child is current, from the child's fork through its exec
 * and while the program runs.  Before the exec the child is the caller's
 * own and the racer's writes succeed; once the exec committed the
 * program's credentials they must fail, and none may reach the program.
 * Then it prints
 *
 *   execs=N raised=R secure=S writes=W highest=H cpus=C
 *
 * raised: execs whose program saw a soft stack limit above BOUND (a size:
 * 8M, 64M); secure: execs whose program had AT_SECURE set; writes: the
 * racer's prlimit() calls that succeeded, which shows it raced at all;
 * highest: the highest soft limit a program saw, in bytes or "unlimited";
 * cpus: the CPUs online, where the race ran.
 *
 * -c CONTEXT: each child writes CONTEXT to /proc/self/attr/exec before
 * its exec, so the exec is an SELinux domain transition.  -f NFDS: the
 * children hold NFDS more open descriptors across the exec, which an
 * SELinux transition revalidates one by one while the exec commits the
 * program's credentials (the scenario's nofile= must allow them).
 *
 * With two CPUs the racer runs on the second and the children on the
 * first; on one CPU both share it, and the race is a matter of
 * preemption.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../i386-guest/lib/size-expr.h"

/* What the children and the racer share. */
struct race {
	volatile pid_t target;		/* the child to write to, 0: none */
	volatile int stop;
	volatile unsigned long writes;	/* prlimit() calls that succeeded */
};

static int usage(void)
{
	fprintf(stderr, "usage: execrace [-c CONTEXT] [-f NFDS] N BOUND PROGRAM\n");
	return 2;
}

/* Runs on @cpu where there is one; on a uniprocessor nothing to do. */
static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static __attribute__((noreturn)) void racer(struct race *r)
{
	const struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };

	pin(1);
	while (!r->stop) {
		pid_t pid = r->target;

		if (pid > 0 && !prlimit(pid, RLIMIT_STACK, &unlimited, NULL))
			r->writes++;
	}
	_exit(0);
}

/* NFDS descriptors of /dev/null that stay open across exec. */
static int open_many(long nfds)
{
	int fd = open("/dev/null", O_RDONLY);

	if (fd < 0)
		return -1;
	for (long i = 1; i < nfds; i++)
		if (dup(fd) < 0)
			return -1;
	return 0;
}

static __attribute__((noreturn)) void child(struct race *r, int out, const char *context,
					    char *program)
{
	char *argv[] = { program, NULL };
	char *envp[] = { NULL };

	r->target = getpid();
	if (dup2(out, STDOUT_FILENO) < 0)
		_exit(125);
	if (context) {
		int fd = open("/proc/self/attr/exec", O_WRONLY | O_CLOEXEC);

		if (fd < 0 || write(fd, context, strlen(context)) < 0)
			_exit(125);
		close(fd);
	}
	execve(program, argv, envp);
	_exit(127);
}

/* One exec: what its program printed, "rlim_cur=V secure=S", parsed. */
static int one_exec(struct race *r, const char *context, char *program,
		    unsigned long long *rlim_cur, unsigned long *secure)
{
	char buf[256], cur[32];
	ssize_t n, len = 0;
	int p[2], status;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0)
		child(r, p[1], context, program);
	close(p[1]);
	while (pid > 0 && (n = read(p[0], buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(p[0]);
	r->target = 0;
	buf[len] = '\0';
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || sscanf(buf, "rlim_cur=%31s secure=%lu", cur, secure) != 2) {
		fprintf(stderr, "execrace: %s: status %#x, printed '%s'\n", program, status, buf);
		return -1;
	}
	if (!strcmp(cur, "unlimited"))
		*rlim_cur = ~0ULL;
	else
		*rlim_cur = strtoull(cur, NULL, 10);
	return 0;
}

int main(int argc, char **argv)
{
	const char *context = NULL;
	unsigned long long bound, highest = 0, rlim_cur;
	unsigned long secure, nsecure = 0, raised = 0;
	long n, nfds = 0, cpus;
	struct race *r;
	pid_t racer_pid;
	int opt;

	while ((opt = getopt(argc, argv, "+c:f:")) != -1) {
		if (opt == 'c')
			context = optarg;
		else if (opt == 'f' && (nfds = atol(optarg)) > 0)
			continue;
		else
			return usage();
	}
	argc -= optind;
	argv += optind;
	if (argc != 3 || (n = atol(argv[0])) <= 0 || size_expr_parse(argv[1], &bound))
		return usage();
	if (nfds && open_many(nfds)) {
		perror("execrace: open /dev/null");
		return 1;
	}
	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED) {
		perror("execrace: mmap");
		return 1;
	}
	/* Before pin(): musl counts the CPUs this process may run on. */
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	racer_pid = fork();
	if (racer_pid == 0)
		racer(r);
	if (racer_pid < 0) {
		perror("execrace: fork");
		return 1;
	}
	pin(0);
	for (long i = 0; i < n; i++) {
		if (one_exec(r, context, argv[2], &rlim_cur, &secure)) {
			kill(racer_pid, SIGKILL);
			return 1;
		}
		raised += rlim_cur > bound;
		nsecure += secure != 0;
		if (rlim_cur > highest)
			highest = rlim_cur;
	}
	r->stop = 1;
	waitpid(racer_pid, NULL, 0);
	printf("execs=%ld raised=%lu secure=%lu writes=%lu highest=", n, raised, nsecure, r->writes);
	if (highest == ~0ULL)
		printf("unlimited");
	else
		printf("%llu", highest);
	printf(" cpus=%ld\n", cpus);
	return 0;
}
