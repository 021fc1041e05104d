// SPDX-License-Identifier: GPL-2.0
/*
 * Two layouts, the first wherever it fits.  Both start on every kernel:
 * kernels before 5.18 set AT_PHDR to the first loadable segment's address
 * less its file offset, plus e_phoff, and glibc's static start-up looks
 * for the table at __ehdr_start + e_phoff, so the new table's address is
 * always the ELF header's address plus its offset (since 5.18 the kernel
 * maps e_phoff through the PT_LOAD that holds it, which agrees).
 *
 * In a page's tail (plan_in_gap()): the new program header table, the
 * undo record, the policy note and a copy of each old note go into the
 * zero bytes that follow a read-only loadable segment up to the end of
 * its page, which the linker left as padding and the kernel maps anyway;
 * that segment's sizes grow over them, and only one entry, the PT_NOTE,
 * is added.  The segment must keep the first one's distance between file
 * offset and address (the read-only and code segments of a -z
 * separate-code layout do), no section or segment may use those bytes,
 * and the extension may not reach a page another segment maps.  The file
 * grows only by the section headers, which are appended.
 *
 * Appended (plan_appended()), where no tail is long enough:
 *
 *   old file, untouched except the ELF header
 *   zero padding
 *   new program header table  \  one new PT_LOAD (read-only), mapped
 *   the undo record            |  above every other loadable segment
 *   the policy note            |
 *   a copy of each old note   /   (see "The old notes" below)
 *
 * With a loadable segment that maps the ELF header, the padding keeps the
 * new table at that header's address plus its offset, above the last
 * segment's .bss: the file grows by the .bss and up to a page more.
 *
 * After either: a new section name table and section header table, if
 * the file has section headers: two or three more sections describe what
 * was added, so that strip tools keep it.
 *
 * The undo record (ADDNOTE_UNDO_BYTES) holds what the ELF header said and
 * how long the file was, so that removenote() gives back the original
 * bytes exactly (zeroing a page tail that was used); .elfnote.phdrs covers
 * it with the table, so eu-strip keeps it.
 *
 * The old table stays where it was, unused: nothing can be moved inside
 * a linked program, since code refers to its addresses.  The new table
 * keeps every entry in its order, puts a new PT_LOAD after the last one
 * (PT_LOADs stay sorted by address) and the new PT_NOTE after the last
 * PT_NOTE; PT_PHDR, if any, describes the new table, which the kernel and
 * ld.so need (AT_PHDR, load bias).
 *
 * Why not elf_update(): libelf lays a file out from its sections, and in
 * this job most bytes that matter are not in any section (the tail of
 * each segment's page, all of a file without section headers) and the
 * rewrite must keep every one of them.  So libelf reads the headers and
 * converts them to the file's class and byte order (gelf_xlatetof), and
 * the bytes are placed here, at offsets computed below.
 *
 * The old notes: a patched kernel reads the program headers together with
 * the bytes after them, and parses a PT_NOTE that lies in those bytes
 * without a read of its own (docs/note-format.md).  The notes the linker
 * left near the old table (build-id, ABI tag, properties) would each
 * cost a read on every exec, so each PT_NOTE inside a loadable segment
 * gets a copy after the policy note.  Its entry, and any other entry
 * within it (PT_GNU_PROPERTY), move to the copy; the section .elfnote.notes
 * covers the copies so that strip keeps them.  The old sections and their
 * bytes stay where they were: symbols and code refer to their addresses
 * (glibc's __abi_tag).  Readers find the same bytes either way: those of
 * the file's sections the old ones, those of segments (the kernel, ld.so,
 * dl_iterate_phdr()) the copies.
 *
 * In the appended layout, a kernel must handle .bss per segment (upstream
 * 6.7, and Debian's 6.1.y, whose elf_load() does) for the .bss of the old
 * last segment to be mapped once the new segment follows it.
 */
#include "addnote.h"

#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "elffile.h"
#include "exec-policy-note.h"
#include "policy.h"

/* "ELFNOTE-UNDO", then six 64-bit fields in the file's byte order. */
static const char undo_magic[16] = "ELFNOTE-UNDO\0\0\0";
enum { UNDO_LEN, UNDO_PHOFF, UNDO_SHOFF, UNDO_PHNUM, UNDO_SHNUM, UNDO_SHSTRNDX, UNDO_FIELDS };

/* The kernel reads at most one page of program headers. */
#define PHDR_TABLE_MAX 4096

