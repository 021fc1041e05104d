// SPDX-License-Identifier: GPL-2.0
#include "scenario.h"

#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/size-expr.h"

#define LINE_MAX_LEN 4096
#define MAX_TOKENS 64

static const struct {
	const char *name;
	int value;
} signals[] = {
	{ "SIGSEGV", SIGSEGV }, { "SIGBUS", SIGBUS }, { "SIGKILL", SIGKILL },
	{ "SIGABRT", SIGABRT }, { "SIGILL", SIGILL }, { "SIGTRAP", SIGTRAP },
	{ "SIGTERM", SIGTERM }, { "SIGFPE", SIGFPE },
}, errnos[] = {
	{ "E2BIG", E2BIG }, { "ENOEXEC", ENOEXEC }, { "EACCES", EACCES },
	{ "EPERM", EPERM }, { "ENOMEM", ENOMEM }, { "EFAULT", EFAULT },
	{ "ENOENT", ENOENT }, { "EINVAL", EINVAL }, { "ETXTBSY", ETXTBSY },
}, caps[] = {
	/* linux/capability.h numbers of the few capabilities tests grant (@fcap, ambient=). */
	{ "setuid", 7 }, { "net_bind_service", 10 }, { "net_raw", 13 },
	{ "sys_resource", 24 },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* What a @let name is made of, and so where a $NAME ends. */
#define NAME_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

static const char *const abis[] = SCN_ABIS;
_Static_assert(N(abis) == SCN_NABIS, "SCN_NABIS counts SCN_ABIS");
static const char *const ktap_counts[] = SCN_KTAP_COUNTS;
_Static_assert(N(ktap_counts) == SCN_NKTAP, "SCN_NKTAP counts SCN_KTAP_COUNTS");

int scn_abi_index(const char *name)
{
	for (size_t i = 0; i < N(abis); i++)
		if (name && !strcmp(name, abis[i]))
			return (int)i;
	return -1;
}

/* The ABIs' names for a message, each followed by suffix: "i386=VALUE ...". */
static const char *abi_names(char *buf, size_t len, const char *suffix)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N(abis) && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", i ? " " : "",
					 abis[i], suffix);
	return buf;
}

const char *scn_kernel_abis(const char *machine)
{
	if (!strcmp(machine, "x86_64"))
		return "x86_64,ia32";
	if (!strcmp(machine, "aarch64") || !strcmp(machine, "arm64"))
		return "arm64,aarch32";
	if (!strncmp(machine, "arm", 3))
		return "arm";
	return "i386";
}

bool scn_runs_on(const struct scenario *s, const char *abi)
{
	int i = scn_abi_index(abi);

	return i >= 0 && (!s->abis || (s->abis >> i & 1));
}

bool scn_runs_in(const struct scenario *s, const char *series)
{
	return !s->series[0] || (series && !strcmp(s->series, series));
}

bool scn_named_in(const struct scenario *s, const char *globs)
{
	char list[SCN_ONLY_MAX];

	if (!globs || !globs[0])
		return true;
	snprintf(list, sizeof(list), "%s", globs);
	for (char *save = NULL, *g = strtok_r(list, ",", &save); g; g = strtok_r(NULL, ",", &save))
		if (!fnmatch(g, s->name, 0))
			return true;
	return false;
}

int scn_ktap_totals(const char *output, struct scn_ktap *t)
{
	static const char mark[] = "# Totals: ";
	const char *p = NULL;

	/* The last line that begins with the mark. */
	for (const char *q = output; (q = strstr(q, mark)); q++)
		if (q == output || q[-1] == '\n')
			p = q + sizeof(mark) - 1;
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; p && i < N(ktap_counts); i++) {
		size_t n = strlen(ktap_counts[i]), digits;
		bool last = i + 1 == N(ktap_counts);

		if (strncmp(p, ktap_counts[i], n) || p[n] != ':')
			return -1;
		p += n + 1;
		digits = strspn(p, "0123456789");
		if (!digits || digits > 9 || (last ? p[digits] && p[digits] != '\n' : p[digits] != ' '))
			return -1;
		t->n[i] = (unsigned int)strtoul(p, NULL, 10);
		p += digits + !last;
	}
	t->set = p != NULL;
	return t->set ? 0 : -1;
}

