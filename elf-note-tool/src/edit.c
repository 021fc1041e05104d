// SPDX-License-Identifier: GPL-2.0
#include "edit.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addnote.h"
#include "elffile.h"

static bool fail(struct edit *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->why, sizeof(e->why), fmt, ap);
	va_end(ap);
	return false;
}

static bool check_range(const struct elf_report *r, uint64_t value, struct edit *e)
{
	uint64_t max = r->elf_class == 64 ? EDIT_MAX_STACK_64 : EDIT_MAX_STACK_32;

	if (value && value > max)
		return fail(e, "%" PRIu64 " bytes is more than an ELF%d program can use (at most %" PRIu64 ")",
			    value, r->elf_class, max);
	return true;
}

static bool rewrite_in_place(unsigned char *image, size_t len, const struct elf_report *r,
			     uint64_t value, struct edit *e)
{
	const struct policy *p = &r->policy;

	if (p->bare_notes)
		return fail(e, "its policy note has no stack property, which cannot be added in place");
	if (p->sites > POLICY_SITES_MAX)
		return fail(e, "more than %d policy notes", POLICY_SITES_MAX);
	e->image = malloc(len ? len : 1);
	if (!e->image)
		return fail(e, "out of memory");
	memcpy(e->image, image, len);
	e->len = len;
	for (size_t i = 0; i < p->sites; i++)
		policy_put64(e->image + p->site[i], value, r->big_endian);
	e->action = EDIT_IN_PLACE;
	return true;
}

static bool add_note(unsigned char *image, size_t len, const struct elf_report *r,
		     uint64_t value, struct edit *e)
{
	const char *why;

	if (r->policy.problem)
		return fail(e, "it has a policy note the kernel does not read (%s)", r->policy.problem);
	e->image = addnote(image, len, value, &e->len, &why);
	if (!e->image)
		return fail(e, "cannot add a note: %s", why);
	e->action = EDIT_ADD_NOTE;
	return true;
}

/* The tool's own result must read back as asked, like any file would. */
static bool verify(struct edit *e, uint64_t value)
{
	struct elf_report r;

	elf_inspect_image(e->image, e->len, &r);
	if (r.verdict != ELF_ANNOTATED || r.policy.suid_stack != value) {
		edit_free(e);
		return fail(e, "internal error: the rewritten file does not read back as %" PRIu64 " bytes",
			    value);
	}
	return true;
}

bool edit_plan(unsigned char *image, size_t len, uint64_t value, struct edit *e)
{
	struct elf_report r;

	memset(e, 0, sizeof(*e));
	elf_inspect_image(image, len, &r);
	switch (r.verdict) {
	case ELF_MALFORMED:
		return fail(e, "malformed exec policy note (%s); not edited", r.policy.problem);
	case ELF_NOT_EXECUTABLE:
	case ELF_IO_ERROR:
		return fail(e, "%s", r.reason);
	case ELF_ANNOTATED:
		e->old_value = r.policy.suid_stack;
		if (r.policy.suid_stack == value)
			return true;
		if (!check_range(&r, value, e) || !rewrite_in_place(image, len, &r, value, e))
			return false;
		break;
	case ELF_NO_NOTE:
		if (!value)
			return true;
		if (!check_range(&r, value, e) || !add_note(image, len, &r, value, e))
			return false;
		break;
	}
	return verify(e, value);
}

void edit_free(struct edit *e)
{
	free(e->image);
	e->image = NULL;
	e->len = 0;
}