/* Zero padding the file may grow by (see above); beyond: stamp at link time. */
#define PAD_MAX (64 << 20)

/* The largest page size of the architectures Linux runs ELF files on. */
#define PAGE_MAX 65536

/* The most program headers the table can hold (ELF32's are the smallest). */
#define PHDRS_MAX (PHDR_TABLE_MAX / sizeof(Elf32_Phdr))

/* An old note's bytes, and where their copy goes (from phoff). */
struct note_copy {
	uint64_t from, size, to;
};

struct layout {
	Elf *elf;
	bool is64, be;
	GElf_Ehdr eh;
	size_t phnum, shnum, shstrndx;
	size_t phent, shent;
	uint64_t align;		/* of the new PT_LOAD */
	bool interp;		/* a PT_INTERP: ld.so finds the headers at AT_PHDR */
	bool in_gap;		/* the table sits in the tail of segment gap_seg */
	size_t gap_seg;
	size_t added_phdrs;	/* 1 (PT_NOTE) in a gap, 2 (PT_LOAD, PT_NOTE) appended */
	bool ehdr_mapped;	/* a PT_LOAD maps file offset 0 ... */
	uint64_t ehdr_vaddr;	/* ... at this address */
	uint64_t phoff, vaddr;	/* of the new table, file and memory */
	uint64_t note_off;	/* of the note, from phoff */
	struct note_copy copy[PHDRS_MAX];	/* of the old notes, in entry order */
	size_t copies;
	uint64_t copies_align;	/* the largest alignment among them */
	uint64_t load_size;	/* of the new PT_LOAD */
	size_t added;		/* sections: 2, or 3 with copies of old notes */
	uint64_t strtab_off, strtab_size, old_strtab_off, old_strtab_size;
	uint64_t shoff;
	size_t old_len, new_len;
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* Where user space ends for a 32-bit program: i386's 3 GiB split. */
static uint64_t user_top(const struct layout *l)
{
	return l->eh.e_machine == EM_386 ? 0xc0000000ULL : UINT32_MAX;
}

static const char names[] = EXEC_POLICY_NOTE_SECTION "\0" ELF_ADDED_PHDR_SECTION "\0"
	ELF_ADDED_NOTES_SECTION;

/* The highest end of a loadable segment, and the largest alignment. */
static const char *scan_loads(struct layout *l, size_t len, uint64_t *end)
{
	*end = 0;
	l->align = 4096;
	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(l->elf, (int)i, &ph))
			return "unreadable program header";
		/* What is appended must not become part of an old segment. */
		if (ph.p_offset > len || ph.p_filesz > len - ph.p_offset)
			return "a segment extends past the end of the file";
		if (ph.p_type == PT_INTERP)
			l->interp = true;
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_offset == 0 && ph.p_filesz) {
			l->ehdr_mapped = true;
			l->ehdr_vaddr = ph.p_vaddr;
		}
		if (ph.p_vaddr + ph.p_memsz < ph.p_vaddr)
			return "a loadable segment wraps around the address space";
		if (ph.p_vaddr + ph.p_memsz > *end)
			*end = ph.p_vaddr + ph.p_memsz;
		if (ph.p_align > l->align) {
			if (ph.p_align & (ph.p_align - 1))
				return "a loadable segment's alignment is not a power of two";
			l->align = ph.p_align;
		}
	}
	return NULL;
}

/* Whether note is a PT_NOTE that a PT_LOAD maps (a note the program loads). */
static bool mapped_note(const struct layout *l, const GElf_Phdr *note)
{
	if (note->p_type != PT_NOTE || !note->p_filesz)
		return false;
	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(l->elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    note->p_offset >= ph.p_offset &&
		    note->p_offset + note->p_filesz <= ph.p_offset + ph.p_filesz)
			return true;
	}
	return false;
}

/*
 * Places a copy of each mapped old note from offset at (from phoff), in
 * the order of their entries; returns where the copies end.
 */
static uint64_t plan_copies(struct layout *l, uint64_t at)
{
	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr ph;
		uint64_t a;

		if (!gelf_getphdr(l->elf, (int)i, &ph) || !mapped_note(l, &ph))
			continue;
		/* Notes are 4- or 8-aligned; a copy keeps the old alignment. */
		a = ph.p_align < 4 ? 4 : ph.p_align;
		if (a > 8 || (a & (a - 1)) || ph.p_offset % a)
			continue;
		at = align_up(at, a);
		l->copy[l->copies++] = (struct note_copy){ ph.p_offset, ph.p_filesz, at };
		if (a > l->copies_align)
			l->copies_align = a;
		at += ph.p_filesz;
	}
	return at;
}