void scn_ktap_text(const struct scn_ktap *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < N(ktap_counts); i++)
		if (t->n[i] && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s:%u", used ? "," : "",
						 ktap_counts[i], t->n[i]);
	if (!used)
		snprintf(buf, len, "%s:0", ktap_counts[0]);
}

const char *scn_signal_name(int sig)
{
	for (size_t i = 0; i < N(signals); i++)
		if (signals[i].value == sig)
			return signals[i].name;
	return NULL;
}

const char *scn_errno_name(int err)
{
	for (size_t i = 0; i < N(errnos); i++)
		if (errnos[i].value == err)
			return errnos[i].name;
	return NULL;
}

void scn_status_text(enum scn_status kind, int value, char *buf, size_t len)
{
	const char *name = NULL;

	if (kind == SCN_SIGNAL)
		name = scn_signal_name(value);
	else if (kind == SCN_ERRNO)
		name = scn_errno_name(value);
	if (kind == SCN_EXIT)
		snprintf(buf, len, "exit=%d", value);
	else if (name)
		snprintf(buf, len, "%s=%s", kind == SCN_SIGNAL ? "signal" : "errno", name);
	else
		snprintf(buf, len, "%s=%d", kind == SCN_SIGNAL ? "signal" : "errno", value);
}

static int fail(struct scn_file *st, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(st->error, sizeof(st->error), "%s:%d: %s", st->path, st->line, msg);
	return -1;
}

static int copy(struct scn_file *st, char *dst, size_t len, const char *src, const char *what)
{
	if (strlen(src) >= len)
		return fail(st, "%s too long: %s", what, src);
	strcpy(dst, src);
	return 0;
}

/* The number of a capability named as @fcap and ambient= name them, or -1. */
static int cap_number(const char *name)
{
	for (size_t i = 0; i < N(caps); i++)
		if (!strcmp(caps[i].name, name))
			return caps[i].value;
	return -1;
}

/* Either a number ("0x" hex allowed) or a size ("8M+1"). */
static int parse_number(const char *text, unsigned long long *v)
{
	char *end;

	if (!strncmp(text, "0x", 2)) {
		errno = 0;
		*v = strtoull(text + 2, &end, 16);
		return (errno || end == text + 2 || *end) ? -1 : 0;
	}
	return size_expr_parse(text, v);
}

static int parse_limit_part(const char *text, unsigned long long *v)
{
	if (!strcmp(text, "unlimited")) {
		*v = SCN_UNLIMITED;
		return 0;
	}
	return size_expr_parse(text, v);
}

/* stack=, nofile=: SOFT[/HARD], each a size or unlimited. */
static int parse_rlimit(struct scn_file *st, const char *key, const char *text,
			struct scn_limit *l)
{
	char soft[64];
	const char *slash = strchr(text, '/');
	size_t n = slash ? (size_t)(slash - text) : strlen(text);

	if (n >= sizeof(soft))
		return fail(st, "bad %s= value: %s", key, text);
	memcpy(soft, text, n);
	soft[n] = '\0';
	if (parse_limit_part(soft, &l->soft))
		return fail(st, "bad %s= value: %s (a size such as 8M, or unlimited)", key, text);
	l->hard = l->soft;
	if (slash && parse_limit_part(slash + 1, &l->hard))
		return fail(st, "bad hard limit in %s=%s", key, text);
	if (l->soft != SCN_UNLIMITED && l->hard != SCN_UNLIMITED && l->soft > l->hard)
		return fail(st, "%s=%s: soft limit above hard limit", key, text);
	l->set = true;
	return 0;
}

static int parse_stack(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_rlimit(st, "stack", text, &s->stack);
}

static int parse_nofile(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_rlimit(st, "nofile", text, &s->nofile);
}

