// SPDX-License-Identifier: GPL-2.0
/*
 * argflood: show the argv+envp cap of execve().
 *
 *   argflood [OPTIONS] BYTES            exec /bin/argflood --child with BYTES
 *                                      of padding strings; report the outcome
 *   argflood [OPTIONS] --search LO HI
 *                                      bisect for the largest padding that the
 *                                      kernel accepts (not E2BIG)
 *   argflood [OPTIONS] --search-runs LO HI
 *                                      bisect for the largest padding with
 *                                      which the new program runs (exit 0)
 *
 * Padding goes into argv (default), envp (--envp) or alternately into both
 * (--mix), in strings of at most 32 KiB including their NUL (pad.h).
 * Every report gives the quantities the kernel accounts for the cap, see
 * docs/arg-cap.md:
 *
 *   bytes=    every string the kernel copies: the file name, argv[] and
 *             envp[] strings, each with its NUL
 *   pointers= argc + envc
 *   used=     bytes + pointers * the kernel's pointer size, which is this
 *             program's sizeof(void *) unless --pointer-size N says
 *             otherwise (8 for an i386 program on an x86_64 kernel)
 *
 * A child that is killed after its exec went through (the new program had
 * no room left for its stack) is reported as such: that is not E2BIG.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../i386-guest/lib/pad.h"
#include "../i386-guest/lib/size-expr.h"

#define SELF "/bin/argflood"

enum where { ARGV, ENVP, MIX };

static unsigned long long pointer_size = sizeof(void *);

struct flood {
	char **argv, **envp;
	unsigned long argc, envc;
	unsigned long long bytes;
};

static void add(char ***vec, unsigned long *n, char *s)
{
	(*vec)[(*n)++] = s;
}

static struct flood build(unsigned long long pad, enum where where)
{
	unsigned long strings = (unsigned long)pad_strings(pad);
	struct flood f = { 0 };
	unsigned long i;

	f.argv = calloc(strings + 3, sizeof(char *));
	f.envp = calloc(strings + 1, sizeof(char *));
	if (!f.argv || !f.envp || (strings && !pad_string(pad, 0))) {
		perror("argflood");
		exit(1);
	}
	add(&f.argv, &f.argc, SELF);
	add(&f.argv, &f.argc, "--child");
	f.bytes = sizeof(SELF) * 2 + sizeof("--child");
	for (i = 0; i < strings; i++) {
		char *s = pad_string(pad, i);
		int to_env = where == ENVP || (where == MIX && (i & 1));

		if (to_env)
			add(&f.envp, &f.envc, s);
		else
			add(&f.argv, &f.argc, s);
	}
	f.bytes += pad;
	return f;
}

/* Outcome of one exec: "exit0", "E2BIG", "SIGSEGV", ... */
static const char *attempt(unsigned long long pad, enum where where, struct flood *out)
{
	static char text[64];
	struct flood f = build(pad, where);
	int errpipe[2], err = 0, status;
	pid_t pid;

	*out = f;
	if (pipe2(errpipe, O_CLOEXEC)) {
		perror("argflood: pipe");
		exit(1);
	}
	pid = fork();
	if (pid < 0) {
		perror("argflood: fork");
		exit(1);
	}
	if (pid == 0) {
		execve(SELF, f.argv, f.envp);
		err = errno;
		if (write(errpipe[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(errpipe[1]);
	if (read(errpipe[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(errpipe[0]);
	waitpid(pid, &status, 0);
	free(f.argv);
	free(f.envp);
	if (err == E2BIG)
		snprintf(text, sizeof(text), "E2BIG");
	else if (err)
		snprintf(text, sizeof(text), "errno%d", err);
	else if (WIFSIGNALED(status))
		snprintf(text, sizeof(text), "%s", WTERMSIG(status) == SIGSEGV ? "SIGSEGV" : strsignal(WTERMSIG(status)));
	else
		snprintf(text, sizeof(text), "exit%d", WEXITSTATUS(status));
	return text;
}

static void describe(const char *prefix, unsigned long long pad, const struct flood *f)
{
	unsigned long pointers = f->argc + f->envc;

	printf("%spad=%llu %sbytes=%llu %spointers=%lu %sused=%llu",
	       prefix, pad, prefix, f->bytes, prefix, pointers, prefix,
	       f->bytes + pointers * pointer_size);
}

/* What --search (E2BIG or not) and --search-runs (exit 0 or not) look for. */
static int passes(const char *result, int runs)
{
	/* Another exec error is neither side of the edge: stop the search. */
	if (!strncmp(result, "errno", 5)) {
		fprintf(stderr, "argflood: exec failed with %s\n", result);
		exit(1);
	}
	return runs ? !strcmp(result, "exit0") : strcmp(result, "E2BIG") != 0;
}

static int search(unsigned long long lo, unsigned long long hi, enum where where, int runs)
{
	const char *lo_name = runs ? "last_run" : "last_fit";
	const char *hi_name = runs ? "first_fail" : "first_e2big";
	char prefix[32];
	struct flood f;

	/* Invariant: lo passes, hi does not. */
	if (!passes(attempt(lo, where, &f), runs) || passes(attempt(hi, where, &f), runs)) {
		fprintf(stderr, "argflood: LO must pass and HI must fail\n");
		return 2;
	}
	while (hi - lo > 1) {
		unsigned long long mid = lo + (hi - lo) / 2;

		if (passes(attempt(mid, where, &f), runs))
			lo = mid;
		else
			hi = mid;
	}
	printf("%s_result=%s ", lo_name, attempt(lo, where, &f));
	snprintf(prefix, sizeof(prefix), "%s_", lo_name);
	describe(prefix, lo, &f);
	printf(" %s_result=%s ", hi_name, attempt(hi, where, &f));
	snprintf(prefix, sizeof(prefix), "%s_", hi_name);
	describe(prefix, hi, &f);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	enum where where = ARGV;
	unsigned long long lo, hi, pad;
	struct flood f;
	int i = 1;

	if (argc > 1 && !strcmp(argv[1], "--child"))
		return 0;

	if (argc - i > 2 && !strcmp(argv[i], "--pointer-size")) {
		if (size_expr_parse(argv[i + 1], &pointer_size) || (pointer_size != 4 && pointer_size != 8)) {
			fprintf(stderr, "argflood: --pointer-size takes 4 or 8\n");
			return 2;
		}
		i += 2;
	}
	if (i < argc && !strcmp(argv[i], "--envp")) {
		where = ENVP;
		i++;
	} else if (i < argc && !strcmp(argv[i], "--mix")) {
		where = MIX;
		i++;
	}
	if (argc - i == 3 && (!strcmp(argv[i], "--search") || !strcmp(argv[i], "--search-runs")) &&
	    !size_expr_parse(argv[i + 1], &lo) && !size_expr_parse(argv[i + 2], &hi) && lo < hi)
		return search(lo, hi, where, !strcmp(argv[i], "--search-runs"));
	if (argc - i == 1 && !size_expr_parse(argv[i], &pad)) {
		const char *result = attempt(pad, where, &f);

		printf("result=%s ", result);
		describe("", pad, &f);
		printf("\n");
		return 0;
	}
	fprintf(stderr, "usage: argflood [--pointer-size N] [--envp|--mix] BYTES\n"
		"       argflood [--pointer-size N] [--envp|--mix] --search|--search-runs LO HI\n");
	return 2;
}