/*
 * Where [off, off + size) of the old file goes: into the copy of the old
 * note that holds all of it, *moved to its offset there (from phoff);
 * false if no copied note holds it.
 */
static bool moves(const struct layout *l, uint64_t off, uint64_t size, uint64_t *moved)
{
	for (size_t i = 0; size && i < l->copies; i++) {
		const struct note_copy *c = &l->copy[i];

		if (off >= c->from && size <= c->size && off - c->from <= c->size - size) {
			*moved = c->to + (off - c->from);
			return true;
		}
	}
	return false;
}

static bool all_zero(const unsigned char *image, uint64_t from, uint64_t to)
{
	for (uint64_t k = from; k < to; k++)
		if (image[k])
			return false;
	return true;
}

/* Whether [off, off + size) of the file meets a section's or a segment's bytes. */
static bool file_range_used(const struct layout *l, uint64_t off, uint64_t size)
{
	size_t shnum = 0;

	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(l->elf, (int)i, &ph) && ph.p_filesz &&
		    ph.p_offset < off + size && off < ph.p_offset + ph.p_filesz)
			return true;
	}
	if (elf_getshdrnum(l->elf, &shnum))
		return true;
	for (size_t i = 1; i < shnum; i++) {
		GElf_Shdr sh;

		if (!gelf_getshdr(elf_getscn(l->elf, i), &sh))
			return true;
		if (sh.sh_type != SHT_NOBITS && sh.sh_size &&
		    sh.sh_offset < off + size && off < sh.sh_offset + sh.sh_size)
			return true;
	}
	return l->eh.e_shoff && l->eh.e_shoff < off + size &&
	       off < l->eh.e_shoff + (uint64_t)shnum * gelf_fsize(l->elf, ELF_T_SHDR, 1, EV_CURRENT);
}

/*
 * Whether segment s, extended to vend in memory, would share a page (of
 * s's alignment) with another loadable segment above it.
 */
static bool meets_next_segment(const struct layout *l, const GElf_Phdr *s, uint64_t vend)
{
	uint64_t page = s->p_align > 4096 ? s->p_align : 4096;

	if (page > PAGE_MAX)
		page = PAGE_MAX;
	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr t;

		if (!gelf_getphdr(l->elf, (int)i, &t) || t.p_type != PT_LOAD ||
		    t.p_vaddr <= s->p_vaddr)
			continue;
		if ((t.p_vaddr & ~(page - 1)) < align_up(vend, page))
			return true;
	}
	return false;
}

/*
 * The layout every kernel runs, at no cost in the file: the new table,
 * the undo record, the note and the copies in the zero bytes that follow
 * a read-only loadable segment up to its page's end, which the kernel
 * maps anyway, the segment's sizes extended over them.  Kernels before
 * 5.18 set AT_PHDR to the first loadable segment's address less its
 * offset, plus e_phoff: right here when the segment keeps the first
 * one's distance between file offset and address, as the segments a
 * linker lays out with -z separate-code before the writable one do.
 * Those tails are linker padding: only zero bytes no section or segment
 * uses qualify, and the extension must not reach a page another segment
 * maps.  Read-only segments are tried before executable ones.
 */
static bool plan_in_gap(struct layout *l, const unsigned char *image, size_t len, uint64_t size)
{
	GElf_Phdr first = { 0 }, s;
	bool seen = false;

	for (size_t i = 0; i < l->phnum && !seen; i++)
		seen = gelf_getphdr(l->elf, (int)i, &first) && first.p_type == PT_LOAD;
	for (int pass = 0; seen && pass < 2; pass++) {
		for (size_t i = 0; i < l->phnum; i++) {
			uint64_t end, at, vat;

			if (!gelf_getphdr(l->elf, (int)i, &s) || s.p_type != PT_LOAD ||
			    !(s.p_flags & PF_R) || (s.p_flags & PF_W) ||
			    (pass == 0 && (s.p_flags & PF_X)) || s.p_filesz != s.p_memsz ||
			    s.p_vaddr - s.p_offset != first.p_vaddr - first.p_offset)
				continue;
			end = s.p_offset + s.p_filesz;
			at = align_up(end, 8);
			vat = s.p_vaddr + (at - s.p_offset);
			if (at < end || at > len || size > len - at || file_range_used(l, end, at + size - end) ||
			    meets_next_segment(l, &s, vat + size) || !all_zero(image, end, at + size))
				continue;
			l->in_gap = true;
			l->gap_seg = i;
			l->phoff = at;
			l->vaddr = vat;
			return true;
		}
	}
	return false;
}

