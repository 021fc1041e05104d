// SPDX-License-Identifier: GPL-2.0
/*
 * elfnote: inspect, stamp and audit the exec policy note of ELF executables.
 *
 *   elfnote show [--json] FILE...   what the note asks, per file
 *   elfnote check FILE...           exit status for scripts (see usage)
 *   elfnote set --suid-stack SIZE FILE..., elfnote clear FILE...
 *   elfnote scan [DIR...]           the setuid/setgid/capability audit
 *
 * Errors go to stderr as "elfnote: FILE: reason".
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "elffile.h"
#include "json.h"
#include "safewrite.h"
#include "scan.h"
#include "size.h"

#ifndef ELFNOTE_VERSION
#define ELFNOTE_VERSION "0.1"
#endif

static const char usage_text[] =
	"usage: elfnote show [--json] FILE...\n"
	"       elfnote check [-q] FILE...\n"
	"       elfnote set [-n] [--follow-symlinks] --suid-stack SIZE FILE...\n"
	"       elfnote clear [-n] [--follow-symlinks] FILE...\n"
	"       elfnote scan [--json] [--all] [DIR...]\n"
	"       elfnote --help | --version\n"
	"\n"
	"show   prints the exec policy note of each file: the secureexec stack\n"
	"       size it requests, that there is none, or why it is malformed.\n"
	"       --json prints one JSON object per file and line.\n"
	"check  prints nothing but problems and exits with, for the worst file:\n"
	"         0  a well-formed note       1  no note\n"
	"         2  a malformed note (execve fails with ENOEXEC on kernels\n"
	"            that read it)            3  not an ELF executable\n"
	"         4  I/O error                64 usage error\n"
	"set    makes each file request SIZE bytes of stack when run setuid,\n"
	"       setgid or with capabilities (bytes, or K, M, G; a multiple of\n"
	"       4096 above 8M): rewrites the note, or adds one to a linked file.\n"
	"       Nothing is written where the value is already there.\n"
	"clear  rewrites a request to 0 (none); the note stays.\n"
	"       -n, --dry-run: say what would change, write nothing.\n"
	"       Files are replaced whole, keeping owner, mode and xattrs; set and\n"
	"       clear exit 0, or 1 when any file could not be done.\n"
	"scan   lists setuid, setgid and file-capability ELF executables under\n"
	"       each DIR (default /), with their notes; --all lists every ELF\n"
	"       executable.\n";

#define EXIT_USAGE 64

static const char *verdict_name(enum elf_verdict v)
{
	switch (v) {
	case ELF_ANNOTATED: return "annotated";
	case ELF_NO_NOTE: return "none";
	case ELF_MALFORMED: return "malformed";
	case ELF_NOT_EXECUTABLE: return "not-executable";
	default: return "error";
	}
}

static void complain(const char *path, const struct elf_report *r)
{
	if (r->verdict == ELF_MALFORMED)
		fprintf(stderr, "elfnote: %s: malformed exec policy note: %s\n", path, r->policy.problem);
	else if (r->verdict >= ELF_NOT_EXECUTABLE)
		fprintf(stderr, "elfnote: %s: %s\n", path, r->reason);
}

static void show_text(const char *path, const struct elf_report *r)
{
	const struct policy *p = &r->policy;

	if (r->verdict >= ELF_MALFORMED) {
		complain(path, r);
		return;
	}
	if (r->verdict == ELF_NO_NOTE)
		printf("%s: no exec policy note%s%s\n", path, p->problem ? "; " : "",
		       p->problem ? p->problem : "");
	else if (!p->suid_stack)
		printf("%s: exec policy note, no stack request\n", path);
	else
		printf("%s: exec policy note: suid stack %" PRIu64 " bytes (%" PRIu64 " KiB)\n",
		       path, p->suid_stack, p->suid_stack >> 10);
}

static void show_json(const char *path, const struct elf_report *r)
{
	fputs("{\"file\":", stdout);
	json_string(stdout, path);
	printf(",\"status\":\"%s\"", verdict_name(r->verdict));
	if (r->verdict <= ELF_MALFORMED)
		printf(",\"class\":%d,\"byte_order\":\"%s\",\"type\":\"%s\"", r->elf_class,
		       r->big_endian ? "big" : "little", r->type);
	if (r->verdict == ELF_ANNOTATED)
		printf(",\"suid_stack\":%" PRIu64 ",\"notes\":%zu", r->policy.suid_stack, r->policy.notes);
	if (r->verdict <= ELF_MALFORMED && r->policy.problem) {
		fputs(",\"problem\":", stdout);
		json_string(stdout, r->policy.problem);
	}
	if (r->verdict >= ELF_NOT_EXECUTABLE) {
		fputs(",\"error\":", stdout);
		json_string(stdout, r->reason);
	}
	fputs("}\n", stdout);
}

/*
 * The one flag a command takes (--NAME, or -SHORT if short_name); returns
 * the index of the first file, or -1 after printing the usage.
 */
static int parse_flag(int argc, char **argv, const char *name, int short_name, int *flag)
{
	const struct option opts[] = { { name, no_argument, NULL, 'f' }, { 0 } };
	const char shorts[] = { (char)short_name, '\0' };
	int c;

	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c != 'f' && (c != short_name || !short_name))
			break;
		*flag = 1;
	}
	if (c != -1 || optind == argc) {
		fputs(usage_text, stderr);
		return -1;
	}
	return optind;
}

