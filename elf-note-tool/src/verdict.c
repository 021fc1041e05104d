// SPDX-License-Identifier: GPL-2.0
#include "verdict.h"

#include <inttypes.h>

#include "json.h"
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

/* Why the file is not a plain verdict, or NULL. */
static const char *problem(const struct elf_report *r)
{
	if (r->verdict >= ELF_NOT_EXECUTABLE)
		return r->reason;
	return r->policy.problem;
}

/* A string member, or null. */
static void json_member(FILE *out, const char *name, const char *value)
{
	fprintf(out, ",\"%s\":", name);
	if (value)
		json_string(out, value);
	else
		fputs("null", out);
}

void verdict_json(FILE *out, const char *path, const struct elf_report *r)
{
	bool elf = r->verdict <= ELF_MALFORMED;
	bool note = r->verdict == ELF_ANNOTATED;

	fprintf(out, "\"format\":%d,\"file\":", VERDICT_JSON_FORMAT);
	json_string(out, path);
	json_member(out, "status", verdict_name(r->verdict));
	if (elf)
		fprintf(out, ",\"class\":%d", r->elf_class);
	else
		fputs(",\"class\":null", out);
	json_member(out, "byte_order", elf ? (r->big_endian ? "big" : "little") : NULL);
	json_member(out, "type", elf ? r->type : NULL);
	fprintf(out, ",\"suid_stack\":%" PRIu64 ",\"stack_guard_gap\":%" PRIu64 ",\"notes\":%zu",
		note ? r->policy.suid_stack : 0, note ? r->policy.stack_guard_gap : 0,
		note ? r->policy.notes : (size_t)0);
	json_member(out, "problem", problem(r));
	fprintf(out, ",\"elfnote_sections\":%s", r->added_sections ? "true" : "false");
}

void verdict_json_line(FILE *out, const char *path, const struct elf_report *r)
{
	fputc('{', out);
	verdict_json(out, path, r);
	fputs("}\n", out);
}
