/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Scenarios are data (the .scn files under tests/scenarios, format in docs/scenarios.md).
 * This parser is shared by the guest runner (init.c) and the host-side
 * lint (scenario-lint.c), so a typo fails on the host in a second instead of
 * after a kernel boot.
 */
#ifndef GUEST_SCENARIO_H
#define GUEST_SCENARIO_H

#include <stdbool.h>
#include <stdio.h>

#define SCN_MAX_ARGS 16
#define SCN_MAX_VALUES 16
#define SCN_MAX_LETS 64
#define SCN_MAX_BOOTS 16
#define SCN_MAX_FCAPS 16
#define SCN_TEXT 256
#define SCN_MAX_STRINGS (4 << 20)	/* argv_empty, envp_empty */
#define SCN_MAX_PAD (64 << 20)		/* argv_bytes, envp_bytes */
#define SCN_MAX_REPEAT 1000

/* RLIMIT_STACK or RLIMIT_NOFILE as a scenario sets it. */
struct scn_limit {
	bool set;			/* false: inherit the runner's */
	unsigned long long soft, hard;	/* SCN_UNLIMITED for RLIM_INFINITY */
};

#define SCN_UNLIMITED (~0ULL)

enum scn_status { SCN_EXIT, SCN_SIGNAL, SCN_ERRNO };

/* One expected value the program prints as key=value. */
struct scn_value {
	char key[64];
	char text[SCN_TEXT];		/* exact text, when !is_range */
	bool is_range;
	unsigned long long lo, hi;	/* inclusive, when is_range */
};

/*
 * The ABIs a scenario can run under: a program of the kernel's own kind on
 * i386, x86_64, arm (armhf) or arm64, and a 32-bit program on a 64-bit
 * kernel's compat layer (ia32: i386 on x86_64; aarch32: armhf on arm64).
 * A 32-bit kernel runs its one ABI; a 64-bit kernel runs its own, then
 * the compat one, with the same scenarios.  The guest cannot read
 * i386-guest/abis.txt, where the rest of the harness learns this: the two
 * are held together by tests/host/test-abis.sh.
 */
#define SCN_ABIS { "i386", "ia32", "x86_64", "arm", "aarch32", "arm64" }
#define SCN_NABIS 6

/* The index of an ABI name in SCN_ABIS, or -1. */
int scn_abi_index(const char *name);

/*
 * The ABIs a kernel runs, native first, comma-separated, for machine
 * (uname -m, or the kernel's ARCH): "x86_64,ia32" for x86_64,
 * "arm64,aarch32" for aarch64 (ARCH arm64), "arm" for armv7l (ARCH arm),
 * "i386" otherwise.
 */
const char *scn_kernel_abis(const char *machine);

/*
 * The counts of a kselftest's KTAP totals line, in the order kselftest.h's
 * ksft_print_cnts() prints them: "# Totals: pass:N fail:N xfail:N xpass:N
 * skip:N error:N".
 */
#define SCN_KTAP_COUNTS { "pass", "fail", "xfail", "xpass", "skip", "error" }
#define SCN_NKTAP 6

struct scn_ktap {
	bool set;
	unsigned int n[SCN_NKTAP];	/* in SCN_KTAP_COUNTS order */
};

/*
 * The totals line of output (the last one, when there are several) into
 * *t; -1 when it has none, or one this cannot read.
 */
int scn_ktap_totals(const char *output, struct scn_ktap *t);

/* "pass:9,xfail:3": the counts that are not 0, as expect.ktap= gives them. */
void scn_ktap_text(const struct scn_ktap *t, char *buf, size_t len);

/* A command given as run= gives it: PATH[,ARG...]; argc 0 for none. */
struct scn_command {
	char argv[SCN_MAX_ARGS][SCN_TEXT];
	int argc;
};

