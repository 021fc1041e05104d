// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the note walk (src/policy.c).  The first input
 * byte chooses the alignment (bit 0: 8, else 4), whether the segment is
 * complete (bit 1) and the byte order (bit 2: big-endian); the rest is the
 * segment.  Besides the sanitizers it checks the walk's promises: a
 * malformed verdict always says why, and a found note's size is a multiple
 * of 4096.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct policy p;
	unsigned char *copy;

	if (size < 1)
		return 0;
	/* An exact-size heap copy, so ASan sees any read past the end. */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	memset(&p, 0, sizeof(p));
	policy_walk_segment(copy, size - 1, data[0] & 1 ? 8 : 4, data[0] & 2, data[0] & 4, &p);
	/* Run it twice over the same state: a second segment. */
	policy_walk_segment(copy, size - 1, 4, true, data[0] & 4, &p);
	if (p.malformed && !p.problem)
		abort();
	if (p.found && !p.malformed && (p.suid_stack % 4096 || p.stack_guard_gap % 4096))
		abort();
	/* The unbounded search finds whatever the bounded walk finds. */
	memset(&p, 0, sizeof(p));
	policy_walk_segment(copy, size - 1, 4, true, data[0] & 4, &p);
	if (p.found && !policy_note_present(copy, size - 1, 4, data[0] & 4))
		abort();
	free(copy);
	return 0;
}
