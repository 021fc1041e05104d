// SPDX-License-Identifier: GPL-2.0
/*
 * elfnote set, clear and remove: the command line around edit.c and
 * safewrite.c.  One file for the three because clear is set with both
 * requests at 0 and remove is the same replacement of each file with
 * another plan: the same options but the sizes, the same safe write;
 * only the parsing of the sizes is set's alone.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>

#include "command.h"
#include "edit.h"
#include "exit.h"
#include "names.h"
#include "safewrite.h"
#include "size-arg.h"

struct opts {
	struct edit_request req;
	bool dry_run, follow, strict;
	bool remove;		/* elfnote remove */
};

static void describe(uint64_t v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%" PRIu64 " bytes", v);
}

/*
 * "FILE: suid stack NEW (was OLD; how)", for each property the command
 * sets, or "FILE: suid stack NEW: unchanged".
 */
/* "FILE: note removed (was ...; N bytes given back)", or "no note: unchanged". */
static void report_remove(const char *path, const struct edit *e, const struct opts *o, size_t old_len)
{
	char stack[32], gap[32];

	name_print(stdout, path);
	if (e->action == EDIT_UNCHANGED) {
		printf(": no exec policy note: unchanged\n");
		return;
	}
	describe(e->old_stack, stack, sizeof(stack));
	describe(e->old_gap, gap, sizeof(gap));
	printf(": %s (was suid stack %s, stack guard gap %s; the original %zu bytes, %zu fewer)\n",
	       o->dry_run ? "would remove the note" : "note removed", stack, gap, e->len, old_len - e->len);
}

static void report(const char *path, const struct edit *e, const struct opts *o)
{
	static const char *const how[] = {
		[EDIT_IN_PLACE] = "rewritten in place", [EDIT_ADD_NOTE] = "note added",
	};
	const struct edit_request *r = &o->req;
	char now[2][64], was[2][32], v[32];
	int n = 0;

	if (r->set_stack) {
		describe(r->suid_stack, v, sizeof(v));
		snprintf(now[n], sizeof(now[n]), "suid stack %s", v);
		describe(e->old_stack, was[n++], sizeof(was[0]));
	}
	if (r->set_gap) {
		describe(r->stack_guard_gap, v, sizeof(v));
		snprintf(now[n], sizeof(now[n]), "stack guard gap %s", v);
		describe(e->old_gap, was[n++], sizeof(was[0]));
	}
	name_print(stdout, path);
	printf(": %s%s", e->action != EDIT_UNCHANGED && o->dry_run ? "would set " : "", now[0]);
	if (n > 1)
		printf(", %s", now[1]);
	if (e->action == EDIT_UNCHANGED) {
		printf(": unchanged\n");
		return;
	}
	printf(" (was %s", was[0]);
	if (n > 1)
		printf(", %s", was[1]);
	printf("; %s)\n", how[e->action]);
}

/* What unhonoured() can find: each request on its own. */
#define ADVICE_MAX 2

/*
 * The requests the kernel will not honour as asked, by default: their
 * reasons in advice[], how many.  A setuid, setgid or file-capability
 * program is privileged when it runs, and the kernel lowers no privileged
 * program's guard gap.
 */
static int unhonoured(const struct target *t, const struct edit_request *r,
		      const char *advice[ADVICE_MAX])
{
	bool privileged = (t->st.st_mode & (S_ISUID | S_ISGID)) ||
			  fgetxattr(t->fd, "security.capability", NULL, 0) >= 0;
	int n = 0;

	if (r->set_gap && r->stack_guard_gap && r->stack_guard_gap < EDIT_DEFAULT_GUARD_GAP && privileged)
		advice[n++] = "the kernel never lowers the stack guard gap of a setuid, setgid or "
			      "file-capability program (it keeps the system's, 1M by default)";
	if (r->set_stack && r->suid_stack > EDIT_DEFAULT_STACK_MAX)
		advice[n++] = "above 64M, the most kernels grant by default (fs.secureexec_stack_max), "
			      "and less when the guard gap is raised too";
	return n;
}

/*
 * One file: read, decide, write unless nothing changes.  A dry run reads
 * only: it reports the change, and names on stderr what would stop the
 * real run without failing for it.
 */