static const char *plan_sections(struct layout *l, size_t len, uint64_t chunk_end)
{
	GElf_Shdr sh;

	if (elf_getshdrnum(l->elf, &l->shnum) || elf_getshdrstrndx(l->elf, &l->shstrndx))
		return "unreadable section headers";
	if (l->shnum == 0)
		return l->eh.e_shoff ? "a section header offset but no section headers" : NULL;
	if (l->shnum != l->eh.e_shnum || l->shstrndx != l->eh.e_shstrndx ||
	    l->shstrndx == SHN_UNDEF)
		return "extended section numbering or no section name table (not supported)";
	l->added = l->copies ? 3 : 2;
	if (l->shnum + l->added >= SHN_LORESERVE)
		return "too many sections to add elfnote's";
	if (!gelf_getshdr(elf_getscn(l->elf, l->shstrndx), &sh) || sh.sh_type != SHT_STRTAB ||
	    sh.sh_offset > len || sh.sh_size > len - sh.sh_offset)
		return "the section name table is damaged";
	if (sh.sh_flags & SHF_ALLOC)
		return "the section name table is loaded in memory (not supported)";
	l->shent = gelf_fsize(l->elf, ELF_T_SHDR, 1, EV_CURRENT);
	l->old_strtab_off = sh.sh_offset;
	l->old_strtab_size = sh.sh_size;
	l->strtab_off = chunk_end;
	l->strtab_size = sh.sh_size + sizeof(names);
	l->shoff = align_up(l->strtab_off + l->strtab_size, l->is64 ? 8 : 4);
	l->new_len = l->shoff + (l->shnum + l->added) * l->shent;
	return NULL;
}

/* The chunk: table, undo record, note and copies; its size. */
static uint64_t plan_chunk(struct layout *l)
{
	l->note_off = (l->phnum + l->added_phdrs) * l->phent + ADDNOTE_UNDO_BYTES;
	l->copies = 0;
	l->copies_align = 0;
	return plan_copies(l, l->note_off + POLICY_NOTE_BYTES);
}

/* The appended layout: a new PT_LOAD above every other segment. */
static const char *plan_appended(struct layout *l, size_t len, uint64_t end)
{
	/* Hostile sizes must not wrap around: then there is no room. */
	if (l->align > (1ULL << 32) || align_up(end, l->align) < end ||
	    align_up(end, l->align) > UINT64_MAX / 2)
		return "no room above the last loadable segment";
	l->phoff = align_up(len, 8);
	/* Pages of any size up to 64 KiB stay apart from the last segment's. */
	if (l->align > PAGE_MAX)
		l->align = PAGE_MAX;
	if (l->ehdr_mapped) {
		if (l->ehdr_vaddr % l->align)
			return "the ELF header's segment is not page-aligned (not supported)";
		if (align_up(end, l->align) - l->ehdr_vaddr > l->phoff)
			l->phoff = align_up(end, l->align) - l->ehdr_vaddr;
		if (l->phoff - len > PAD_MAX)
			return "the file would grow by more than 64 MiB of padding (stamp it at link time)";
		l->vaddr = l->ehdr_vaddr + l->phoff;
	} else {
		/* p_vaddr and p_offset must agree modulo the alignment. */
		l->vaddr = align_up(end, l->align) + l->phoff % l->align;
	}
	l->new_len = l->phoff + l->load_size;
	return NULL;
}

