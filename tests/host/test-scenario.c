// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests of the scenario parser and the size expression grammar
 * that the guest runner and the samples share.  TAP (tests/lib/tap.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../../i386-guest/scenario.h"
#include "../../i386-guest/lib/size-expr.h"

#define TAP_PREFIX "host "
#include "../lib/tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The plan is counted, not written down: each check() in the source is
 * one result (__COUNTER__ counts them as the compiler reads them), and
 * each table adds its rows.  A check() that does not run fails the plan.
 */
enum { COUNTER_BEFORE_CHECKS = __COUNTER__ };
#define check(ok, name) ((void)__COUNTER__, tap_check((ok), "%s", (name)))

#define VALUE(v) false, (v)
#define REFUSED true, 0

static const struct {
	const char *text;
	bool refused;
	unsigned long long value;	/* when not refused */
	const char *what;
} sizes[] = {
	{ "0", VALUE(0), "size: 0" },
	{ "4096", VALUE(4096), "size: plain bytes" },
	{ "64K", VALUE(65536), "size: K is 1024" },
	{ "8M", VALUE(8388608), "size: M is 1048576" },
	{ "1G", VALUE(1073741824ULL), "size: G is 1073741824" },
	{ "8M+1", VALUE(8388609), "size: sum" },
	{ "24M-4K", VALUE(25161728), "size: difference" },
	{ "3M+1K-1", VALUE(3146751), "size: several terms" },
	{ "16777215G", VALUE(16777215ULL << 30), "size: largest G without overflow" },
	{ "16777216G+18446744073709551615", REFUSED, "size: sum overflow refused" },
	{ "17179869184G", REFUSED, "size: suffix overflow refused" },
	{ "18446744073709551616", REFUSED, "size: digits overflow refused" },
	{ "18446744073709551615", VALUE(18446744073709551615ULL), "size: 2^64-1 accepted" },
	{ "", REFUSED, "size: empty refused" },
	{ "8m", REFUSED, "size: lower-case suffix refused" },
	{ "8MB", REFUSED, "size: two-letter suffix refused" },
	{ "8 M", REFUSED, "size: space refused" },
	{ "-1", REFUSED, "size: leading minus refused" },
	{ "1-2", REFUSED, "size: negative result refused" },
	{ "8M+", REFUSED, "size: dangling operator refused" },
	{ "0x10", REFUSED, "size: hex is not a size" },
	{ "6M-22-8*193", VALUE(6291456 - 22 - 8 * 193), "size: product binds tighter than minus" },
	{ "2*3*4K", VALUE(24576), "size: product of several factors" },
	{ "4*0+1", VALUE(1), "size: product with zero" },
	{ "4**2", REFUSED, "size: empty factor refused" },
	{ "*4", REFUSED, "size: leading star refused" },
	{ "8M*", REFUSED, "size: dangling star refused" },
	{ "4294967296*4294967296", REFUSED, "size: product overflow refused" },
	{ "4294967295*4294967297", VALUE(18446744073709551615ULL), "size: largest product accepted" },
};

static void test_sizes(void)
{
	for (size_t i = 0; i < N(sizes); i++) {
		unsigned long long v = 0;
		int r = size_expr_parse(sizes[i].text, &v);

		if (sizes[i].refused)
			tap_check(r == -1, "%s", sizes[i].what);
		else
			tap_check(r == 0 && v == sizes[i].value, "%s", sizes[i].what);
	}
}

/*
 * Parses text as one file, read for abi; returns scn_next's result for
 * the first scenario.
 */
static int parse_for(const char *abi, const char *text, struct scn_file *st, struct scenario *s)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int r;

	memset(st, 0, sizeof(*st));
	st->path = "t.scn";
	st->abi = abi;
	r = scn_next(f, st, s);
	fclose(f);
	return r;
}

static int parse_one(const char *text, struct scn_file *st, struct scenario *s)
{
	return parse_for("i386", text, st, s);
}

static int parses(const char *text, struct scenario *s)
{
	struct scn_file st;

	return parse_one(text, &st, s) == 1;
}

/* The error message for text, or "" when it parsed. */
static const char *error_of(const char *text)
{
	static struct scn_file st;
	struct scenario s;

	return parse_one(text, &st, &s) < 0 ? st.error : "";
}

