// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

#include "names.h"

const char *verdict_name(enum elf_verdict v)
{
	switch (v) {
	case ELF_ANNOTATED: return "annotated";
	case ELF_NO_NOTE: return "none";
	case ELF_MALFORMED: return "malformed";
	case ELF_NOT_EXECUTABLE: return "not-executable";
	default: return "error";
	}
}

void verdict_complain(const char *path, const struct elf_report *r)
{
	if (r->verdict == ELF_MALFORMED)
		name_error(path, "malformed exec policy note: %s", r->policy.problem);
	else if (r->verdict >= ELF_NOT_EXECUTABLE)
		name_error(path, "%s", r->reason);
}