static int parse_user(struct scn_file *st, const char *text, struct scenario *s)
{
	char *end;
	unsigned long uid, gid;

	errno = 0;
	uid = strtoul(text, &end, 10);
	gid = uid;
	if (!errno && *end == ':') {
		const char *g = end + 1;

		gid = strtoul(g, &end, 10);
		if (end == g)
			return fail(st, "bad user=%s (UID or UID:GID)", text);
	}
	if (errno || *end || end == text || uid > 65535 || gid > 65535)
		return fail(st, "bad user=%s (UID or UID:GID)", text);
	s->uid = (unsigned int)uid;
	s->gid = (unsigned int)gid;
	return 0;
}

static int parse_status(struct scn_file *st, const char *key, const char *text, struct scenario *s)
{
	char *end;

	if (!strcmp(key, "exit")) {
		long v = strtol(text, &end, 10);

		if (*end || end == text || v < 0 || v > 255)
			return fail(st, "bad expect.exit=%s", text);
		s->status = SCN_EXIT;
		s->status_value = (int)v;
		return 0;
	}
	for (size_t i = 0; !strcmp(key, "signal") && i < N(signals); i++) {
		if (!strcmp(text, signals[i].name)) {
			s->status = SCN_SIGNAL;
			s->status_value = signals[i].value;
			return 0;
		}
	}
	for (size_t i = 0; !strcmp(key, "errno") && i < N(errnos); i++) {
		if (!strcmp(text, errnos[i].name)) {
			s->status = SCN_ERRNO;
			s->status_value = errnos[i].value;
			return 0;
		}
	}
	return fail(st, "unknown expect.%s=%s", key, text);
}

static int parse_value(struct scn_file *st, const char *key, const char *text, struct scenario *s)
{
	struct scn_value *v;
	const char *dots = strstr(text, "..");

	if (!key[0])
		return fail(st, "expect. needs a name: expect.KEY=VALUE");
	if (s->nvalues == SCN_MAX_VALUES)
		return fail(st, "more than %d expected values", SCN_MAX_VALUES);
	v = &s->values[s->nvalues++];
	memset(v, 0, sizeof(*v));
	if (copy(st, v->key, sizeof(v->key), key, "key") ||
	    copy(st, v->text, sizeof(v->text), text, "value"))
		return -1;
	/*
	 * A size expression (64K-$PTR+1 after expansion) is evaluated here and
	 * compared as a number; plain digits, hex and words stay text.
	 */
	if (!dots && strpbrk(text, "+-*KMG") && !size_expr_parse(text, &v->lo)) {
		v->hi = v->lo;
		v->is_range = true;
		return 0;
	}
	if (dots) {
		char lo[64];
		size_t n = (size_t)(dots - text);

		if (n >= sizeof(lo))
			return fail(st, "bad range %s", text);
		memcpy(lo, text, n);
		lo[n] = '\0';
		if (parse_number(lo, &v->lo) || parse_number(dots + 2, &v->hi) || v->lo > v->hi)
			return fail(st, "bad range expect.%s=%s (LO..HI)", key, text);
		v->is_range = true;
	}
	return 0;
}

/*
 * expect.ktap=pass:9,xfail:3: the KTAP totals, each count named at most
 * once; the ones not named must be 0.
 */
static int parse_ktap(struct scn_file *st, const char *text, struct scenario *s)
{
	char buf[SCN_TEXT];
	char *item, *save = NULL;
	bool named[SCN_NKTAP] = { false };
	int given = 0;

	if (copy(st, buf, sizeof(buf), text, "expect.ktap="))
		return -1;
	memset(&s->ktap, 0, sizeof(s->ktap));
	for (item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(item, ':');
		size_t i = 0, digits = colon ? strspn(colon + 1, "0123456789") : 0;

		if (colon)
			*colon = '\0';
		while (i < N(ktap_counts) && strcmp(item, ktap_counts[i]))
			i++;
		if (!colon || i == N(ktap_counts) || named[i] || !digits || digits > 9 ||
		    colon[1 + digits])
			return fail(st, "bad expect.ktap=%s (COUNT:N,..., each of pass, fail, xfail, "
				    "xpass, skip, error at most once)", text);
		named[i] = true;
		given++;
		s->ktap.n[i] = (unsigned int)strtoul(colon + 1, NULL, 10);
	}
	if (!given)
		return fail(st, "expect.ktap= needs at least one count");
	s->ktap.set = true;
	return 0;
}

