// SPDX-License-Identifier: GPL-2.0
/*
 * elfnote: inspect, stamp and audit the exec policy note of ELF executables.
 *
 * The command table below names each command, the function that runs it
 * (cmd-NAME.c) and its usage; every usage text comes from it, so the
 * synopsis and help cannot drift apart between elfnote --help and a
 * command's usage error.  Exit statuses are exit.h's.  Errors go to
 * stderr as "elfnote: FILE: reason".
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "exit.h"

#ifndef ELFNOTE_VERSION
#define ELFNOTE_VERSION "0.1"
#endif

/*
 * args: a '\n' continues the synopsis under its first argument.
 * help: a '\n' starts another line of the help column.
 */
static const struct command commands[] = {
	{
		"show", cmd_show, "[--json] FILE...",
		"prints the exec policy note of each file: the secureexec stack\n"
		"size it requests, that there is none, or why it is malformed.\n"
		"--json prints one JSON object per file and line.\n",
	},
	{
		"check", cmd_check, "[-q] [--json] [--elf-only] FILE...",
		"prints nothing but problems (-q: not even those) and exits with,\n"
		"for the worst file:\n"
		"  0  a well-formed note       1  no note\n"
		"  2  a malformed note (execve fails with ENOEXEC on kernels\n"
		"     that read it)            3  not an ELF executable\n"
		"  4  I/O error                64 usage error\n"
		"--json prints each file's object as show --json does.\n"
		"--elf-only skips files without the ELF magic (scripts, text),\n"
		"so that check -q --elf-only /usr/bin/* says 1 where none has a note.\n",
	},
	{
		"set", cmd_set,
		"[-n] [--strict] [--old-kernels] [--follow-symlinks]\n"
		"[--suid-stack SIZE] [--stack-guard-gap SIZE] FILE...",
		"makes each file request, with --suid-stack, SIZE bytes of stack\n"
		"when run setuid, setgid or with capabilities (a multiple of 4096\n"
		"above 8M), and with --stack-guard-gap its own stack guard gap\n"
		"(a multiple of 4096 up to 64M); SIZE in bytes, or K, M, G, T.\n"
		"Rewrites the note, or adds one to a linked file; nothing is\n"
		"written where the values are already there.\n"
		"-n, --dry-run: say what would change, write nothing.\n"
		"A request kernels do not honour by default (a lowered gap for a\n"
		"setuid, setgid or capability program, a stack above 64M) gets\n"
		"a warning; --strict: the file is refused instead.\n"
		"--old-kernels: accepted for scripts; a note added after linking\n"
		"is always laid out for kernels before 5.18 too.\n"
		"Files are replaced whole, keeping owner, mode and xattrs; set and\n"
		"clear exit 0, or 1 when any file could not be done.\n",
	},
	{
		"clear", cmd_set, "[-n] [--follow-symlinks] FILE...",
		"rewrites every request to 0 (none); the note stays.  Options\n"
		"and exit status as for set.\n",
	},
	{
		"remove", cmd_set, "[-n] [--follow-symlinks] FILE...",
		"takes out a note elfnote set added after linking: the file is\n"
		"the original again, byte for byte.  Refused for a note linked\n"
		"in and for a file changed since (stripped, edited).  Options\n"
		"and exit status as for set.\n",
	},
	{
		"scan", cmd_scan, "[--json] [--all] [DIR...]",
		"lists setuid, setgid and file-capability ELF executables under\n"
		"each DIR (default /), on its filesystem only, with their notes;\n"
		"--all lists every ELF executable.  --json prints one JSON object\n"
		"per file and line.  Exits 0, 4 if something could not be read,\n"
		"64 on a usage error.\n",
	},
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Where the help text starts, after the longest name and two spaces. */
#define HELP_COLUMN 7

/* lead "elfnote NAME ARGS", the synopsis's later lines under its first argument. */
static void print_synopsis(FILE *out, const char *lead, const struct command *c)
{
	int indent = fprintf(out, "%selfnote %s ", lead, c->name);

	for (const char *s = c->args; *s; s++) {
		fputc(*s, out);
		if (*s == '\n')
			fprintf(out, "%*s", indent, "");
	}
	fputc('\n', out);
}

/* NAME in the first column, the help's lines in the second. */
static void print_help(FILE *out, const struct command *c)
{
	fprintf(out, "%-*s", HELP_COLUMN, c->name);
	for (const char *s = c->help; *s; s++) {
		fputc(*s, out);
		if (*s == '\n' && s[1])
			fprintf(out, "%*s", HELP_COLUMN, "");
	}
}

static void usage(FILE *out)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		print_synopsis(out, i ? "       " : "usage: ", &commands[i]);
	fputs("       elfnote --help | --version\n\n", out);
	for (size_t i = 0; i < NCOMMANDS; i++)
		print_help(out, &commands[i]);
}

void command_usage(const struct command *cmd, FILE *out)
{
	print_synopsis(out, "usage: ", cmd);
	fputc('\n', out);
	print_help(out, cmd);
}

/* The getopt convention: one line naming the problem, then where help is. */
static void vusage_error(const char *name, const char *fmt, va_list ap)
{
	fputs("elfnote: ", stderr);
	if (name)
		fprintf(stderr, "%s: ", name);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\nTry 'elfnote %s%s--help' for more information.\n",
		name ? name : "", name ? " " : "");
}

int command_usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vusage_error(cmd ? cmd->name : NULL, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int command_option_error(const struct command *cmd, char **argv, int c)
{
	const char *arg = argv[optind - 1];
	const char *eq = strchr(arg, '=');
	bool long_opt = !strncmp(arg, "--", 2);

	if (c == ':' && long_opt)
		return command_usage_error(cmd, "option '%s' needs a value", arg);
	if (c == ':')
		return command_usage_error(cmd, "option '-%c' needs a value", optopt);
	if (long_opt && eq && optopt)
		return command_usage_error(cmd, "option '%.*s' takes no value", (int)(eq - arg), arg);
	if (long_opt)
		return command_usage_error(cmd, "unknown option '%s'", arg);
	return command_usage_error(cmd, "unknown option '-%c'", optopt);
}

int command_flags(const struct command *cmd, int argc, char **argv, const struct command_flag *flags)
{
	struct option opts[8] = { { "help", no_argument, NULL, 'h' } };
	char shorts[8] = ":";
	size_t n = 0, ns = 1;
	int c, which;

	for (; flags[n].name && n + 2 < sizeof(opts) / sizeof(opts[0]); n++) {
		opts[n + 1] = (struct option){ flags[n].name, no_argument, NULL, 256 + (int)n };
		if (flags[n].short_name)
			shorts[ns++] = (char)flags[n].short_name;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, opts, NULL)) != -1) {
		if (c == 'h') {
			command_usage(cmd, stdout);
			return 0;
		}
		for (which = 0; which < (int)n; which++)
			if (c == 256 + which || (flags[which].short_name && c == flags[which].short_name))
				break;
		if (which == (int)n)
			return -command_option_error(cmd, argv, c);
		*flags[which].set = 1;
	}
	if (optind == argc)
		return -command_usage_error(cmd, "no FILE given");
	return optind;
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2)
		return command_usage_error(NULL, "a command is needed: show, check, set, clear, remove or scan");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("elfnote %s\n", ELFNOTE_VERSION);
		return EXIT_OK;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return command_usage_error(NULL, "unknown command '%s'", argv[1]);
	return cmd->run(cmd, argc - 1, argv + 1);
}
