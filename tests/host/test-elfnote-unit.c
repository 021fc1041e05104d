// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of elfnote's pure parts, on bytes in memory (built with ASan
 * and UBSan): the size parser, the note encoder against the ABI's bytes,
 * the note walk's record of where values sit, and the editor's decisions
 * on real samples (build/guest-bin/i386 and x86_64) and malformed-corpus files
 * (build/generated/i386/bin).  TAP; argv[1] is the build folder.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edit.h"
#include "elffile.h"
#include "exec-policy-note.h"
#include "policy.h"
#include "size-arg.h"

static int failed;

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s - elfnote unit: ", cond ? "ok" : "not ok");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failed |= !cond;
}

/* --- sizes ---------------------------------------------------------------- */

static const struct {
	const char *in;
	int valid;
	uint64_t bytes;
} sizes[] = {
	{ "0", 1, 0 },
	{ "4096", 1, 4096 },
	{ "4K", 1, 4096 },
	{ "4KiB", 1, 4096 },
	{ "32M", 1, 32ULL << 20 },
	{ "32MiB", 1, 32ULL << 20 },
	{ "1G", 1, 1ULL << 30 },
	{ "18446744073709551615", 1, UINT64_MAX },	/* the last that fits */
	{ "18446744073709551616", 0, 0 },		/* the first that does not */
	{ "17179869183G", 1, 17179869183ULL << 30 },
	{ "17179869184G", 0, 0 },			/* 2^64 */
	{ "", 0, 0 }, { "K", 0, 0 }, { "1k", 0, 0 }, { "1KB", 0, 0 },
	{ "1Ki", 0, 0 }, { "1 K", 0, 0 }, { "1K ", 0, 0 }, { " 1", 0, 0 },
	{ "+1", 0, 0 }, { "-1", 0, 0 }, { "1.5M", 0, 0 }, { "0x10", 0, 0 },
	{ "1T", 0, 0 },
};

static void test_sizes(void)
{
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		uint64_t v = 0;
		const char *why = NULL;
		bool got = size_arg_parse(sizes[i].in, &v, &why);

		ok(got == sizes[i].valid && (!got || v == sizes[i].bytes) && (got || why),
		   "size '%s': %s", sizes[i].in, got ? "accepted" : why ? why : "refused without a reason");
	}
}

/* --- the note's bytes ------------------------------------------------------ */

/*
 * The ABI (docs/note-format.md) written out by hand: the note elfnote adds,
 * a 32 MiB stack and a one-page guard gap, in both byte orders.
 */
static const unsigned char note_le[POLICY_NOTE_BYTES] = {
	6, 0, 0, 0, 32, 0, 0, 0, 0x43, 0x45, 0x58, 0x45, 'L', 'i', 'n', 'u', 'x', 0, 0, 0,
	1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0,
	2, 0, 0, 0, 8, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0,
};
static const unsigned char note_be[POLICY_NOTE_BYTES] = {
	0, 0, 0, 6, 0, 0, 0, 32, 0x45, 0x58, 0x45, 0x43, 'L', 'i', 'n', 'u', 'x', 0, 0, 0,
	0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 2, 0, 0, 0,
	0, 0, 0, 2, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0x10, 0,
};

static void test_note_bytes(void)
{
	for (int be = 0; be <= 1; be++) {
		unsigned char out[POLICY_NOTE_BYTES];
		struct policy p = { .base = 1000 };

		policy_encode_note(out, 32ULL << 20, 4096, be);
		ok(!memcmp(out, be ? note_be : note_le, sizeof(out)),
		   "%s note for 32 MiB and one page is byte for byte the ABI's",
		   be ? "big-endian" : "little-endian");
		policy_walk_segment(out, sizeof(out), 4, true, be, &p);
		ok(p.found && !p.malformed && p.suid_stack == 32ULL << 20 &&
		   p.stack_guard_gap == 4096 && p.stack_sites.n == 1 && p.gap_sites.n == 1 &&
		   p.stack_sites.at[0] == 1000 + 28 && p.gap_sites.at[0] == 1000 + 44,
		   "%s walk finds both, the values at segment offsets 28 and 44",
		   be ? "big-endian" : "little-endian");
	}
}

/* --- the editor -------------------------------------------------------------- */

static unsigned char *load(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	unsigned char *buf;
	FILE *f;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET)) {
		printf("# cannot read %s\n", path);
		exit(1);
	}
	buf = malloc((size_t)n);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		exit(1);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static size_t differing(const unsigned char *a, const unsigned char *b, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		n += a[i] != b[i];
	return n;
}

static uint64_t read_back(struct edit *e, bool gap)
{
	struct elf_report r;

	elf_inspect_image(e->image, e->len, &r);
	if (r.verdict != ELF_ANNOTATED)
		return UINT64_MAX;
	return gap ? r.policy.stack_guard_gap : r.policy.suid_stack;
}

/*
 * plan: set the stack (or with GAP the guard gap) to value, or clear both
 * (CLEAR); expect an action, or failure with a reason containing why.
 */
#define GAP	(1ULL << 63)
#define CLEAR	(1ULL << 62)