static int parse_expect(struct scn_file *st, const char *key, const char *text, struct scenario *s)
{
	if (!strcmp(key, "exit") || !strcmp(key, "signal") || !strcmp(key, "errno"))
		return parse_status(st, key, text, s);
	if (!strcmp(key, "kmsg"))
		return copy(st, s->kmsg, sizeof(s->kmsg), text, "expect.kmsg");
	if (!strcmp(key, "no_kmsg"))
		return copy(st, s->no_kmsg, sizeof(s->no_kmsg), text, "expect.no_kmsg");
	if (!strcmp(key, "stdout"))
		return text[0] ? copy(st, s->stdout_has, sizeof(s->stdout_has), text, "expect.stdout") :
				 fail(st, "expect.stdout= needs some text");
	if (!strcmp(key, "ktap"))
		return parse_ktap(st, text, s);
	return parse_value(st, key, text, s);
}

/* PATH[,ARG...] for key= (run, before, after) into argv, *argc of them. */
static int parse_command(struct scn_file *st, const char *key, const char *text,
			 char (*argv)[SCN_TEXT], int *argc)
{
	char buf[LINE_MAX_LEN];
	char *arg, *save = NULL;

	if (copy(st, buf, sizeof(buf), text, key))
		return -1;
	for (arg = strtok_r(buf, ",", &save); arg; arg = strtok_r(NULL, ",", &save)) {
		if (*argc == SCN_MAX_ARGS - 1)
			return fail(st, "%s= has more than %d arguments", key, SCN_MAX_ARGS - 1);
		if (copy(st, argv[(*argc)++], SCN_TEXT, arg, "argument"))
			return -1;
	}
	if (!*argc || argv[0][0] != '/')
		return fail(st, "%s= needs an absolute path: %s", key, text);
	return 0;
}

static int parse_run(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_command(st, "run", text, s->argv, &s->argc);
}

/* sysctl=fs.name=VALUE: the dotted name becomes a /proc/sys path. */
static int parse_sysctl(struct scn_file *st, const char *text, struct scenario *s)
{
	const char *eq = strchr(text, '=');
	size_t n = eq ? (size_t)(eq - text) : 0;
	char *p;

	if (!n || !eq[1] || strspn(text, "abcdefghijklmnopqrstuvwxyz0123456789_.") != n ||
	    n + sizeof("/proc/sys/") > sizeof(s->sysctl))
		return fail(st, "bad sysctl=%s (NAME=VALUE, e.g. fs.secureexec_stack_max=0)", text);
	snprintf(s->sysctl, sizeof(s->sysctl), "/proc/sys/%.*s", (int)n, text);
	for (p = s->sysctl + sizeof("/proc/sys/") - 1; *p; p++)
		if (*p == '.')
			*p = '/';
	return copy(st, s->sysctl_value, sizeof(s->sysctl_value), eq + 1, "sysctl value");
}

/* abi=i386,ia32: the scenario runs under these ABIs only. */
static int parse_abis(struct scn_file *st, const char *text, struct scenario *s)
{
	char buf[SCN_TEXT], names[128];
	char *name, *save = NULL;

	if (copy(st, buf, sizeof(buf), text, "abi="))
		return -1;
	for (name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int i = scn_abi_index(name);

		if (i < 0)
			return fail(st, "abi=%s: unknown ABI %s (one of: %s)", text, name,
				    abi_names(names, sizeof(names), ""));
		s->abis |= 1U << i;
	}
	return s->abis ? 0 : fail(st, "abi= needs at least one ABI");
}

