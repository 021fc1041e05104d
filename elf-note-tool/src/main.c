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

#include "elffile.h"
#include "exit.h"
#include "json.h"
#include "names.h"
#include "setclear.h"
#include "scan.h"

#ifndef ELFNOTE_VERSION
#define ELFNOTE_VERSION "0.1"
#endif

static const char usage_text[] =
	"usage: elfnote show [--json] FILE...\n"
	"       elfnote check [-q] FILE...\n"
	"       elfnote set [-n] [--follow-symlinks] [--suid-stack SIZE]\n"
	"                   [--stack-guard-gap SIZE] FILE...\n"
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
	"set    makes each file request, with --suid-stack, SIZE bytes of stack\n"
	"       when run setuid, setgid or with capabilities (a multiple of 4096\n"
	"       above 8M), and with --stack-guard-gap its own stack guard gap\n"
	"       (a multiple of 4096 up to 64M); SIZE in bytes, or K, M, G.\n"
	"       Rewrites the note, or adds one to a linked file; nothing is\n"
	"       written where the values are already there.\n"
	"clear  rewrites every request to 0 (none); the note stays.\n"
	"       -n, --dry-run: say what would change, write nothing.\n"
	"       Files are replaced whole, keeping owner, mode and xattrs; set and\n"
	"       clear exit 0, or 1 when any file could not be done.\n"
	"scan   lists setuid, setgid and file-capability ELF executables under\n"
	"       each DIR (default /), with their notes; --all lists every ELF\n"
	"       executable.\n";

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

/* check's exit status for one file; the worst of them is the command's. */
static int check_status(enum elf_verdict v)
{
	switch (v) {
	case ELF_ANNOTATED: return EXIT_NOTE;
	case ELF_NO_NOTE: return EXIT_NO_NOTE;
	case ELF_MALFORMED: return EXIT_MALFORMED;
	case ELF_NOT_EXECUTABLE: return EXIT_NOT_EXECUTABLE;
	default: return EXIT_IO_ERROR;
	}
}

static void complain(const char *path, const struct elf_report *r)
{
	if (r->verdict == ELF_MALFORMED)
		name_error(path, "malformed exec policy note: %s", r->policy.problem);
	else if (r->verdict >= ELF_NOT_EXECUTABLE)
		name_error(path, "%s", r->reason);
}

/* A request as " bytes (KiB)". */
static void print_size(const char *what, uint64_t v)
{
	printf("%s %" PRIu64 " bytes (%" PRIu64 " KiB)", what, v, v >> 10);
}

static void show_text(const char *path, const struct elf_report *r)
{
	const struct policy *p = &r->policy;

	if (r->verdict >= ELF_MALFORMED) {
		complain(path, r);
		return;
	}
	name_print(stdout, path);
	if (r->verdict == ELF_NO_NOTE) {
		printf(": no exec policy note%s%s\n", p->problem ? "; " : "",
		       p->problem ? p->problem : "");
		return;
	}
	if (!p->suid_stack && !p->stack_guard_gap) {
		printf(": exec policy note, no request\n");
		return;
	}
	printf(": exec policy note: ");
	if (p->suid_stack)
		print_size("suid stack", p->suid_stack);
	if (p->suid_stack && p->stack_guard_gap)
		printf(", ");
	if (p->stack_guard_gap)
		print_size("stack guard gap", p->stack_guard_gap);
	putchar('\n');
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
		printf(",\"suid_stack\":%" PRIu64 ",\"stack_guard_gap\":%" PRIu64 ",\"notes\":%zu",
		       r->policy.suid_stack, r->policy.stack_guard_gap, r->policy.notes);
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
	int json = 0, status = EXIT_OK, first = parse_flag(argc, argv, "json", 0, &json);

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
			status = EXIT_FILE_FAILED;
	}
	return status;
}

static int cmd_check(int argc, char **argv)
{
	int quiet = 0, worst = EXIT_NOTE, first = parse_flag(argc, argv, "quiet", 'q', &quiet);

	if (first < 0)
		return EXIT_USAGE;
	for (int i = first; i < argc; i++) {
		struct elf_report r;

		elf_inspect(argv[i], &r);
		if (!quiet)
			complain(argv[i], &r);
		if (check_status(r.verdict) > worst)
			worst = check_status(r.verdict);
	}
	return worst;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage_text, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("elfnote %s\n", ELFNOTE_VERSION);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "show"))
		return cmd_show(argc - 1, argv + 1);
	if (!strcmp(argv[1], "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(argv[1], "set") || !strcmp(argv[1], "clear"))
		return cmd_setclear(argc - 1, argv + 1);
	if (!strcmp(argv[1], "scan"))
		return cmd_scan(argc - 1, argv + 1);
	fprintf(stderr, "elfnote: unknown command '%s'\n%s", argv[1], usage_text);
	return EXIT_USAGE;
}