static const char *plan(struct layout *l, const unsigned char *image, size_t len)
{
	uint64_t end;
	const char *why;

	if (!gelf_getehdr(l->elf, &l->eh) || elf_getphdrnum(l->elf, &l->phnum))
		return "damaged ELF header";
	if (l->eh.e_phnum == PN_XNUM)
		return "extended program header numbering (not supported)";
	why = scan_loads(l, len, &end);
	if (why)
		return why;
	if (!end)
		return "no loadable segment";
	l->phent = gelf_fsize(l->elf, ELF_T_PHDR, 1, EV_CURRENT);
	l->added_phdrs = 1;
	l->load_size = plan_chunk(l);
	if (!plan_in_gap(l, image, len, l->load_size)) {
		l->added_phdrs = 2;
		l->load_size = plan_chunk(l);
		why = plan_appended(l, len, end);
		if (why)
			return why;
	} else {
		l->new_len = len;
	}
	if ((l->phnum + l->added_phdrs) * l->phent > PHDR_TABLE_MAX)
		return "no room for more program headers within one page";
	why = plan_sections(l, len, l->in_gap ? align_up(len, 8) : l->new_len);
	if (why)
		return why;
	if (!l->is64 && (l->vaddr + l->load_size > user_top(l) ||
			 l->new_len > UINT32_MAX))
		return "no room in a 32-bit address space or file";
	return NULL;
}

/* The new program header table, in the host's GElf form. */
static GElf_Phdr *new_phdrs(const struct layout *l)
{
	const uint64_t table = (l->phnum + l->added_phdrs) * l->phent;
	GElf_Phdr *out = calloc(l->phnum + l->added_phdrs, sizeof(*out));
	GElf_Phdr load = {
		.p_type = PT_LOAD, .p_flags = PF_R, .p_offset = l->phoff,
		.p_vaddr = l->vaddr, .p_paddr = l->vaddr, .p_align = l->align,
		.p_filesz = l->load_size, .p_memsz = l->load_size,
	};
	GElf_Phdr note = {
		.p_type = PT_NOTE, .p_flags = PF_R, .p_offset = l->phoff + l->note_off,
		.p_vaddr = l->vaddr + l->note_off, .p_paddr = l->vaddr + l->note_off,
		.p_filesz = POLICY_NOTE_BYTES, .p_memsz = POLICY_NOTE_BYTES,
		.p_align = EXEC_POLICY_NOTE_ALIGN,
	};
	size_t last_load = 0, last_note = 0, n = 0;
	uint64_t moved;

	if (!out)
		return NULL;
	for (size_t i = 0; i < l->phnum; i++) {
		GElf_Phdr ph;

		gelf_getphdr(l->elf, (int)i, &ph);
		if (ph.p_type == PT_LOAD)
			last_load = i + 1;
		if (ph.p_type == PT_NOTE)
			last_note = i + 1;
	}
	if (!last_note || last_note < last_load)
		last_note = last_load;
	for (size_t i = 0; i <= l->phnum; i++) {
		if (i == last_load && !l->in_gap)
			out[n++] = load;
		if (i == last_note)
			out[n++] = note;
		if (i == l->phnum)
			break;
		gelf_getphdr(l->elf, (int)i, &out[n]);
		if (l->in_gap && i == l->gap_seg) {
			out[n].p_filesz = l->phoff + l->load_size - out[n].p_offset;
			out[n].p_memsz = out[n].p_filesz;
		} else if (out[n].p_type == PT_PHDR) {
			out[n].p_offset = l->phoff;
			out[n].p_vaddr = out[n].p_paddr = l->vaddr;
			out[n].p_filesz = out[n].p_memsz = table;
		} else if (out[n].p_type != PT_LOAD &&
			   moves(l, out[n].p_offset, out[n].p_filesz, &moved)) {
			out[n].p_offset = l->phoff + moved;
			out[n].p_vaddr = out[n].p_paddr = l->vaddr + moved;
		}
		n++;
	}
	return out;
}