static bool edit_one(const char *path, const struct opts *o)
{
	struct target t;
	struct edit e = { 0 };
	char why[512];
	const char *advice[ADVICE_MAX];
	bool ok = target_open(path, o->follow, &t, why, sizeof(why));
	int n_advice = ok ? unhonoured(&t, &o->req, advice) : 0;

	if (n_advice && o->strict) {
		snprintf(why, sizeof(why), "refused (--strict): %s%s%s", advice[0],
			 n_advice > 1 ? "; and " : "", n_advice > 1 ? advice[1] : "");
		ok = false;
	}
	for (int i = 0; i < n_advice && !o->strict; i++)
		name_error(path, "warning: %s", advice[i]);
	if (ok && !o->dry_run)
		ok = target_replaceable(&t, why, sizeof(why));
	if (ok && !(o->remove ? edit_plan_remove(t.image, t.len, &e) : edit_plan(t.image, t.len, &o->req, &e))) {
		snprintf(why, sizeof(why), "%s", e.why);
		ok = false;
	}
	if (ok && e.action != EDIT_UNCHANGED && !o->dry_run)
		ok = target_replace(&t, e.image, e.len, why, sizeof(why));
	if (ok && o->remove)
		report_remove(path, &e, o, t.len);
	else if (ok)
		report(path, &e, o);
	else
		name_error(path, "%s", why);
	if (ok && o->dry_run && e.action != EDIT_UNCHANGED && !target_replaceable(&t, why, sizeof(why)))
		name_error(path, "a real run would fail: %s", why);
	edit_free(&e);
	target_close(&t);
	return ok;
}

/* A SIZE argument: bytes or K/M/G, a multiple of 4096, within [min, max]. */
static bool valid_size(const struct command *cmd, const char *arg, uint64_t min, uint64_t max,
		       const char *range, uint64_t *value)
{
	const char *why;

	if (!size_arg_parse(arg, value, &why))
		command_usage_error(cmd, "invalid size '%s': %s", arg, why);
	else if (*value % 4096)
		command_usage_error(cmd, "invalid size '%s': not a multiple of 4096 bytes", arg);
	else if (*value < min || *value > max)
		command_usage_error(cmd, "invalid size '%s': %s", arg, range);
	else
		return true;
	return false;
}

static bool set_option(const struct command *cmd, int c, const char *arg, struct edit_request *req)
{
	if (c == 's') {
		req->set_stack = true;
		return valid_size(cmd, arg, EDIT_MIN_STACK + 4096, UINT64_MAX,
				  "not above 8M, which every setuid program gets anyway: "
				  "such a request does nothing", &req->suid_stack);
	}
	req->set_gap = true;
	return valid_size(cmd, arg, 4096, EDIT_MAX_GUARD_GAP,
			  "a stack guard gap is from 4K to 64M (the most the kernel grants)",
			  &req->stack_guard_gap);
}

/* clear and remove set no sizes: to them, the options of set alone are unknown. */
static const struct option set_opts[] = {
	{ "suid-stack", required_argument, NULL, 's' },
	{ "stack-guard-gap", required_argument, NULL, 'g' },
	{ "strict", no_argument, NULL, 'S' },
	{ "old-kernels", no_argument, NULL, 'O' },
	{ "dry-run", no_argument, NULL, 'n' },
	{ "follow-symlinks", no_argument, NULL, 'L' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};
static const struct option *const clear_opts = set_opts + 4;

/* The index of the first FILE, 0 after --help, or -EXIT_USAGE. */
static int parse(const struct command *cmd, int argc, char **argv, bool set, struct opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":n", set ? set_opts : clear_opts, NULL)) != -1) {
		if (c == 'n') {
			o->dry_run = true;
		} else if (c == 'L') {
			o->follow = true;
		} else if (c == 'S') {
			o->strict = true;
		} else if (c == 'O') {
			/* Accepted for scripts: every layout starts on old kernels now. */
		} else if (c == 'h') {
			command_usage(cmd, stdout);
			return 0;
		} else if (c == 's' || c == 'g') {
			if (!set_option(cmd, c, optarg, &o->req))
				return -EXIT_USAGE;
		} else {
			return -command_option_error(cmd, argv, c);
		}
	}
	o->remove = !strcmp(cmd->name, "remove");
	if (!set && !o->remove)
		o->req = (struct edit_request){ .set_stack = true, .set_gap = true };
	if (optind == argc)
		return -command_usage_error(cmd, "no FILE given");
	if (!o->remove && !(o->req.set_stack || o->req.set_gap))
		return -command_usage_error(cmd, "nothing to set: give --suid-stack SIZE, --stack-guard-gap SIZE or both");
	return optind;
}

int cmd_set(const struct command *cmd, int argc, char **argv)
{
	struct opts o;
	int first = parse(cmd, argc, argv, !strcmp(cmd->name, "set"), &o), status = EXIT_OK;

	if (first <= 0)
		return -first;
	for (int i = first; i < argc; i++)
		if (!edit_one(argv[i], &o))
			status = EXIT_FILE_FAILED;
	return status;
}