struct scenario {
	char name[128];
	int line;
	char argv[SCN_MAX_ARGS][SCN_TEXT];
	int argc;
	unsigned int uid, gid;
	struct scn_limit stack;
	struct scn_limit nofile;	/* RLIMIT_NOFILE: descriptors, not bytes */
	unsigned long long argv_bytes, envp_bytes;	/* padding in 32 KiB strings */
	unsigned long long argv_empty, envp_empty;	/* empty strings ("") */
	bool norandom;
	unsigned int repeat;		/* runs, every one must pass (1..SCN_MAX_REPEAT) */
	unsigned long long ambient;	/* capability bits raised as ambient for the exec */
	char context[64];		/* SELinux context the exec enters, "" for none */
	char sysctl[128];		/* /proc/sys path, "" for none */
	char sysctl_value[64];		/* written for the run, then restored */
	char boot[32];
	char kernel[32];		/* "any", "stock" or "patched" */
	char series[16];		/* "6.1", "6.12": its kernels only; "" for every one */
	unsigned int abis;		/* bit per SCN_ABIS index; 0: every ABI */
	enum scn_status status;
	int status_value;		/* exit code, signal or errno number */
	struct scn_value values[SCN_MAX_VALUES];
	int nvalues;
	/*
	 * Kernel log lines the run must (kmsg) or must not (no_kmsg) print:
	 * comma-separated words that one line contains all of; "" for none.
	 */
	char kmsg[SCN_TEXT];
	char no_kmsg[SCN_TEXT];
	/* Text the program's output must contain (expect.stdout); "" for none. */
	char stdout_has[SCN_TEXT];
	/* The KTAP totals the program must print (expect.ktap): every count. */
	struct scn_ktap ktap;
	/*
	 * A Debian program (tests/scenarios/70-debian.scn): root is the
	 * folder it runs chrooted in ("" for none); stdin its input lines,
	 * each ending in '\n', fed one at a time (has_stdin false: the
	 * runner's stdin); observe: the runner reads /proc/PID while the
	 * program is stopped at its exec; before and after: a command
	 * (comma-separated like run=) run as root in root around it.
	 */
	char root[SCN_TEXT];
	bool has_stdin;
	char stdin_text[SCN_TEXT];
	bool observe;
	struct scn_command before, after;
};

struct scn_boot {
	char tag[32];
	char cmdline[SCN_TEXT];
};

struct scn_fcap {
	char path[SCN_TEXT];
	unsigned long long caps;	/* bit mask, permitted and effective */
};

struct scn_let {
	char name[64];
	char value[SCN_TEXT];
};

/*
 * Parser state across files: macros, boots and file capabilities.  abi is
 * the ABI the scenarios are read for (set by the caller): it picks the
 * value of a per-ABI @let.
 */
struct scn_file {
	const char *path;
	int line;
	const char *abi;
	struct scn_let lets[SCN_MAX_LETS];
	int nlets;
	struct scn_boot boots[SCN_MAX_BOOTS];
	int nboots;
	struct scn_fcap fcaps[SCN_MAX_FCAPS];
	int nfcaps;
	char error[256];
};

/*
 * Reads the next scenario from f.  Returns 1 with *s filled, 0 at end of
 * file, -1 on a syntax error (message in st->error, with file and line).
 * Directives (@let, @boot, @fcap) are consumed on the way.
 */
int scn_next(FILE *f, struct scn_file *st, struct scenario *s);

/* Names for numbers: "SIGSEGV", "E2BIG"; NULL when unknown. */
const char *scn_signal_name(int sig);
const char *scn_errno_name(int err);

/* "exit=0", "signal=SIGSEGV", "errno=E2BIG" */
void scn_status_text(enum scn_status kind, int value, char *buf, size_t len);

/* Whether the scenario runs under the ABI (an SCN_ABIS name). */
bool scn_runs_on(const struct scenario *s, const char *abi);

/*
 * Whether the scenario runs on a kernel of series ("6.1": MAJOR.MINOR of
 * its release); NULL, a series not known, runs only rows without series=.
 */
bool scn_runs_in(const struct scenario *s, const char *series);

/*
 * Whether the scenario's name matches one of globs, comma-separated
 * fnmatch() patterns (guest.only=, scenario-lint --only; "" or NULL: every
 * name).  A kernel built from a prefix of the series runs the scenarios
 * that prefix must pass (kernel/check-series.sh).
 */
#define SCN_ONLY_MAX 1024
bool scn_named_in(const struct scenario *s, const char *globs);

/* Whether text (a value the program printed) meets the expectation. */
bool scn_value_matches(const struct scn_value *v, const char *text);

/*
 * A value the program printed as a number, as a range expectation reads
 * it (decimal, a size or 0x hex); 0, or -1 when it is not one.
 */
int scn_number(const char *text, unsigned long long *v);

#endif