/* The section header table: the old one, the name table moved, 2 or 3 more. */
static GElf_Shdr *new_shdrs(const struct layout *l)
{
	GElf_Shdr *out = calloc(l->shnum + l->added, sizeof(*out));
	const uint64_t table = (l->phnum + l->added_phdrs) * l->phent;

	if (!out)
		return NULL;
	for (size_t i = 0; i < l->shnum; i++)
		gelf_getshdr(elf_getscn(l->elf, i), &out[i]);
	out[l->shstrndx].sh_offset = l->strtab_off;
	out[l->shstrndx].sh_size = l->strtab_size;
	out[l->shnum] = (GElf_Shdr){
		.sh_name = (GElf_Word)l->old_strtab_size, .sh_type = SHT_NOTE,
		.sh_flags = SHF_ALLOC, .sh_addr = l->vaddr + l->note_off,
		.sh_offset = l->phoff + l->note_off, .sh_size = POLICY_NOTE_BYTES,
		.sh_addralign = EXEC_POLICY_NOTE_ALIGN,
	};
	out[l->shnum + 1] = (GElf_Shdr){
		.sh_name = (GElf_Word)(l->old_strtab_size + sizeof(EXEC_POLICY_NOTE_SECTION)),
		.sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC, .sh_addr = l->vaddr,
		.sh_offset = l->phoff, .sh_size = table + ADDNOTE_UNDO_BYTES,
		.sh_addralign = l->is64 ? 8 : 4,
	};
	if (l->added > 2)
		out[l->shnum + 2] = (GElf_Shdr){
			.sh_name = (GElf_Word)(l->old_strtab_size + sizeof(EXEC_POLICY_NOTE_SECTION) +
					       sizeof(ELF_ADDED_PHDR_SECTION)),
			.sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC,
			.sh_addr = l->vaddr + l->copy[0].to, .sh_offset = l->phoff + l->copy[0].to,
			.sh_size = l->load_size - l->copy[0].to, .sh_addralign = l->copies_align,
		};
	return out;
}

/*
 * Converts n host records of a type to the file's form at out.  For
 * ELF32, GElf's 64-bit records are narrowed first (plan() made sure that
 * every value fits).
 */
static bool encode(const struct layout *l, Elf_Type type, const void *recs, size_t n,
		   unsigned char *out)
{
	size_t fsize = gelf_fsize(l->elf, type, n, EV_CURRENT);
	Elf_Data src = { .d_type = type, .d_version = EV_CURRENT };
	Elf_Data dst = { .d_buf = out, .d_size = fsize, .d_version = EV_CURRENT };
	void *narrow = NULL;
	bool ok;

	src.d_buf = (void *)recs;
	src.d_size = n * (type == ELF_T_PHDR ? sizeof(GElf_Phdr) :
			  type == ELF_T_SHDR ? sizeof(GElf_Shdr) : sizeof(GElf_Ehdr));
	if (!l->is64) {
		/* Room for n of the largest 32-bit record, the header. */
		_Static_assert(sizeof(Elf32_Ehdr) >= sizeof(Elf32_Shdr) &&
			       sizeof(Elf32_Ehdr) >= sizeof(Elf32_Phdr), "record sizes");
		narrow = calloc(n, sizeof(Elf32_Ehdr));
		if (!narrow)
			return false;
		src.d_size = 0;
		for (size_t i = 0; i < n; i++) {
			if (type == ELF_T_PHDR) {
				const GElf_Phdr *p = (const GElf_Phdr *)recs + i;
				Elf32_Phdr *q = (Elf32_Phdr *)narrow + i;

				*q = (Elf32_Phdr){ p->p_type, (Elf32_Off)p->p_offset,
					(Elf32_Addr)p->p_vaddr, (Elf32_Addr)p->p_paddr,
					(Elf32_Word)p->p_filesz, (Elf32_Word)p->p_memsz,
					p->p_flags, (Elf32_Word)p->p_align };
				src.d_size += sizeof(*q);
			} else if (type == ELF_T_SHDR) {
				const GElf_Shdr *s = (const GElf_Shdr *)recs + i;
				Elf32_Shdr *q = (Elf32_Shdr *)narrow + i;

				*q = (Elf32_Shdr){ s->sh_name, s->sh_type, (Elf32_Word)s->sh_flags,
					(Elf32_Addr)s->sh_addr, (Elf32_Off)s->sh_offset,
					(Elf32_Word)s->sh_size, s->sh_link, s->sh_info,
					(Elf32_Word)s->sh_addralign, (Elf32_Word)s->sh_entsize };
				src.d_size += sizeof(*q);
			} else {
				const GElf_Ehdr *e = recs;
				Elf32_Ehdr *q = narrow;

				memcpy(q->e_ident, e->e_ident, EI_NIDENT);
				q->e_type = e->e_type;
				q->e_machine = e->e_machine;
				q->e_version = e->e_version;
				q->e_entry = (Elf32_Addr)e->e_entry;
				q->e_phoff = (Elf32_Off)e->e_phoff;
				q->e_shoff = (Elf32_Off)e->e_shoff;
				q->e_flags = e->e_flags;
				q->e_ehsize = e->e_ehsize;
				q->e_phentsize = e->e_phentsize;
				q->e_phnum = e->e_phnum;
				q->e_shentsize = e->e_shentsize;
				q->e_shnum = e->e_shnum;
				q->e_shstrndx = e->e_shstrndx;
				src.d_size += sizeof(*q);
			}
		}
		src.d_buf = narrow;
	}
	ok = gelf_xlatetof(l->elf, &dst, &src, l->be ? ELFDATA2MSB : ELFDATA2LSB) != NULL;
	free(narrow);
	return ok;
}