static int cmd_show(int argc, char **argv)
{
	int json = 0, worst = 0, first = parse_flag(argc, argv, "json", 0, &json);

	if (first < 0)
		return EXIT_USAGE;
	for (int i = first; i < argc; i++) {
		struct elf_report r;

		elf_inspect(argv[i], &r);
		if (json) {
			show_json(argv[i], &r);
			complain(argv[i], &r);
		} else {
			show_text(argv[i], &r);
		}
		if (r.verdict >= ELF_MALFORMED)
			worst = 1;
	}
	return worst;
}

static int cmd_check(int argc, char **argv)
{
	int quiet = 0, worst = 0, first = parse_flag(argc, argv, "quiet", 'q', &quiet);

	if (first < 0)
		return EXIT_USAGE;
	for (int i = first; i < argc; i++) {
		struct elf_report r;

		elf_inspect(argv[i], &r);
		if (!quiet)
			complain(argv[i], &r);
		if ((int)r.verdict > worst)
			worst = (int)r.verdict;
	}
	return worst;
}

struct edit_opts {
	uint64_t value;		/* 0: clear */
	bool dry_run, follow;
};

static const char *describe(uint64_t v, char *buf, size_t len)
{
	if (!v)
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "%" PRIu64 " bytes", v);
	return buf;
}

static void report_edit(const char *path, const struct edit *e, const struct edit_opts *o)
{
	static const char *const how[] = {
		[EDIT_IN_PLACE] = "rewritten in place", [EDIT_ADD_NOTE] = "note added",
	};
	char was[32], now[32];

	describe(e->old_value, was, sizeof(was));
	describe(o->value, now, sizeof(now));
	if (e->action == EDIT_UNCHANGED)
		printf("%s: suid stack %s: unchanged\n", path, now);
	else
		printf("%s: suid stack %s%s (was %s; %s)\n", path, o->dry_run ? "would be " : "",
		       now, was, how[e->action]);
}

/* One file: read, decide, write unless nothing changes. */
static bool edit_one(const char *path, const struct edit_opts *o)
{
	struct target t;
	struct edit e = { 0 };
	char why[256];
	bool ok = target_open(path, o->follow, &t, why, sizeof(why));

	if (ok && !edit_plan(t.image, t.len, o->value, &e)) {
		snprintf(why, sizeof(why), "%s", e.why);
		ok = false;
	}
	if (ok && e.action != EDIT_UNCHANGED && !o->dry_run)
		ok = target_replace(&t, e.image, e.len, why, sizeof(why));
	if (ok)
		report_edit(path, &e, o);
	else
		fprintf(stderr, "elfnote: %s: %s\n", path, why);
	edit_free(&e);
	target_close(&t);
	return ok;
}

/* The request itself, before any file is looked at. */
static bool valid_request(const char *arg, uint64_t *value)
{
	const char *why;

	if (!size_parse(arg, value, &why)) {
		fprintf(stderr, "elfnote: invalid size '%s': %s\n", arg, why);
		return false;
	}
	if (*value % 4096) {
		fprintf(stderr, "elfnote: invalid size '%s': not a multiple of 4096 bytes\n", arg);
		return false;
	}
	if (*value <= EDIT_MIN_STACK) {
		fprintf(stderr, "elfnote: invalid size '%s': not above 8M, which every setuid "
			"program gets anyway (elfnote clear removes a request)\n", arg);
		return false;
	}
	return true;
}

static int parse_edit(int argc, char **argv, bool set, struct edit_opts *o)
{
	const struct option opts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "follow-symlinks", no_argument, NULL, 'L' },
		{ "suid-stack", required_argument, NULL, 's' },
		{ 0 },
	};
	bool have_value = false;
	int c;

	memset(o, 0, sizeof(*o));
	while ((c = getopt_long(argc, argv, "n", opts, NULL)) != -1) {
		if (c == 'n') {
			o->dry_run = true;
		} else if (c == 'L') {
			o->follow = true;
		} else if (c == 's' && set) {
			if (!valid_request(optarg, &o->value))
				return -1;
			have_value = true;
		} else {
			fputs(usage_text, stderr);
			return -1;
		}
	}
	if (optind == argc || set != have_value) {
		fputs(usage_text, stderr);
		return -1;
	}
	return optind;
}

static int cmd_edit(int argc, char **argv, bool set)
{
	struct edit_opts o;
	int first = parse_edit(argc, argv, set, &o), status = 0;

	if (first < 0)
		return EXIT_USAGE;
	for (int i = first; i < argc; i++)
		if (!edit_one(argv[i], &o))
			status = 1;
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("elfnote %s\n", ELFNOTE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "set") || !strcmp(argv[1], "clear"))
		return cmd_edit(argc - 1, argv + 1, argv[1][0] == 's');
	if (!strcmp(argv[1], "scan"))
		return cmd_scan(argc - 1, argv + 1);
	fprintf(stderr, "elfnote: unknown command '%s'\n%s", argv[1], usage_text);
	return EXIT_USAGE;
}
