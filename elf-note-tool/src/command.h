/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elfnote's commands: one entry each in main.c's table, which is also the
 * one source of the usage texts (elfnote --help, and a command's own usage
 * after a usage error).  A command's code is in cmd-NAME.c.
 */
#ifndef ELFNOTE_COMMAND_H
#define ELFNOTE_COMMAND_H

#include <stdio.h>

struct command {
	const char *name;
	/* argv[0] is the command's name; returns the exit status (exit.h). */
	int (*run)(const struct command *cmd, int argc, char **argv);
	const char *args;	/* the synopsis after "elfnote NAME" */
	const char *help;	/* what it does, options and exit status */
};

int cmd_show(const struct command *cmd, int argc, char **argv);
int cmd_check(const struct command *cmd, int argc, char **argv);
/* set, clear and remove */
int cmd_set(const struct command *cmd, int argc, char **argv);
int cmd_scan(const struct command *cmd, int argc, char **argv);

/* "usage: elfnote NAME ARGS" and the command's help, on out. */
void command_usage(const struct command *cmd, FILE *out);

/*
 * A usage error (cmd NULL: of elfnote itself), the getopt way: one line
 * "elfnote: NAME: problem" and one naming --help, on stderr.  Returns
 * EXIT_USAGE.
 */
int command_usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The same for what getopt_long() returned as c, '?' or ':' (with opterr
 * 0 and an optstring starting with ':'), naming the option as written.
 */
int command_option_error(const struct command *cmd, char **argv, int c);

/* A flag a command takes: --NAME, or -SHORT if short_name. */
struct command_flag {
	const char *name;
	int short_name;
	int *set;	/* set to 1 when given */
};

/*
 * For commands that take flags (an array ending in { NULL }, at most six)
 * and at least one FILE: returns the index of the first FILE, 0 after
 * printing the command's help for --help (exit 0), or -EXIT_USAGE after
 * a usage error.
 */
int command_flags(const struct command *cmd, int argc, char **argv, const struct command_flag *flags);

#endif