/* What the ELF header said and the file's length, before the edit. */
static void write_undo(const struct layout *l, unsigned char *at)
{
	const uint64_t field[UNDO_FIELDS] = {
		[UNDO_LEN] = l->old_len, [UNDO_PHOFF] = l->eh.e_phoff, [UNDO_SHOFF] = l->eh.e_shoff,
		[UNDO_PHNUM] = l->eh.e_phnum, [UNDO_SHNUM] = l->eh.e_shnum,
		[UNDO_SHSTRNDX] = l->eh.e_shstrndx,
	};

	memcpy(at, undo_magic, sizeof(undo_magic));
	for (int i = 0; i < UNDO_FIELDS; i++)
		policy_put64(at + sizeof(undo_magic) + 8 * i, field[i], l->be);
}

/* The old notes' bytes, from the old file in out to their copies. */
static void copy_notes(const struct layout *l, unsigned char *out)
{
	for (size_t i = 0; i < l->copies; i++)
		memcpy(out + l->phoff + l->copy[i].to, out + l->copy[i].from, l->copy[i].size);
}

static bool write_image(struct layout *l, unsigned char *out, uint64_t stack, uint64_t gap)
{
	GElf_Phdr *ph = new_phdrs(l);
	GElf_Shdr *sh = l->shnum ? new_shdrs(l) : NULL;
	bool ok = ph && (sh || !l->shnum);

	/* First, while out still holds the old header: it may share the name table. */
	if (l->shnum) {
		memcpy(out + l->strtab_off, out + l->old_strtab_off, l->old_strtab_size);
		memcpy(out + l->strtab_off + l->old_strtab_size, names, sizeof(names));
	}
	write_undo(l, out + l->phoff + (l->phnum + l->added_phdrs) * l->phent);
	copy_notes(l, out);
	l->eh.e_phoff = l->phoff;
	l->eh.e_phnum = (GElf_Half)(l->phnum + l->added_phdrs);
	if (l->shnum) {
		l->eh.e_shoff = l->shoff;
		l->eh.e_shnum = (GElf_Half)(l->shnum + l->added);
	}
	ok = ok && encode(l, ELF_T_EHDR, &l->eh, 1, out) &&
	     encode(l, ELF_T_PHDR, ph, l->phnum + l->added_phdrs, out + l->phoff);
	policy_encode_note(out + l->phoff + l->note_off, stack, gap, l->be);
	if (ok && l->shnum)
		ok = encode(l, ELF_T_SHDR, sh, l->shnum + l->added, out + l->shoff);
	free(ph);
	free(sh);
	return ok;
}

/* libelf over image, its class and byte order in l; false if not ELF. */
static bool layout_open(struct layout *l, unsigned char *image, size_t len)
{
	elf_version(EV_CURRENT);
	l->elf = elf_memory((char *)image, len);
	if (!l->elf)
		return false;
	l->is64 = gelf_getclass(l->elf) == ELFCLASS64;
	l->be = elf_getident(l->elf, NULL)[EI_DATA] == ELFDATA2MSB;
	return true;
}

unsigned char *addnote(unsigned char *image, size_t len, uint64_t suid_stack,
		       uint64_t stack_guard_gap, size_t *new_len, const char **why)
{
	struct layout l = { 0 };
	unsigned char *out = NULL;

	if (!layout_open(&l, image, len)) {
		*why = "not an ELF file";
		return NULL;
	}
	l.old_len = len;
	*why = plan(&l, image, len);
	if (!*why && l.new_len > SIZE_MAX - 1)
		*why = "too large";
	if (!*why) {
		out = calloc(1, l.new_len);
		if (!out)
			*why = "out of memory";
	}
	if (out) {
		memcpy(out, image, len);
		if (!write_image(&l, out, suid_stack, stack_guard_gap)) {
			*why = "could not encode the new headers";
			free(out);
			out = NULL;
		}
	}
	*new_len = l.new_len;
	elf_end(l.elf);
	return out;
}