static void test_scenarios(void)
{
	struct scenario s;
	struct scn_file st;

	check(parses("name=a run=/bin/probe,x,y user=1000:100 stack=8M/unlimited "
		     "argv_bytes=1M envp_bytes=2K norandom=1 expect.errno=E2BIG\n", &s) &&
	      !strcmp(s.name, "a") && s.argc == 3 && !strcmp(s.argv[2], "y") &&
	      s.uid == 1000 && s.gid == 100 && s.stack.set &&
	      s.stack.soft == 8388608 && s.stack.hard == SCN_UNLIMITED &&
	      s.argv_bytes == 1048576 && s.envp_bytes == 2048 && s.norandom &&
	      s.status == SCN_ERRNO && s.status_value == E2BIG,
	      "scenario: every field");
	check(parses("name=n run=/x nofile=20100\n", &s) && s.nofile.set &&
	      s.nofile.soft == 20100 && s.nofile.hard == 20100 && !s.stack.set,
	      "scenario: nofile= sets RLIMIT_NOFILE, soft and hard, and not the stack");
	check(parses("name=n run=/x nofile=1024/4096\n", &s) &&
	      s.nofile.soft == 1024 && s.nofile.hard == 4096,
	      "scenario: nofile=SOFT/HARD");
	check(parses("name=e1 run=/x argv_empty=1258286 envp_empty=3\n", &s) &&
	      s.argv_empty == 1258286 && s.envp_empty == 3,
	      "scenario: empty-string counts");
	check(parses("name=s run=/x sysctl=fs.secureexec_stack_max=0\n", &s) &&
	      !strcmp(s.sysctl, "/proc/sys/fs/secureexec_stack_max") &&
	      !strcmp(s.sysctl_value, "0"),
	      "scenario: sysctl= names a /proc/sys file");
	check(strstr(error_of("name=s run=/x sysctl=fs/../x=1\n"), "bad sysctl") != NULL,
	      "error: sysctl name outside the grammar");
	check(strstr(error_of("name=s run=/x sysctl=fs.x=\n"), "bad sysctl") != NULL,
	      "error: sysctl without a value");
	check(parses("name=k run=/x expect.kmsg=a,b expect.no_kmsg=c\n", &s) &&
	      !strcmp(s.kmsg, "a,b") && !strcmp(s.no_kmsg, "c") && s.nvalues == 0,
	      "scenario: kernel log expectations are not program values");
	check(parses("name=b run=/x\n", &s) && s.status == SCN_EXIT && s.status_value == 0 &&
	      !s.stack.set && s.uid == 0 && !strcmp(s.boot, "default") && !strcmp(s.kernel, "any"),
	      "scenario: defaults (exit 0, root, inherited rlimit, default boot, any kernel)");
	check(parses("name=c run=/x user=7\n", &s) && s.uid == 7 && s.gid == 7,
	      "scenario: user=UID sets the gid too");
	check(parses("# comment\n\nname=d \\\n  run=/x \\\n  expect.signal=SIGSEGV\n", &s) &&
	      s.status == SCN_SIGNAL && s.status_value == SIGSEGV,
	      "scenario: continuation lines and comments");
	check(parses("@let R 0x10..0x20\nname=e run=/x expect.mmap=$R expect.k=v\n", &s) &&
	      s.nvalues == 2 && s.values[0].is_range && s.values[0].lo == 16 &&
	      s.values[0].hi == 32 && !s.values[1].is_range,
	      "scenario: @let and a hex range");
	check(scn_value_matches(&s.values[0], "0x10") && scn_value_matches(&s.values[0], "0x20") &&
	      !scn_value_matches(&s.values[0], "0xf") && !scn_value_matches(&s.values[0], "0x21") &&
	      !scn_value_matches(&s.values[0], "junk"),
	      "scenario: range bounds are inclusive");
	check(scn_value_matches(&s.values[1], "v") && !scn_value_matches(&s.values[1], "vv"),
	      "scenario: exact values compare as text");
	check(parse_one("@boot g1 stack_guard_gap=1 foo=2\nname=f run=/x boot=g1\n", &st, &s) == 1 &&
	      st.nboots == 2 && !strcmp(st.boots[1].cmdline, "stack_guard_gap=1 foo=2"),
	      "scenario: @boot declares a boot with parameters");
	check(parse_one("@fcap /bin/p net_bind_service setuid\n", &st, &s) == 0 &&
	      st.nfcaps == 1 && st.fcaps[0].caps == ((1ULL << 10) | (1ULL << 7)),
	      "scenario: @fcap capability names");
	check(parses("name=r run=/x repeat=16\n", &s) && s.repeat == 16,
	      "scenario: repeat= runs the program that many times");
	check(parses("name=r run=/x repeat=1000\n", &s) && s.repeat == 1000,
	      "scenario: repeat= up to 1000");
	check(parses("name=r run=/x\n", &s) && s.repeat == 1 && !s.ambient,
	      "scenario: one run and no ambient capabilities by default");
	check(parses("name=a run=/x ambient=net_raw,setuid user=1000\n", &s) &&
	      s.ambient == ((1ULL << 13) | (1ULL << 7)) && s.uid == 1000,
	      "scenario: ambient= takes @fcap's capability names");

	check(parses("name=d run=/usr/bin/passwd root=/debian observe=1 "
		     "stdin=old-pw\\nnew-pw\\nnew-pw before=/e,save,/etc/shadow "
		     "after=/e,changed,/etc/shadow\n", &s) &&
	      !strcmp(s.root, "/debian") && s.observe && s.has_stdin &&
	      !strcmp(s.stdin_text, "old-pw\nnew-pw\nnew-pw\n") &&
	      s.before.argc == 3 && !strcmp(s.before.argv[0], "/e") &&
	      !strcmp(s.before.argv[2], "/etc/shadow") && s.after.argc == 3 &&
	      !strcmp(s.after.argv[1], "changed"),
	      "scenario: root=, observe=, stdin= lines (each ends in a newline), before=, after=");
	check(parses("name=d run=/x stdin=\n", &s) && s.has_stdin && !s.stdin_text[0] &&
	      parses("name=d run=/x stdin=a\\n\n", &s) && !strcmp(s.stdin_text, "a\n") &&
	      parses("name=d run=/x\n", &s) && !s.has_stdin && !s.observe && !s.root[0],
	      "scenario: stdin= alone is an empty input; no stdin= keeps the runner's");
	check(parses("name=d run=/x expect.stdout=Maximum\n", &s) && !strcmp(s.stdout_has, "Maximum") &&
	      s.nvalues == 0 && strstr(error_of("name=y run=/x expect.stdout=\n"), "needs some text"),
	      "scenario: expect.stdout= is text the output contains, not a key");
	check(parses("name=d run=/x expect.ktap=pass:9,xfail:3\n", &s) && s.ktap.set &&
	      s.ktap.n[0] == 9 && s.ktap.n[1] == 0 && s.ktap.n[2] == 3 && s.ktap.n[3] == 0 &&
	      s.ktap.n[4] == 0 && s.ktap.n[5] == 0 && s.nvalues == 0 && !s.stdout_has[0],
	      "scenario: expect.ktap= gives the named counts, the others are 0");
	check(parses("name=d run=/x expect.ktap=error:1,skip:2,xpass:3,xfail:4,fail:5,pass:6\n", &s) &&
	      s.ktap.n[0] == 6 && s.ktap.n[1] == 5 && s.ktap.n[2] == 4 && s.ktap.n[3] == 3 &&
	      s.ktap.n[4] == 2 && s.ktap.n[5] == 1 && parses("name=d run=/x\n", &s) && !s.ktap.set,
	      "scenario: expect.ktap= counts in any order; none without it");
	check(strstr(error_of("name=y run=/x expect.ktap=pass:1,pass:2\n"), "bad expect.ktap=") &&
	      strstr(error_of("name=y run=/x expect.ktap=passed:1\n"), "bad expect.ktap=") &&
	      strstr(error_of("name=y run=/x expect.ktap=pass:x\n"), "bad expect.ktap=") &&
	      strstr(error_of("name=y run=/x expect.ktap=pass:1x\n"), "bad expect.ktap=") &&
	      strstr(error_of("name=y run=/x expect.ktap=pass\n"), "bad expect.ktap=") &&
	      strstr(error_of("name=y run=/x expect.ktap=pass:\n"), "bad expect.ktap=") &&
	      strstr(error_of("name=y run=/x expect.ktap=\n"), "needs at least one count") &&
	      strstr(error_of("name=y run=/x expect.ktap=,\n"), "needs at least one count"),
	      "error: expect.ktap= with a count twice, unknown, not a number, empty");
	check(parses("name=d run=/x series=6.12\n", &s) && !strcmp(s.series, "6.12") &&
	      scn_runs_in(&s, "6.12") && !scn_runs_in(&s, "6.1") && !scn_runs_in(&s, NULL) &&
	      parses("name=d run=/x\n", &s) && !s.series[0] && scn_runs_in(&s, "6.1") &&
	      scn_runs_in(&s, NULL),
	      "scenario: series= runs on that series only; without it, on every one");
	check(strstr(error_of("name=y run=/x series=6\n"), "series= takes") &&
	      strstr(error_of("name=y run=/x series=6.\n"), "series= takes") &&
	      strstr(error_of("name=y run=/x series=6.1.2\n"), "series= takes") &&
	      strstr(error_of("name=y run=/x series=v6.1\n"), "series= takes"),
	      "error: series= not MAJOR.MINOR");
	check(strstr(error_of("name=y run=/x root=debian\n"), "t.scn:1: root= needs an absolute path") &&
	      strstr(error_of("name=y run=/x after=effect\n"), "after= needs an absolute path") &&
	      strstr(error_of("name=y run=/x before=\n"), "before= needs an absolute path") &&
	      strstr(error_of("name=y run=/x observe=yes\n"), "observe= takes 0 or 1"),
	      "error: relative root=, after=, empty before=, observe= not 0 or 1");

	check(!strcmp(error_of("name=x run=/x\nname=y run=/x bogus=1\n"), "") ,
	      "scenario: first of two scenarios parses");
	check(strstr(error_of("name=y run=/x bogus=1\n"), "t.scn:1: unknown field 'bogus'") != NULL,
	      "error: unknown field, with file and line");
	check(strstr(error_of("\n\nname=y run=/x stack=8MB\n"), "t.scn:3: bad stack=") != NULL,
	      "error: wrong size suffix names the line");
	check(strstr(error_of("name=y run=/x stack=8M/4M\n"), "soft limit above hard") != NULL,
	      "error: soft above hard");
	check(strstr(error_of("name=y run=x\n"), "absolute path") != NULL,
	      "error: relative program path");
	check(strstr(error_of("name=y\n"), "needs name= and run=") != NULL,
	      "error: run= missing");
	check(strstr(error_of("name=y run=/x boot=nope\n"), "not declared") != NULL,
	      "error: undeclared boot");
	check(strstr(error_of("name=y run=/x expect.mmap=$NOPE\n"), "not defined") != NULL,
	      "error: undefined @let");
	check(strstr(error_of("name=y run=/x expect.signal=SIGFOO\n"), "unknown expect.signal") != NULL,
	      "error: unknown signal name");
	check(strstr(error_of("name=y run=/x expect.exit=256\n"), "bad expect.exit") != NULL,
	      "error: exit code out of range");
	check(strstr(error_of("name=y run=/x expect.a=9..3\n"), "bad range") != NULL,
	      "error: inverted range");
	check(strstr(error_of("name=y run=/x user=5:\n"), "bad user") != NULL,
	      "error: empty gid");
	check(strstr(error_of("name=y run=/x expect.=1\n"), "needs a name") != NULL,
	      "error: expect. without a name");
	check(strstr(error_of("@let A 1\n@let A 2\n"), "given twice") != NULL,
	      "error: @let redefined");
	check(strstr(error_of("name=y run=/x argv_empty=4G\n"), "empty strings") != NULL,
	      "error: counts the runner cannot allocate");
	check(strstr(error_of("name=y run=/x user=70000\n"), "bad user") != NULL,
	      "error: uid out of range");
	check(strstr(error_of("@fcap /p cap_nonsense\n"), "unknown capability") != NULL,
	      "error: unknown capability");
	check(strstr(error_of("name=y run=/x kernel=other\n"), "kernel=") != NULL,
	      "error: unknown kernel variant");
	check(strstr(error_of("name=y run=/x norandom=yes\n"), "norandom") != NULL,
	      "error: norandom takes 0 or 1");
	check(strstr(error_of("\nname=y run=/x repeat=0\n"), "t.scn:2: bad repeat=0") != NULL,
	      "error: repeat=0, with file and line");
	check(strstr(error_of("name=y run=/x repeat=1001\n"), "t.scn:1: bad repeat=1001") != NULL,
	      "error: repeat above 1000");
	check(strstr(error_of("name=y run=/x repeat=junk\n"), "t.scn:1: bad repeat=junk") != NULL,
	      "error: repeat not a number");
	check(strstr(error_of("name=y run=/x repeat=+5\n"), "bad repeat=+5") != NULL &&
	      strstr(error_of("name=y run=/x repeat=5x\n"), "bad repeat=5x") != NULL &&
	      strstr(error_of("name=y run=/x repeat=\n"), "bad repeat=") != NULL &&
	      strstr(error_of("name=y run=/x repeat=99999999999999999999\n"), "bad repeat=") != NULL,
	      "error: repeat with a sign, a suffix, no digits or too many");
	check(strstr(error_of("name=y run=/x ambient=net_raw,cap_chown\n"),
		     "t.scn:1: ambient=net_raw,cap_chown: unknown capability cap_chown") != NULL,
	      "error: ambient= with an unknown capability, with file and line");
	check(strstr(error_of("name=y run=/x ambient=\n"), "needs at least one capability") != NULL,
	      "error: ambient= without a capability");
}