static void plan(const char *dir, const char *name, uint64_t arg, int action, const char *why)
{
	size_t len;
	unsigned char *img = load(dir, name, &len);
	bool gap = arg & GAP;
	uint64_t value = arg & CLEAR ? 0 : arg & ~GAP;
	struct edit_request req = {
		.set_stack = !gap || (arg & CLEAR), .set_gap = gap || (arg & CLEAR),
		.suid_stack = gap ? 0 : value, .stack_guard_gap = gap ? value : 0,
	};
	const char *what = arg & CLEAR ? "clear" : gap ? "guard gap" : "stack";
	struct edit e;
	bool got = edit_plan(img, len, &req, &e);
	const char *folder = strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir;
	char label[256];

	/* "i386/probe-n32", "x86_64/probe-n32", "bin/bad-..." (the corpus) */
	snprintf(label, sizeof(label), "%s/%s", folder, name);

	if (why) {
		ok(!got && strstr(e.why, why), "%s, %s %llu: refused: %s", label, what,
		   (unsigned long long)value, e.why);
	} else if (action == EDIT_IN_PLACE) {
		ok(got && e.action == EDIT_IN_PLACE && e.len == len &&
		   differing(img, e.image, len) <= 16 * POLICY_SITES_MAX &&
		   read_back(&e, gap) == value,
		   "%s, %s %llu: rewritten in place, reads back", label, what,
		   (unsigned long long)value);
	} else if (action == EDIT_ADD_NOTE) {
		ok(got && e.action == EDIT_ADD_NOTE && e.len > len &&
		   !memcmp(img + 64, e.image + 64, len - 64) && read_back(&e, gap) == value &&
		   read_back(&e, !gap) == 0,
		   "%s, %s %llu: note added with both properties, old bytes kept, reads back",
		   label, what, (unsigned long long)value);
	} else {
		ok(got && e.action == EDIT_UNCHANGED && !e.image, "%s, %s %llu: unchanged, no image",
		   label, what, (unsigned long long)value);
	}
	edit_free(&e);
	free(img);
}

/* Two policy notes that agree: both values are rewritten. */
static void test_two_sites(const char *corpus)
{
	size_t len;
	unsigned char *img = load(corpus, "bad-notes-agree", &len);
	struct edit e;
	struct elf_report r;

	elf_inspect_image(img, len, &r);
	ok(r.verdict == ELF_ANNOTATED && r.policy.stack_sites.n == 2, "notes-agree: two stack values found");
	ok(edit_plan(img, len, &(struct edit_request){ .set_stack = true, .suid_stack = 32ULL << 20 },
		     &e) && e.action == EDIT_IN_PLACE &&
	   differing(img, e.image, len) == 2 && read_back(&e, false) == 32ULL << 20,
	   "notes-agree: 16M -> 32M rewrites both values (one byte each differs)");
	edit_free(&e);
	free(img);
}

int main(int argc, char **argv)
{
	const char *build = argc > 1 ? argv[1] : "build";
	char bin[4096], bin64[4096], corpus[4096];

	snprintf(bin, sizeof(bin), "%s/guest-bin/i386", build);
	snprintf(bin64, sizeof(bin64), "%s/guest-bin/x86_64", build);
	snprintf(corpus, sizeof(corpus), "%s/generated/i386/bin", build);
	test_sizes();
	test_note_bytes();
	plan(bin, "probe-n32", 32ULL << 20, EDIT_UNCHANGED, NULL);
	plan(bin, "probe-n32", 48ULL << 20, EDIT_IN_PLACE, NULL);
	plan(bin, "probe-n32", CLEAR, EDIT_IN_PLACE, NULL);
	plan(bin, "probe-n0", CLEAR, EDIT_UNCHANGED, NULL);
	plan(bin, "probe", CLEAR, EDIT_UNCHANGED, NULL);
	plan(bin, "probe", GAP | 4096, EDIT_ADD_NOTE, NULL);
	plan(bin, "probe-n32", GAP | 4096, 0, "its policy note has no stack guard gap property");
	plan(bin, "probe-n32", GAP | 0, EDIT_UNCHANGED, NULL);
	plan(bin, "probe", 32ULL << 20, EDIT_ADD_NOTE, NULL);
	plan(bin, "probe-glibc", 32ULL << 20, EDIT_ADD_NOTE, NULL);
	plan(bin, "probe-glibc-dyn", 32ULL << 20, EDIT_ADD_NOTE, NULL);
	plan(bin, "probe", EDIT_MAX_STACK_32, EDIT_ADD_NOTE, NULL);
	plan(bin, "probe", EDIT_MAX_STACK_32 + 4096, 0, "2147487744 bytes is more than an ELF32 program can use");
	plan(bin, "probe-n32", EDIT_MAX_STACK_32 + 4096, 0, "2147487744 bytes is more than an ELF32 program can use");
	/* ELF64: the same plans, and no 2 GiB bound. */
	plan(bin64, "probe-n32", 32ULL << 20, EDIT_UNCHANGED, NULL);
	plan(bin64, "probe-n32", 48ULL << 20, EDIT_IN_PLACE, NULL);
	plan(bin64, "probe", 32ULL << 20, EDIT_ADD_NOTE, NULL);
	plan(bin64, "probe-glibc-dyn", 32ULL << 20, EDIT_ADD_NOTE, NULL);
	plan(bin64, "probe", EDIT_MAX_STACK_32 + 4096, EDIT_ADD_NOTE, NULL);
	plan(corpus, "bad-stack-twice", 32ULL << 20, 0, "malformed exec policy note");
	plan(corpus, "bad-unknown-prop-only", 32ULL << 20, 0, "its policy note has no stack property");
	plan(corpus, "bad-unknown-prop-only", CLEAR, EDIT_UNCHANGED, NULL);
	plan(corpus, "bad-trunc-header", 32ULL << 20, EDIT_ADD_NOTE, NULL);
	plan(corpus, "bad-past-eof-valid", 32ULL << 20, EDIT_IN_PLACE, NULL);
	test_two_sites(corpus);
	return failed;
}
