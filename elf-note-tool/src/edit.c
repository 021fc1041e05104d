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

static bool check_range(const struct elf_report *r, uint64_t stack, struct edit *e)
{
	uint64_t max = r->elf_class == 64 ? EDIT_MAX_STACK_64 : EDIT_MAX_STACK_32;

	if (stack > max)
		return fail(e, "%" PRIu64 " bytes is more than an ELF%d program can use (at most %" PRIu64 ")",
			    stack, r->elf_class, max);
	return true;
}

/* Rewrites one property's values; every policy note must carry it. */
static bool rewrite_sites(const struct policy *p, const struct policy_sites *s, const char *name,
			  uint64_t value, bool be, struct edit *e)
{
	if (s->n < p->notes && value)
		return fail(e, "its policy note has no %s property, which cannot be added in place", name);
	if (s->n > POLICY_SITES_MAX)
		return fail(e, "more than %d policy notes", POLICY_SITES_MAX);
	for (size_t i = 0; i < s->n; i++)
		policy_put64(e->image + s->at[i], value, be);
	return true;
}

static bool rewrite_in_place(unsigned char *image, size_t len, const struct elf_report *r,
			     uint64_t stack, uint64_t gap, struct edit *e)
{
	const struct policy *p = &r->policy;

	e->image = malloc(len ? len : 1);
	if (!e->image)
		return fail(e, "out of memory");
	memcpy(e->image, image, len);
	e->len = len;
	e->action = EDIT_IN_PLACE;
	return (stack == p->suid_stack ||
		rewrite_sites(p, &p->stack_sites, "stack", stack, r->big_endian, e)) &&
	       (gap == p->stack_guard_gap ||
		rewrite_sites(p, &p->gap_sites, "stack guard gap", gap, r->big_endian, e));
}

static bool add_note(unsigned char *image, size_t len, uint64_t stack, uint64_t gap,
		     struct edit *e)
{
	const char *why;

	e->image = addnote(image, len, stack, gap, &e->len, &why);
	if (!e->image)
		return fail(e, "cannot add a note: %s", why);
	e->action = EDIT_ADD_NOTE;
	return true;
}

/* The tool's own result must read back as asked, like any file would. */
static bool verify(struct edit *e, uint64_t stack, uint64_t gap)
{
	struct elf_report r;

	elf_inspect_image(e->image, e->len, &r);
	if (r.verdict != ELF_ANNOTATED || r.policy.suid_stack != stack ||
	    r.policy.stack_guard_gap != gap) {
		edit_free(e);
		return fail(e, "internal error: the rewritten file does not read back as asked");
	}
	return true;
}

bool edit_plan(unsigned char *image, size_t len, const struct edit_request *req,
	       struct edit *e)
{
	struct elf_report r;
	uint64_t stack, gap;
	bool ok;

	memset(e, 0, sizeof(*e));
	elf_inspect_image(image, len, &r);
	if (r.verdict == ELF_MALFORMED)
		return fail(e, "malformed exec policy note (%s); not edited", r.policy.problem);
	if (r.verdict != ELF_ANNOTATED && r.verdict != ELF_NO_NOTE)
		return fail(e, "%s", r.reason);
	e->old_stack = r.policy.suid_stack;
	e->old_gap = r.policy.stack_guard_gap;
	stack = req->set_stack ? req->suid_stack : e->old_stack;
	gap = req->set_gap ? req->stack_guard_gap : e->old_gap;
	if (stack == e->old_stack && gap == e->old_gap)
		return true;
	if (!check_range(&r, stack, e))
		return false;
	if (r.policy.problem)
		return fail(e, "it has a policy note the kernel does not read (%s)", r.policy.problem);
	/* Stamped, such a file would read as one strip rewrote. */
	if (r.verdict == ELF_NO_NOTE && r.disagreeing[0])
		return fail(e, "cannot add a note: %s", r.disagreeing);
	if (r.verdict == ELF_ANNOTATED)
		ok = rewrite_in_place(image, len, &r, stack, gap, e);
	else
		ok = add_note(image, len, stack, gap, e);
	if (!ok) {
		edit_free(e);
		return false;
	}
	return verify(e, stack, gap);
}

bool edit_plan_remove(unsigned char *image, size_t len, struct edit *e)
{
	struct elf_report r;
	const char *why;

	memset(e, 0, sizeof(*e));
	elf_inspect_image(image, len, &r);
	if (r.verdict == ELF_NO_NOTE)
		return true;
	if (r.verdict == ELF_MALFORMED)
		return fail(e, "malformed exec policy note (%s); not edited", r.policy.problem);
	if (r.verdict != ELF_ANNOTATED)
		return fail(e, "%s", r.reason);
	e->old_stack = r.policy.suid_stack;
	e->old_gap = r.policy.stack_guard_gap;
	e->image = removenote(image, len, e->old_stack, e->old_gap, &e->len, &why);
	if (!e->image)
		return fail(e, "cannot remove the note: %s", why);
	e->action = EDIT_REMOVE_NOTE;
	elf_inspect_image(e->image, e->len, &r);
	if (r.verdict != ELF_NO_NOTE) {
		edit_free(e);
		return fail(e, "internal error: the file given back still has a note");
	}
	return true;
}

void edit_free(struct edit *e)
{
	free(e->image);
	e->image = NULL;
	e->len = 0;
}