#define X16 "xxxxxxxxxxxxxxxx"
#define X128 X16 X16 X16 X16 X16 X16 X16 X16

/*
 * Every field's own error message, whole, with file and line: the parser
 * reads each field through a row of its table, and a row must not answer
 * for another field.
 */
static const struct {
	const char *field, *text, *error;
} field_errors[] = {
	{ "name", "run=/x name=" X128 "\n", "t.scn:1: name too long: " X128 },
	{ "run", "name=y run=/x,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n",
	  "t.scn:1: run= has more than 15 arguments" },
	{ "user", "name=y run=/x user=x\n", "t.scn:1: bad user=x (UID or UID:GID)" },
	{ "stack", "name=y run=/x stack=junk\n",
	  "t.scn:1: bad stack= value: junk (a size such as 8M, or unlimited)" },
	{ "nofile", "name=y run=/x nofile=2048/1024\n",
	  "t.scn:1: nofile=2048/1024: soft limit above hard limit" },
	{ "argv_bytes", "name=y run=/x argv_bytes=8MB\n", "t.scn:1: bad argv_bytes=8MB" },
	{ "envp_bytes", "name=y run=/x envp_bytes=1-2\n", "t.scn:1: bad envp_bytes=1-2" },
	{ "norandom", "name=y run=/x norandom=2\n", "t.scn:1: norandom= takes 0 or 1" },
	{ "boot", "name=y run=/x boot=" X16 X16 "\n", "t.scn:1: boot too long: " X16 X16 },
	{ "kernel", "name=y run=/x kernel=Stock\n", "t.scn:1: kernel= takes any, stock or patched" },
	{ "argv_empty", "name=y run=/x argv_empty=x\n", "t.scn:1: bad argv_empty=x" },
	{ "envp_empty", "name=y run=/x envp_empty=\n", "t.scn:1: bad envp_empty=" },
	{ "sysctl", "name=y run=/x sysctl=fs\n",
	  "t.scn:1: bad sysctl=fs (NAME=VALUE, e.g. fs.secureexec_stack_max=0)" },
	{ "abi", "name=y run=/x abi=,\n", "t.scn:1: abi= needs at least one ABI" },
	{ "repeat", "name=y run=/x repeat=1x\n",
	  "t.scn:1: bad repeat=1x (a number of runs, 1 to 1000)" },
	{ "ambient", "name=y run=/x ambient=,\n", "t.scn:1: ambient= needs at least one capability" },
	{ "series", "name=y run=/x series=6\n",
	  "t.scn:1: series= takes a kernel's MAJOR.MINOR, e.g. 6.1: 6" },
	{ "expect.exit", "name=y run=/x expect.exit=x\n", "t.scn:1: bad expect.exit=x" },
	{ "expect.ktap", "name=y run=/x expect.ktap=skip:1,skip:1\n",
	  "t.scn:1: bad expect.ktap=skip:1,skip:1 (COUNT:N,..., each of pass, fail, xfail, "
	  "xpass, skip, error at most once)" },
	{ "Name (case matters)", "name=y run=/x Name=z\n", "t.scn:1: unknown field 'Name'" },
};

