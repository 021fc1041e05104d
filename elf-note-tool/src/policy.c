// SPDX-License-Identifier: GPL-2.0
#include "policy.h"

#include <string.h>

#include "exec-policy-note.h"

static uint32_t get32(const unsigned char *b, bool be)
{
	return be ? (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]
		  : (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

uint64_t policy_get64(const unsigned char *b, bool be)
{
	uint64_t hi = get32(b + (be ? 0 : 4), be), lo = get32(b + (be ? 4 : 0), be);

	return hi << 32 | lo;
}

static void put32(unsigned char *b, uint32_t v, bool be)
{
	for (int i = 0; i < 4; i++)
		b[be ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

void policy_put64(unsigned char *out, uint64_t value, bool big_endian)
{
	put32(out + (big_endian ? 4 : 0), (uint32_t)value, big_endian);
	put32(out + (big_endian ? 0 : 4), (uint32_t)(value >> 32), big_endian);
}

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static bool malformed(struct policy *p, const char *why)
{
	p->malformed = true;
	p->problem = why;
	return false;
}

/* One size property of a note: 8 bytes, once, in 4096-byte units. */
struct size_prop {
	bool seen;
	uint64_t value;
	struct policy_sites *sites;
	const char *wrong_size, *twice, *unaligned;	/* why malformed */
};

static bool parse_size(const unsigned char *data, uint32_t size, uint64_t at, bool be,
		       struct size_prop *prop, struct policy *p)
{
	if (size != 8)
		return malformed(p, prop->wrong_size);
	if (prop->seen)
		return malformed(p, prop->twice);
	prop->value = policy_get64(data, be);
	if (prop->value % EXEC_POLICY_STACK_UNIT)
		return malformed(p, prop->unaligned);
	prop->seen = true;
	if (prop->sites->n < POLICY_SITES_MAX)
		prop->sites->at[prop->sites->n] = at;
	prop->sites->n++;
	return true;
}

/*
 * One policy note's descriptor, at offset desc_at of the segment; false
 * when it is malformed.
 */
static bool parse_props(const unsigned char *desc, uint32_t descsz, size_t desc_at,
			bool be, struct policy *p)
{
	struct size_prop stack = {
		.sites = &p->stack_sites, .wrong_size = "stack property is not 8 bytes",
		.twice = "stack property given twice",
		.unaligned = "stack size is not a multiple of 4096",
	};
	struct size_prop gap = {
		.sites = &p->gap_sites, .wrong_size = "stack guard gap property is not 8 bytes",
		.twice = "stack guard gap property given twice",
		.unaligned = "stack guard gap is not a multiple of 4096",
	};
	uint32_t off = 0;

	if (descsz % EXEC_POLICY_NOTE_ALIGN)
		return malformed(p, "descriptor size is not a multiple of 4");
	while (off < descsz) {
		uint32_t type, size;
		struct size_prop *prop = NULL;

		if (descsz - off < 8)
			return malformed(p, "property header cut short");
		type = get32(desc + off, be);
		size = get32(desc + off + 4, be);
		off += 8;
		if (size > descsz - off)
			return malformed(p, "property data runs past the descriptor");
		if (type == EXEC_POLICY_PROP_SUID_STACK)
			prop = &stack;
		else if (type == EXEC_POLICY_PROP_STACK_GUARD_GAP)
			prop = &gap;
		if (prop && !parse_size(desc + off, size, p->base + desc_at + off, be, prop, p))
			return false;
		off += (uint32_t)align_up(size, EXEC_POLICY_NOTE_ALIGN);
	}
	if (p->found && (p->suid_stack != stack.value || p->stack_guard_gap != gap.value))
		return malformed(p, "policy notes disagree");
	p->found = true;
	p->suid_stack = stack.value;
	p->stack_guard_gap = gap.value;
	p->notes++;
	return true;
}

static bool is_policy(const unsigned char *hdr, const unsigned char *name, bool be)
{
	return get32(hdr + 8, be) == EXEC_POLICY_NOTE_TYPE &&
	       get32(hdr, be) == EXEC_POLICY_NOTE_NAMESZ &&
	       !memcmp(name, EXEC_POLICY_NOTE_NAME, EXEC_POLICY_NOTE_NAMESZ);
}

bool policy_walk_segment(const unsigned char *buf, size_t len, size_t align,
			 bool complete, bool big_endian, struct policy *p)
{
	size_t off = 0;

	if (len > POLICY_READ_MAX) {
		len = POLICY_READ_MAX;
		complete = false;
		p->unread = true;
	}
	for (int n = 0; n < POLICY_NOTES_MAX; n++) {
		size_t name, desc, namesz, descsz;
		bool ours;

		if (len - off < 12)
			return true;
		namesz = get32(buf + off, big_endian);
		descsz = get32(buf + off + 4, big_endian);
		name = off + 12;
		if (namesz > len - name)
			return true;
		desc = align_up(name + namesz, align);
		ours = is_policy(buf + off, buf + name, big_endian);
		if (desc > len || descsz > len - desc) {
			if (ours && complete)
				return malformed(p, "descriptor runs past the end of the segment");
			if (ours)
				p->problem = "a policy note ends beyond what the kernel reads of its segment (1 KiB, or the end of the file): not seen";
			return true;
		}
		if (ours && !parse_props(buf + desc, (uint32_t)descsz, desc, big_endian, p))
			return false;
		off = align_up(desc + descsz, align);
		if (off > len)
			off = len;
	}
	/* Room for another note header: the note bound stopped the walk. */
	p->unread |= len - off >= 12;
	return true;
}

bool policy_note_present(const unsigned char *buf, size_t len, size_t align, bool big_endian)
{
	size_t off = 0;

	while (len - off >= 12) {
		size_t namesz = get32(buf + off, big_endian);
		size_t descsz = get32(buf + off + 4, big_endian);
		size_t name = off + 12, desc;

		if (namesz > len - name)
			return false;
		if (is_policy(buf + off, buf + name, big_endian))
			return true;
		desc = align_up(name + namesz, align);
		if (desc > len || descsz > len - desc)
			return false;
		off = align_up(desc + descsz, align);
		if (off > len)
			return false;
	}
	return false;
}

void policy_encode_note(unsigned char out[POLICY_NOTE_BYTES], uint64_t suid_stack,
			uint64_t stack_guard_gap, bool big_endian)
{
	const size_t name_at = 12, desc_at = name_at + align_up(EXEC_POLICY_NOTE_NAMESZ, 4);

	memset(out, 0, POLICY_NOTE_BYTES);
	put32(out, EXEC_POLICY_NOTE_NAMESZ, big_endian);
	put32(out + 4, 32, big_endian);
	put32(out + 8, EXEC_POLICY_NOTE_TYPE, big_endian);
	memcpy(out + name_at, EXEC_POLICY_NOTE_NAME, EXEC_POLICY_NOTE_NAMESZ);
	put32(out + desc_at, EXEC_POLICY_PROP_SUID_STACK, big_endian);
	put32(out + desc_at + 4, 8, big_endian);
	policy_put64(out + desc_at + 8, suid_stack, big_endian);
	put32(out + desc_at + 16, EXEC_POLICY_PROP_STACK_GUARD_GAP, big_endian);
	put32(out + desc_at + 20, 8, big_endian);
	policy_put64(out + desc_at + 24, stack_guard_gap, big_endian);
}
