// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for elfnote's editor (src/edit.c, src/addnote.c): the
 * first input byte picks the request (clear; a 32 MiB or 3 GiB stack; a
 * one-page or 64 MiB guard gap; both), the rest is a file.  Besides the sanitizers it checks the editor's promises:
 *   - what it plans reads back as asked (edit_plan() checks this itself
 *     and says "internal error" otherwise);
 *   - an in-place rewrite keeps the size and changes at most 8 bytes per
 *     stack property; an added note keeps every byte after the ELF header;
 *   - planning again on the result changes nothing (idempotence).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t differing(const unsigned char *a, const unsigned char *b, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += a[i] != b[i];
	return n;
}

/* Whether any byte of a that is not zero differs in b. */
static bool nonzero_changed(const unsigned char *a, const unsigned char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (a[i] && a[i] != b[i])
			return true;
	return false;
}

static void check_result(const unsigned char *in, size_t len, const struct edit_request *req,
			 struct edit *e)
{
	struct edit again;

	if (e->action == EDIT_IN_PLACE &&
	    (e->len != len || differing(in, e->image, len) > 2 * 8 * POLICY_SITES_MAX))
		abort();
	/*
	 * 64 bytes: the largest ELF header (ELF64), the only bytes rewritten
	 * but for the zero padding of a page's tail, which the added table
	 * and notes may fill (addnote.c, plan_in_gap()); then the file keeps
	 * its length when it has no section headers to append.
	 */
	if (e->action == EDIT_ADD_NOTE &&
	    (e->len < len || (len > 64 && nonzero_changed(in + 64, e->image + 64, len - 64))))
		abort();
	if (!edit_plan(e->image, e->len, req, &again) || again.action != EDIT_UNCHANGED)
		abort();
	edit_free(&again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct edit_request reqs[] = {
		{ .set_stack = true, .set_gap = true },
		{ .set_stack = true, .suid_stack = 32ULL << 20 },
		{ .set_stack = true, .suid_stack = 3ULL << 30 },
		{ .set_gap = true, .stack_guard_gap = 4096 },
		{ .set_gap = true, .stack_guard_gap = 64ULL << 20 },
		{ .set_stack = true, .suid_stack = 32ULL << 20, .set_gap = true,
		  .stack_guard_gap = 4096 },
	};
	const struct edit_request *req;
	unsigned char *copy;
	struct edit e;

	if (size < 1)
		return 0;
	req = &reqs[data[0] % (sizeof(reqs) / sizeof(reqs[0]))];
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (edit_plan(copy, size - 1, req, &e)) {
		if (e.action != EDIT_UNCHANGED)
			check_result(copy, size - 1, req, &e);
	} else if (!strncmp(e.why, "internal error", 14)) {
		abort();
	}
	edit_free(&e);
	free(copy);
	return 0;
}