static void test_field_errors(void)
{
	for (size_t i = 0; i < N(field_errors); i++)
		tap_check(!strcmp(error_of(field_errors[i].text), field_errors[i].error),
			  "error: %s, the whole message", field_errors[i].field);
}

/* Per-ABI values, $NAME inside a value, and abi=. */
static void test_abis(void)
{
	static const char lets[] = "@let PTR i386=4 ia32=8 x86_64=8 arm=4 aarch32=8 arm64=8\n"
		"@let M i386=0xb7000000..0xb7ffffff x86_64=0x7f..0x80 ia32=0xf7..0xf8 \\\n"
		"\tarm64=0x10..0x20 arm=0xb6000000..0xb6ffffff aarch32=0x30..0x40\n"
		"name=a run=/x argv_bytes=6M-22-$PTR*193 expect.mmap=$M expect.p=$PTR\n";
	struct scn_file st;
	struct scenario s;

	check(parse_for("i386", lets, &st, &s) == 1 && s.argv_bytes == 6291456 - 22 - 4 * 193 &&
	      s.values[0].lo == 0xb7000000 && !strcmp(s.values[1].text, "4"),
	      "abi: i386 reads the i386 values, $PTR inside an expression");
	check(parse_for("ia32", lets, &st, &s) == 1 && s.argv_bytes == 6291456 - 22 - 8 * 193 &&
	      s.values[0].lo == 0xf7 && !strcmp(s.values[1].text, "8"),
	      "abi: ia32 reads the ia32 values, whatever their order");
	check(parse_for("x86_64", lets, &st, &s) == 1 && s.values[0].hi == 0x80,
	      "abi: x86_64 reads the x86_64 values");
	check(parse_for("arm", lets, &st, &s) == 1 && s.argv_bytes == 6291456 - 22 - 4 * 193 &&
	      s.values[0].lo == 0xb6000000,
	      "abi: arm reads the arm values");
	check(parse_for("aarch32", lets, &st, &s) == 1 && s.argv_bytes == 6291456 - 22 - 8 * 193 &&
	      s.values[0].hi == 0x40,
	      "abi: aarch32 reads the aarch32 values");
	check(parse_for("arm64", lets, &st, &s) == 1 && s.values[0].lo == 0x10,
	      "abi: arm64 reads the arm64 values");
	check(parse_for("i386", "name=a run=/x abi=x86_64,ia32\n", &st, &s) == 1 &&
	      !scn_runs_on(&s, "i386") && scn_runs_on(&s, "ia32") && scn_runs_on(&s, "x86_64"),
	      "abi: abi= selects the ABIs a scenario runs under");
	check(parse_for("i386", "name=a run=/x\n", &st, &s) == 1 && scn_runs_on(&s, "i386") &&
	      scn_runs_on(&s, "ia32") && scn_runs_on(&s, "x86_64") && scn_runs_on(&s, "arm") &&
	      scn_runs_on(&s, "aarch32") && scn_runs_on(&s, "arm64") && !scn_runs_on(&s, "mips"),
	      "abi: without abi= a scenario runs under every ABI");
	check(parse_for("i386", "@let A 1\n@let B 2\nname=a run=/x argv_bytes=$A$B$A\n", &st, &s) == 1 &&
	      s.argv_bytes == 121,
	      "abi: several $NAME in one value");
	check(strstr((parse_for("i386", "@let P i386=4 ia32=8 x86_64=8 arm=4 aarch32=8\n", &st, &s),
		      st.error), "i386=VALUE ia32=VALUE x86_64=VALUE arm=VALUE aarch32=VALUE arm64=VALUE") != NULL,
	      "error: a per-ABI @let missing an ABI");
	check(strstr((parse_for("i386", "@let P i386=4 ia32=8 i386=8\n", &st, &s), st.error),
		     "i386=VALUE") != NULL,
	      "error: a per-ABI @let giving an ABI twice");
	check(strstr((parse_for("i386", "@let P i386=4 ia32=8 x86_64=8 arm=4 aarch32=8 mips=8\n",
				&st, &s), st.error), "i386=VALUE") != NULL,
	      "error: a per-ABI @let with an unknown ABI");
	check(strstr((parse_for(NULL, "@let P i386=4 ia32=8 x86_64=8 arm=4 aarch32=8 arm64=8\n",
				&st, &s), st.error), "no ABI was chosen") != NULL,
	      "error: a per-ABI @let read without an ABI");
	check(strstr(error_of("name=a run=/x abi=i386,mips\n"), "unknown ABI mips") != NULL,
	      "error: abi= with an unknown ABI");
	check(strstr(error_of("@let A-B 1\n"), "letters, digits and _") != NULL,
	      "error: @let name outside the grammar");
	check(strstr(error_of("@let A 1\nname=a run=/x argv_bytes=$AB\n"), "$AB is not defined") != NULL,
	      "error: $NAME is matched whole, not by prefix");
}