/* Whether addnote() makes exactly image of orig with these requests. */
static bool gives(unsigned char *orig, size_t orig_len, uint64_t suid_stack, uint64_t stack_guard_gap,
		  const unsigned char *image, size_t len)
{
	size_t made_len = 0;
	const char *why;
	unsigned char *made = addnote(orig, orig_len, suid_stack, stack_guard_gap, &made_len, &why);
	bool same = made && made_len == len && !memcmp(made, image, len);

	free(made);
	return same;
}

/*
 * Where the bytes set wrote inside the old file end (the gap layout): the
 * end of the loadable segment that holds the table, or phoff itself when
 * the table lies past the old file's end.
 */
static uint64_t gap_chunk_end(Elf *elf, uint64_t phoff, uint64_t old_len)
{
	size_t phnum = 0;

	if (phoff >= old_len || elf_getphdrnum(elf, &phnum))
		return phoff;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && ph.p_offset <= phoff &&
		    phoff - ph.p_offset < ph.p_filesz && ph.p_offset + ph.p_filesz <= old_len)
			return ph.p_offset + ph.p_filesz;
	}
	return phoff;
}

/* The undo record of a file elfnote set added a note to, or NULL. */
static const unsigned char *find_undo(Elf *elf, const unsigned char *image, size_t len)
{
	GElf_Ehdr eh;
	size_t phent = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);
	uint64_t at;

	if (!gelf_getehdr(elf, &eh) || eh.e_phnum == PN_XNUM)
		return NULL;
	at = eh.e_phoff + (uint64_t)eh.e_phnum * phent;
	if (at < eh.e_phoff || at > len || len - at < ADDNOTE_UNDO_BYTES ||
	    memcmp(image + at, undo_magic, sizeof(undo_magic)))
		return NULL;
	return image + at;
}

unsigned char *removenote(unsigned char *image, size_t len, uint64_t suid_stack,
			  uint64_t stack_guard_gap, size_t *new_len, const char **why)
{
	struct layout l = { 0 };
	const unsigned char *undo;
	uint64_t field[UNDO_FIELDS];
	unsigned char *out = NULL;

	if (!layout_open(&l, image, len)) {
		*why = "not an ELF file";
		return NULL;
	}
	undo = find_undo(l.elf, image, len);
	*why = undo ? NULL : "no undo record where elfnote set puts one: the note was linked in, "
		      "added by an older elfnote, or the file was stripped or edited since";
	for (int i = 0; undo && i < UNDO_FIELDS; i++)
		field[i] = policy_get64(undo + sizeof(undo_magic) + 8 * i, l.be);
	if (undo && (field[UNDO_LEN] >= len || field[UNDO_PHNUM] > 0xffff ||
		     field[UNDO_SHNUM] > 0xffff || field[UNDO_SHSTRNDX] > 0xffff))
		*why = "its undo record is damaged";
	if (!*why && !gelf_getehdr(l.elf, &l.eh))
		*why = "damaged ELF header";
	if (!*why && !(out = malloc(field[UNDO_LEN] ? field[UNDO_LEN] : 1)))
		*why = "out of memory";
	if (!*why) {
		uint64_t chunk_end = gap_chunk_end(l.elf, l.eh.e_phoff, field[UNDO_LEN]);

		memcpy(out, image, field[UNDO_LEN]);
		/* The gap layout wrote into linker padding, which was zero. */
		if (chunk_end > l.eh.e_phoff)
			memset(out + l.eh.e_phoff, 0, chunk_end - l.eh.e_phoff);
		l.eh.e_phoff = field[UNDO_PHOFF];
		l.eh.e_shoff = field[UNDO_SHOFF];
		l.eh.e_phnum = (GElf_Half)field[UNDO_PHNUM];
		l.eh.e_shnum = (GElf_Half)field[UNDO_SHNUM];
		l.eh.e_shstrndx = (GElf_Half)field[UNDO_SHSTRNDX];
		if (!encode(&l, ELF_T_EHDR, &l.eh, 1, out))
			*why = "could not encode the ELF header";
	}
	/* Exactly this file again from what is given back, or nothing. */
	if (!*why && !gives(out, field[UNDO_LEN], suid_stack, stack_guard_gap, image, len))
		*why = "changed since elfnote set added its note (stripped, edited, or stamped by an older elfnote?): "
		       "the original cannot be given back exactly";
	elf_end(l.elf);
	if (*why) {
		free(out);
		return NULL;
	}
	*new_len = field[UNDO_LEN];
	return out;
}