/* repeat=N: the program runs N times and every run must pass. */
static int parse_repeat(struct scn_file *st, const char *text, struct scenario *s)
{
	size_t digits = strspn(text, "0123456789");
	unsigned long n = 0;

	/* Digits only: strtoul would also take " 7", "+7" and "-7". */
	if (digits && digits <= 4 && !text[digits])
		n = strtoul(text, NULL, 10);
	if (n < 1 || n > SCN_MAX_REPEAT)
		return fail(st, "bad repeat=%s (a number of runs, 1 to %d)", text, SCN_MAX_REPEAT);
	s->repeat = (unsigned int)n;
	return 0;
}

/* ambient=net_raw,setuid: capabilities the program gets as ambient ones. */
static int parse_ambient(struct scn_file *st, const char *text, struct scenario *s)
{
	char buf[SCN_TEXT];
	char *name, *save = NULL;

	if (copy(st, buf, sizeof(buf), text, "ambient="))
		return -1;
	for (name = strtok_r(buf, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int c = cap_number(name);

		if (c < 0)
			return fail(st, "ambient=%s: unknown capability %s", text, name);
		s->ambient |= 1ULL << c;
	}
	return s->ambient ? 0 : fail(st, "ambient= needs at least one capability");
}

static int parse_name(struct scn_file *st, const char *text, struct scenario *s)
{
	return copy(st, s->name, sizeof(s->name), text, "name");
}

static int parse_boot(struct scn_file *st, const char *text, struct scenario *s)
{
	return copy(st, s->boot, sizeof(s->boot), text, "boot");
}

static int parse_kernel(struct scn_file *st, const char *text, struct scenario *s)
{
	if (strcmp(text, "any") && strcmp(text, "stock") && strcmp(text, "patched"))
		return fail(st, "kernel= takes any, stock or patched");
	return copy(st, s->kernel, sizeof(s->kernel), text, "kernel");
}

/* series=6.12: a kernel release's MAJOR.MINOR. */
static int parse_series(struct scn_file *st, const char *text, struct scenario *s)
{
	size_t major = strspn(text, "0123456789");
	size_t minor = text[major] == '.' ? strspn(text + major + 1, "0123456789") : 0;

	if (!major || !minor || text[major + 1 + minor])
		return fail(st, "series= takes a kernel's MAJOR.MINOR, e.g. 6.1: %s", text);
	return copy(st, s->series, sizeof(s->series), text, "series");
}

static int parse_norandom(struct scn_file *st, const char *text, struct scenario *s)
{
	if (strcmp(text, "0") && strcmp(text, "1"))
		return fail(st, "norandom= takes 0 or 1");
	s->norandom = text[0] == '1';
	return 0;
}

/* A byte or string count: a size expression (size-expr.h). */
static int parse_count(struct scn_file *st, const char *key, const char *text,
		       unsigned long long *v)
{
	return size_expr_parse(text, v) ? fail(st, "bad %s=%s", key, text) : 0;
}

static int parse_argv_bytes(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_count(st, "argv_bytes", text, &s->argv_bytes);
}

static int parse_envp_bytes(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_count(st, "envp_bytes", text, &s->envp_bytes);
}

static int parse_argv_empty(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_count(st, "argv_empty", text, &s->argv_empty);
}

static int parse_envp_empty(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_count(st, "envp_empty", text, &s->envp_empty);
}

/* root=/debian: an absolute folder the program runs chrooted in. */
static int parse_root(struct scn_file *st, const char *text, struct scenario *s)
{
	if (text[0] != '/')
		return fail(st, "root= needs an absolute path: %s", text);
	return copy(st, s->root, sizeof(s->root), text, "root=");
}

/* context=USER:ROLE:TYPE: the SELinux domain the exec transitions to. */
static int parse_context(struct scn_file *st, const char *text, struct scenario *s)
{
	if (strchr(text, ':') == NULL)
		return fail(st, "context= needs an SELinux context (user:role:type): %s", text);
	return copy(st, s->context, sizeof(s->context), text, "context=");
}

/*
 * stdin=LINE\nLINE: the program's input, one line at a time; "\n"
 * (backslash, n) ends a line and the last line gets its newline too.
 * A value cannot hold a space, so neither can a line.  stdin= alone is
 * an empty input (end of file at once).
 */
static int parse_stdin(struct scn_file *st, const char *text, struct scenario *s)
{
	size_t used = 0;

	for (const char *p = text; *p; used++) {
		if (used + 2 >= sizeof(s->stdin_text))
			return fail(st, "stdin= too long");
		if (p[0] == '\\' && p[1] == 'n') {
			s->stdin_text[used] = '\n';
			p += 2;
		} else {
			s->stdin_text[used] = *p++;
		}
	}
	if (used && s->stdin_text[used - 1] != '\n')
		s->stdin_text[used++] = '\n';
	s->stdin_text[used] = '\0';
	s->has_stdin = true;
	return 0;
}

static int parse_observe(struct scn_file *st, const char *text, struct scenario *s)
{
	if (strcmp(text, "0") && strcmp(text, "1"))
		return fail(st, "observe= takes 0 or 1");
	s->observe = text[0] == '1';
	return 0;
}

static int parse_before(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_command(st, "before", text, s->before.argv, &s->before.argc);
}

static int parse_after(struct scn_file *st, const char *text, struct scenario *s)
{
	return parse_command(st, "after", text, s->after.argv, &s->after.argc);
}

/*
 * A scenario's fields (expect.KEY aside): a new one is a row and its
 * function, and no row depends on where another one is.
 */
static const struct {
	const char *key;
	int (*parse)(struct scn_file *st, const char *text, struct scenario *s);
} fields[] = {
	{ "name", parse_name },
	{ "run", parse_run },
	{ "user", parse_user },
	{ "stack", parse_stack },
	{ "nofile", parse_nofile },
	{ "argv_bytes", parse_argv_bytes },
	{ "envp_bytes", parse_envp_bytes },
	{ "norandom", parse_norandom },
	{ "boot", parse_boot },
	{ "kernel", parse_kernel },
	{ "series", parse_series },
	{ "argv_empty", parse_argv_empty },
	{ "envp_empty", parse_envp_empty },
	{ "sysctl", parse_sysctl },
	{ "abi", parse_abis },
	{ "repeat", parse_repeat },
	{ "ambient", parse_ambient },
	{ "context", parse_context },
	{ "root", parse_root },
	{ "stdin", parse_stdin },
	{ "observe", parse_observe },
	{ "before", parse_before },
	{ "after", parse_after },
};

static int parse_field(struct scn_file *st, const char *key, const char *val, struct scenario *s)
{
	if (!strncmp(key, "expect.", 7))
		return parse_expect(st, key + 7, val, s);
	for (size_t i = 0; i < N(fields); i++)
		if (!strcmp(key, fields[i].key))
			return fields[i].parse(st, val, s);
	return fail(st, "unknown field '%s'", key);
}

static const struct scn_let *find_let(const struct scn_file *st, const char *name, size_t n)
{
	for (int i = 0; i < st->nlets; i++)
		if (strlen(st->lets[i].name) == n && !strncmp(st->lets[i].name, name, n))
			return &st->lets[i];
	return NULL;
}

/*
 * Every $NAME in a value is replaced by the @let of that name, so one
 * value can combine them: argv_bytes=6M-22-$PTR*193.  The result lives in
 * buf until the next call.
 */
static const char *expand(struct scn_file *st, const char *val, char *buf, size_t len)
{
	size_t used = 0;

	while (*val) {
		const char *add = val;
		size_t n = 1;

		if (*val == '$') {
			const struct scn_let *l;

			n = strspn(val + 1, NAME_CHARS);
			l = find_let(st, val + 1, n);
			if (!l) {
				fail(st, "$%.*s is not defined by @let", (int)n, val + 1);
				return NULL;
			}
			add = l->value;
			val += n + 1;
			n = strlen(add);
		} else {
			val++;
		}
		if (used + n >= len) {
			fail(st, "value too long after $ expansion");
			return NULL;
		}
		memcpy(buf + used, add, n);
		used += n;
	}
	buf[used] = '\0';
	return buf;
}

static int check_boot(struct scn_file *st, const char *tag)
{
	for (int i = 0; i < st->nboots; i++)
		if (!strcmp(st->boots[i].tag, tag))
			return 0;
	return fail(st, "boot=%s is not declared with @boot", tag);
}

static int parse_scenario(struct scn_file *st, char **tok, int n, struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->line = st->line;
	s->status = SCN_EXIT;
	s->repeat = 1;
	strcpy(s->boot, "default");
	strcpy(s->kernel, "any");
	for (int i = 0; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		char expanded[LINE_MAX_LEN];
		const char *val;

		if (!eq)
			return fail(st, "expected key=value, got '%s'", tok[i]);
		*eq = '\0';
		val = expand(st, eq + 1, expanded, sizeof(expanded));
		if (!val || parse_field(st, tok[i], val, s))
			return -1;
	}
	if (!s->name[0] || !s->argc)
		return fail(st, "a scenario needs name= and run=");
	/* The runner allocates a pointer per string: keep it within the guest. */
	if (s->argv_empty > SCN_MAX_STRINGS || s->envp_empty > SCN_MAX_STRINGS ||
	    s->argv_bytes > SCN_MAX_PAD || s->envp_bytes > SCN_MAX_PAD)
		return fail(st, "more than %d empty strings or %d MiB of padding",
			    SCN_MAX_STRINGS, SCN_MAX_PAD >> 20);
	return check_boot(st, s->boot);
}

static int parse_fcap(struct scn_file *st, char **tok, int n)
{
	struct scn_fcap *f;

	if (n < 3)
		return fail(st, "@fcap PATH CAPABILITY...");
	if (st->nfcaps == SCN_MAX_FCAPS)
		return fail(st, "too many @fcap");
	f = &st->fcaps[st->nfcaps++];
	memset(f, 0, sizeof(*f));
	if (copy(st, f->path, sizeof(f->path), tok[1], "path"))
		return -1;
	for (int i = 2; i < n; i++) {
		int c = cap_number(tok[i]);

		if (c < 0)
			return fail(st, "unknown capability %s", tok[i]);
		f->caps |= 1ULL << c;
	}
	return 0;
}

/*
 * The value of "@let NAME i386=A ia32=B x86_64=C arm=D aarch32=E arm64=F"
 * for the ABI being read: every ABI must be given, once, so no ABI can
 * miss a value.
 */
static const char *let_for_abi(struct scn_file *st, char **tok, int n)
{
	const char *value[SCN_NABIS] = { NULL };
	int want = scn_abi_index(st->abi);
	char names[256];

	if (n != 2 + SCN_NABIS)
		goto usage;
	for (int i = 2; i < n; i++) {
		char *eq = strchr(tok[i], '=');
		int abi;

		if (!eq)
			goto usage;
		*eq = '\0';
		abi = scn_abi_index(tok[i]);
		if (abi < 0 || value[abi] || !eq[1])
			goto usage;
		value[abi] = eq + 1;
	}
	if (want < 0) {
		fail(st, "@let %s has a value per ABI, but no ABI was chosen", tok[1]);
		return NULL;
	}
	return value[want];
usage:
	fail(st, "@let %s: a value per ABI is written %s", tok[1],
	     abi_names(names, sizeof(names), "=VALUE"));
	return NULL;
}

/* @let NAME VALUE, or @let NAME ABI=VALUE for each of SCN_ABIS */
static int parse_let(struct scn_file *st, char **tok, int n)
{
	struct scn_let *l = &st->lets[st->nlets];
	const char *value = n == 3 ? tok[2] : NULL;

	if (n < 3 || st->nlets == SCN_MAX_LETS)
		return fail(st, "@let NAME VALUE (or a value per ABI)");
	if (find_let(st, tok[1], strlen(tok[1])))
		return fail(st, "@let %s given twice", tok[1]);
	if (tok[1][strspn(tok[1], NAME_CHARS)])
		return fail(st, "@let %s: a name is letters, digits and _", tok[1]);
	if (n > 3 || strchr(tok[2], '='))
		value = let_for_abi(st, tok, n);
	if (!value)
		return -1;
	st->nlets++;
	if (copy(st, l->name, sizeof(l->name), tok[1], "name") ||
	    copy(st, l->value, sizeof(l->value), value, "value"))
		return -1;
	return 0;
}

static int parse_directive(struct scn_file *st, char **tok, int n)
{
	if (!strcmp(tok[0], "@let"))
		return parse_let(st, tok, n);
	if (!strcmp(tok[0], "@boot")) {
		struct scn_boot *b = NULL;

		if (n < 2)
			return fail(st, "@boot TAG [KERNEL PARAMETERS...]");
		for (int i = 0; i < st->nboots; i++)
			if (!strcmp(st->boots[i].tag, tok[1]))
				b = &st->boots[i];
		if (!b && st->nboots == SCN_MAX_BOOTS)
			return fail(st, "more than %d boots", SCN_MAX_BOOTS);
		if (!b)
			b = &st->boots[st->nboots++];
		memset(b, 0, sizeof(*b));
		if (copy(st, b->tag, sizeof(b->tag), tok[1], "tag"))
			return -1;
		for (int i = 2; i < n; i++) {
			if (strlen(b->cmdline) + strlen(tok[i]) + 2 > sizeof(b->cmdline))
				return fail(st, "@boot parameters too long");
			if (b->cmdline[0])
				strcat(b->cmdline, " ");
			strcat(b->cmdline, tok[i]);
		}
		return 0;
	}
	if (!strcmp(tok[0], "@fcap"))
		return parse_fcap(st, tok, n);
	return fail(st, "unknown directive %s", tok[0]);
}

/* One logical line: '\' at the end joins the next; '#' starts a comment. */
static int read_logical(FILE *f, struct scn_file *st, char *buf, size_t len)
{
	char part[LINE_MAX_LEN];
	size_t used = 0;

	buf[0] = '\0';
	while (fgets(part, sizeof(part), f)) {
		size_t n = strcspn(part, "\n");
		bool more;

		st->line++;
		part[n] = '\0';
		if (strchr(part, '#'))
			*strchr(part, '#') = '\0';
		n = strlen(part);
		more = n && part[n - 1] == '\\';
		if (more)
			part[--n] = ' ';
		if (used + n + 2 > len)
			return fail(st, "line too long");
		memcpy(buf + used, part, n);
		used += n;
		buf[used++] = ' ';
		buf[used] = '\0';
		if (!more)
			return 1;
	}
	return used ? 1 : 0;
}

int scn_next(FILE *f, struct scn_file *st, struct scenario *s)
{
	char line[LINE_MAX_LEN];
	char *tok[MAX_TOKENS];
	int r;

	if (!st->nboots) {
		strcpy(st->boots[0].tag, "default");
		st->nboots = 1;
	}
	while ((r = read_logical(f, st, line, sizeof(line))) == 1) {
		char *save = NULL, *t;
		int n = 0;

		for (t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
			if (n == MAX_TOKENS)
				return fail(st, "more than %d fields", MAX_TOKENS);
			tok[n++] = t;
		}
		if (!n)
			continue;
		if (tok[0][0] == '@') {
			if (parse_directive(st, tok, n))
				return -1;
			continue;
		}
		return parse_scenario(st, tok, n, s) ? -1 : 1;
	}
	return r;
}

bool scn_value_matches(const struct scn_value *v, const char *text)
{
	unsigned long long n;

	if (!v->is_range)
		return !strcmp(v->text, text);
	return !parse_number(text, &n) && n >= v->lo && n <= v->hi;
}

int scn_number(const char *text, unsigned long long *v)
{
	return parse_number(text, v);
}
