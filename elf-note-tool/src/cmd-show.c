// SPDX-License-Identifier: GPL-2.0
/* elfnote show: what each file's note asks, in words or as JSON. */
#include <inttypes.h>
#include <stdio.h>

#include "command.h"
#include "elffile.h"
#include "exit.h"
#include "names.h"
#include "verdict.h"

/* A request as " bytes (KiB)". */
static void print_size(const char *what, uint64_t v)
{
	printf("%s %" PRIu64 " bytes (%" PRIu64 " KiB)", what, v, v >> 10);
}

static void show_text(const char *path, const struct elf_report *r)
{
	const struct policy *p = &r->policy;

	if (r->verdict >= ELF_MALFORMED) {
		verdict_complain(path, r);
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

int cmd_show(const struct command *cmd, int argc, char **argv)
{
	int json = 0, status = EXIT_OK;
	const struct command_flag flags[] = { { "json", 0, &json }, { NULL } };
	int first = command_flags(cmd, argc, argv, flags);

	if (first <= 0)
		return -first;
	for (int i = first; i < argc; i++) {
		struct elf_report r;

		elf_inspect(argv[i], &r);
		if (json) {
			verdict_json_line(stdout, argv[i], &r);
			verdict_complain(argv[i], &r);
		} else {
			show_text(argv[i], &r);
		}
		if (r.verdict >= ELF_MALFORMED)
			status = EXIT_FILE_FAILED;
	}
	return status;
}