/* The totals line the runner reads of a kselftest's output. */
static void test_ktap(void)
{
	struct scn_ktap t;
	char buf[64];

	check(!scn_ktap_totals("TAP version 13\n1..19\nok 1 a\n"
			       "# Totals: pass:16 fail:0 xfail:3 xpass:0 skip:0 error:0\n", &t) &&
	      t.set && t.n[0] == 16 && t.n[1] == 0 && t.n[2] == 3 && t.n[5] == 0,
	      "ktap: the totals line, last in the output");
	check(!scn_ktap_totals("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n"
			       "# Totals: pass:0 fail:2 xfail:0 xpass:0 skip:0 error:1", &t) &&
	      t.n[0] == 0 && t.n[1] == 2 && t.n[5] == 1,
	      "ktap: of several totals lines the last counts, without a newline too");
	check(scn_ktap_totals("ok 1 a\n", &t) == -1 && !t.set &&
	      scn_ktap_totals("x # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n", &t) == -1,
	      "ktap: no totals line, or the mark inside a line");
	check(scn_ktap_totals("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0\n", &t) == -1 &&
	      scn_ktap_totals("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0 more\n", &t) == -1 &&
	      scn_ktap_totals("# Totals: fail:0 pass:1 xfail:0 xpass:0 skip:0 error:0\n", &t) == -1 &&
	      scn_ktap_totals("# Totals: pass:-1 fail:0 xfail:0 xpass:0 skip:0 error:0\n", &t) == -1,
	      "ktap: a totals line with a count missing, more text, another order or a sign");
	t = (struct scn_ktap){ .set = true, .n = { 9, 0, 3, 0, 0, 0 } };
	scn_ktap_text(&t, buf, sizeof(buf));
	check(!strcmp(buf, "pass:9,xfail:3"), "ktap text: the counts that are not 0");
	t = (struct scn_ktap){ .set = true };
	scn_ktap_text(&t, buf, sizeof(buf));
	check(!strcmp(buf, "pass:0"), "ktap text: all 0 as pass:0");
}

static void test_names(void)
{
	char buf[64];

	scn_status_text(SCN_SIGNAL, SIGSEGV, buf, sizeof(buf));
	check(!strcmp(buf, "signal=SIGSEGV"), "status text: signal");
	scn_status_text(SCN_ERRNO, E2BIG, buf, sizeof(buf));
	check(!strcmp(buf, "errno=E2BIG"), "status text: errno");
	scn_status_text(SCN_EXIT, 3, buf, sizeof(buf));
	check(!strcmp(buf, "exit=3"), "status text: exit");
	scn_status_text(SCN_ERRNO, 9999, buf, sizeof(buf));
	check(!strcmp(buf, "errno=9999"), "status text: unknown errno as a number");
}

int main(void)
{
	/* Here, after the last check() in the source. */
	tap_plan(__COUNTER__ - COUNTER_BEFORE_CHECKS - 1 + (int)(N(sizes) + N(field_errors)));
	test_sizes();
	test_scenarios();
	test_field_errors();
	test_abis();
	test_ktap();
	test_names();
	return tap_done();
}
