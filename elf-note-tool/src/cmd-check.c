// SPDX-License-Identifier: GPL-2.0
/* elfnote check: problems on stderr, the worst file's verdict as the exit status. */
#include <stdio.h>

#include "command.h"
#include "elffile.h"
#include "exit.h"
#include "names.h"
#include "verdict.h"

/* One file's exit status; the worst of them is the command's. */
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

int cmd_check(const struct command *cmd, int argc, char **argv)
{
	int quiet = 0, elf_only = 0, json = 0, worst = EXIT_NOTE;
	const struct command_flag flags[] = {
		{ "quiet", 'q', &quiet }, { "elf-only", 0, &elf_only }, { "json", 0, &json }, { NULL },
	};
	int first = command_flags(cmd, argc, argv, flags);

	if (first <= 0)
		return -first;
	for (int i = first; i < argc; i++) {
		struct elf_report r;

		elf_inspect(argv[i], &r);
		if (elf_only && !r.has_elf_magic && r.verdict == ELF_NOT_EXECUTABLE)
			continue;
		if (json)
			verdict_json_line(stdout, argv[i], &r);
		if (!quiet)
			verdict_complain(argv[i], &r);
		/* A note the kernel does not see is the packager's problem too. */
		if (!quiet && r.verdict == ELF_NO_NOTE && r.policy.problem)
			name_error(argv[i], "%s", r.policy.problem);
		if (check_status(r.verdict) > worst)
			worst = check_status(r.verdict);
	}
	return worst;
}
