// SPDX-License-Identifier: GPL-2.0
#include "elffile.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The kernel refuses program header tables larger than this (x86 page). */
#define PHDR_TABLE_MAX 4096

static void refuse(struct elf_report *r, enum elf_verdict v, const char *why)
{
	r->verdict = v;
	snprintf(r->reason, sizeof(r->reason), "%s", why);
}

/* The ELF header checks load_elf_binary() makes, as one-line reasons. */
static const char *check_header(Elf *elf, const GElf_Ehdr *eh, size_t phnum, off_t size)
{
	size_t entsize = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);

	switch (eh->e_type) {
	case ET_EXEC:
	case ET_DYN:
		break;
	case ET_REL: return "a relocatable object, not an executable";
	case ET_CORE: return "a core file, not an executable";
	default: return "not an executable (unknown ELF type)";
	}
	if (phnum == 0)
		return "no program headers";
	if (eh->e_phentsize != entsize)
		return "program header entry size is wrong for its class";
	if (phnum * entsize > PHDR_TABLE_MAX)
		return "program header table is larger than one page";
	if (eh->e_phoff > (uint64_t)size || phnum * entsize > (uint64_t)size - eh->e_phoff)
		return "program header table lies outside the file";
	return NULL;
}

/* Loadable segments may not overlap in memory (the loader maps them in order). */
static const char *check_segments(Elf *elf, size_t phnum)
{
	uint64_t prev_end = 0;
	bool first = true;

	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			return "unreadable program header";
		if (ph.p_type != PT_LOAD)
			continue;
		if (ph.p_memsz < ph.p_filesz)
			return "a loadable segment is smaller in memory than in the file";
		if (!first && ph.p_vaddr < prev_end)
			return "loadable segments overlap or are out of order";
		prev_end = ph.p_vaddr + ph.p_memsz;
		first = false;
	}
	return NULL;
}

/*
 * The kernel logs nothing when a policy note lies past its bounds (any
 * user could fill the log so), so this is where a packager learns it.
 */
#define OUT_OF_REACH "a policy note lies past what the kernel reads (the first 1 KiB and 64 notes " \
	"of each of the first 16 PT_NOTE segments): not seen"

/* Segments larger than this are not searched: no linker makes one. */
#define NOTE_SEARCH_MAX (1 << 20)

/* Whether some PT_NOTE segment holds a policy note anywhere in the file. */
static bool note_out_of_reach(Elf *elf, size_t phnum, off_t size, bool be)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		size_t have;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE ||
		    ph.p_offset >= (uint64_t)size)
			continue;
		have = (uint64_t)size - ph.p_offset < ph.p_filesz ? (size_t)(size - (off_t)ph.p_offset)
								   : (size_t)ph.p_filesz;
		if (have > NOTE_SEARCH_MAX)
			have = NOTE_SEARCH_MAX;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, have, ELF_T_BYTE);
		if (d && policy_note_present(d->d_buf, have, ph.p_align == 8 ? 8 : 4, be))
			return true;
	}
	return false;
}

static void read_notes(Elf *elf, size_t phnum, off_t size, bool be, struct elf_report *r)
{
	size_t segments = 0;

	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		size_t want, have;
		Elf_Data *d;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
			continue;
		/* Like the kernel: 16 segments; what lies past the end is not read. */
		if (segments++ >= POLICY_SEGMENTS_MAX) {
			r->policy.unread = true;
			break;
		}
		if (!ph.p_filesz || ph.p_offset >= (uint64_t)size)
			continue;
		want = ph.p_filesz < POLICY_READ_MAX ? (size_t)ph.p_filesz : POLICY_READ_MAX;
		r->policy.unread |= ph.p_filesz > POLICY_READ_MAX;
		have = (uint64_t)size - ph.p_offset < want ? (size_t)(size - (off_t)ph.p_offset) : want;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, have, ELF_T_BYTE);
		r->policy.base = ph.p_offset;
		if (!d) {
			refuse(r, ELF_IO_ERROR, elf_errmsg(-1));
			return;
		}
		if (!policy_walk_segment(d->d_buf, have, ph.p_align == 8 ? 8 : 4,
					 have == ph.p_filesz, be, &r->policy))
			break;
	}
	if (r->policy.malformed)
		r->verdict = ELF_MALFORMED;
	else
		r->verdict = r->policy.found ? ELF_ANNOTATED : ELF_NO_NOTE;
	/* Searched only where the bounds stopped the walk: nearly no file. */
	if (r->verdict == ELF_NO_NOTE && !r->policy.problem && r->policy.unread &&
	    note_out_of_reach(elf, phnum, size, be))
		r->policy.problem = OUT_OF_REACH;
}

/*
 * A file cut short (a partial copy or download) reads, through libelf, as
 * a smaller but plausible program: libelf counts only the program headers
 * that fit, and a note past the end is simply not there.  Said as what it
 * is, with the numbers, before any other verdict.
 */
static bool truncated_table(Elf *elf, const GElf_Ehdr *eh, size_t phnum, off_t size,
			    struct elf_report *r)
{
	size_t entsize = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);
	uint64_t end = eh->e_phoff + (uint64_t)eh->e_phnum * entsize;

	if (eh->e_phnum == PN_XNUM || phnum >= eh->e_phnum || eh->e_phentsize != entsize ||
	    end <= (uint64_t)size)
		return false;
	r->verdict = ELF_NOT_EXECUTABLE;
	snprintf(r->reason, sizeof(r->reason),
		 "truncated: its %u program headers end at byte %llu, the file has %lld bytes",
		 eh->e_phnum, (unsigned long long)end, (long long)size);
	return true;
}

/*
 * The kernel maps a loadable segment whatever the file's length, and the
 * program dies of SIGBUS when it touches a page past the end; the
 * interpreter's name it reads and fails the exec.  Notes past the end are
 * the note reader's business (read_notes(), like the kernel's).
 */
static bool truncated_segment(Elf *elf, size_t phnum, off_t size, struct elf_report *r)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		uint64_t end;

		if (!gelf_getphdr(elf, (int)i, &ph) || (ph.p_type != PT_LOAD && ph.p_type != PT_INTERP))
			continue;
		end = ph.p_offset + ph.p_filesz;
		if (end < ph.p_offset || end <= (uint64_t)size)
			continue;
		r->verdict = ELF_NOT_EXECUTABLE;
		snprintf(r->reason, sizeof(r->reason),
			 "truncated: program header %zu (%s) ends at byte %llu, the file has %lld bytes",
			 i, ph.p_type == PT_LOAD ? "PT_LOAD" : "PT_INTERP",
			 (unsigned long long)end, (long long)size);
		return true;
	}
	return false;
}

/*
 * Fewer bytes than an ELF header, but the magic: libelf sees no ELF at
 * all; say how much is missing.  head: the file's first bytes, size its
 * length.
 */
static bool truncated_header(const unsigned char *head, off_t size, struct elf_report *r)
{
	size_t need;

	if (!r->has_elf_magic)
		return false;
	if (size <= EI_CLASS) {
		refuse(r, ELF_NOT_EXECUTABLE,
		       "truncated: less than an ELF header (52 bytes for ELF32, 64 for ELF64)");
		return true;
	}
	need = head[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	if ((size_t)size >= need)
		return false;
	r->verdict = ELF_NOT_EXECUTABLE;
	snprintf(r->reason, sizeof(r->reason), "truncated: %lld bytes, less than the %zu-byte ELF%d header",
		 (long long)size, need, need == sizeof(Elf64_Ehdr) ? 64 : 32);
	return true;
}

/*
 * What an ET_DYN file is: a PIE when it names an interpreter or, linked
 * static-pie, carries DF_1_PIE in its dynamic section; a shared object
 * otherwise.  Read as the loader sees it, through the program headers.
 */
static const char *dyn_type(Elf *elf, size_t phnum, off_t size)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		Elf_Data *d;
		GElf_Dyn dyn;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_INTERP)
			return "pie";
		if (ph.p_type != PT_DYNAMIC || ph.p_offset >= (uint64_t)size)
			continue;
		d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
					 (size_t)(ph.p_filesz < (uint64_t)size - ph.p_offset ?
						  ph.p_filesz : (uint64_t)size - ph.p_offset), ELF_T_DYN);
		for (int j = 0; d && gelf_getdyn(d, j, &dyn) && dyn.d_tag != DT_NULL; j++)
			if (dyn.d_tag == DT_FLAGS_1 && (dyn.d_un.d_val & DF_1_PIE))
				return "pie";
	}
	return "shared-object";
}

/* A section elfnote set adds with a note after linking (elffile.h). */
static bool stamped_after_link(Elf *elf)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ELF_ADDED_PHDR_SECTION))
			return true;
	}
	return false;
}

#ifndef PT_GNU_PROPERTY
#define PT_GNU_PROPERTY 0x6474e553
#endif

static const char *segment_name(uint32_t type)
{
	switch (type) {
	case PT_NOTE: return "PT_NOTE";
	case PT_GNU_PROPERTY: return "PT_GNU_PROPERTY";
	case PT_PHDR: return "PT_PHDR";
	case PT_INTERP: return "PT_INTERP";
	case PT_DYNAMIC: return "PT_DYNAMIC";
	default: return NULL;
	}
}

/* The address the loadable segment holding @ph's first byte maps it at, or 0. */
static uint64_t loaded_address(Elf *elf, size_t phnum, const GElf_Phdr *ph)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr load;

		if (gelf_getphdr(elf, (int)i, &load) && load.p_type == PT_LOAD &&
		    ph->p_offset >= load.p_offset && ph->p_offset - load.p_offset < load.p_filesz)
			return load.p_vaddr + (ph->p_offset - load.p_offset);
	}
	return 0;
}

/* What elf_report.disagreeing says (elffile.h), in why; "" if nothing. */
static void headers_disagree(Elf *elf, size_t phnum, char *why, size_t size)
{
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		const char *name;
		uint64_t at;

		if (!gelf_getphdr(elf, (int)i, &ph) || !(name = segment_name(ph.p_type)))
			continue;
		if (ph.p_filesz == 0 && (ph.p_type == PT_NOTE || ph.p_type == PT_GNU_PROPERTY)) {
			snprintf(why, size, "program header %zu (%s) is empty", i, name);
			return;
		}
		at = loaded_address(elf, phnum, &ph);
		if (!at || at == ph.p_vaddr)
			continue;
		snprintf(why, size, "program header %zu (%s) says address %#llx, but its bytes load at %#llx",
			 i, name, (unsigned long long)ph.p_vaddr, (unsigned long long)at);
		return;
	}
}

/*
 * A file elfnote set stamped after linking that GNU strip or objcopy then
 * rewrote still runs, but its program headers no longer say what they did:
 * those tools cannot give a segment part of a section (.elfnote.notes
 * holds the copies of several note segments), so those segments come out
 * empty, losing the build-id, the ABI tag and the GNU properties (IBT,
 * SHSTK, BTI markings) from the headers; and they move the added segment
 * to new addresses without the headers that point into it.  Both are
 * looked for in such a file; one that passes is laid out as elfnote wrote
 * it.
 */
static bool rewritten_after_stamp(struct elf_report *r)
{
	if (!r->disagreeing[0])
		return false;
	r->verdict = ELF_NOT_EXECUTABLE;
	snprintf(r->reason, sizeof(r->reason), "%s%s (GNU strip or objcopy after elfnote set? strip first, then stamp)",
		 r->disagreeing, strstr(r->disagreeing, "is empty") ? ": the notes it held are lost" : "");
	return true;
}

/*
 * head: the file's first bytes (up to EI_NIDENT) where libelf saw no ELF,
 * to tell one cut short from another file.
 */
static void inspect_elf(Elf *elf, off_t size, const unsigned char *head, struct elf_report *r)
{
	GElf_Ehdr eh;
	size_t phnum;
	const char *why;
	char *ident;

	r->has_elf_magic = elf_kind(elf) == ELF_K_ELF ||
			   (size >= SELFMAG && !memcmp(head, ELFMAG, SELFMAG));
	if (elf_kind(elf) == ELF_K_AR) {
		refuse(r, ELF_NOT_EXECUTABLE, "an archive, not an executable");
		return;
	}
	if (elf_kind(elf) != ELF_K_ELF || !(ident = elf_getident(elf, NULL))) {
		if (truncated_header(head, size, r))
			return;
		refuse(r, ELF_NOT_EXECUTABLE, "not an ELF file");
		return;
	}
	if (!gelf_getehdr(elf, &eh)) {
		refuse(r, ELF_NOT_EXECUTABLE, "truncated or damaged ELF header");
		return;
	}
	r->added_sections = stamped_after_link(elf);
	if (elf_getphdrnum(elf, &phnum)) {
		/* libelf fails when not one program header fits in the file. */
		if (!truncated_table(elf, &eh, 0, size, r))
			refuse(r, ELF_NOT_EXECUTABLE, "damaged program header count");
		return;
	}
	r->elf_class = ident[EI_CLASS] == ELFCLASS64 ? 64 : 32;
	r->big_endian = ident[EI_DATA] == ELFDATA2MSB;
	if (truncated_table(elf, &eh, phnum, size, r) || truncated_segment(elf, phnum, size, r))
		return;
	r->type = eh.e_type == ET_EXEC ? "executable" : dyn_type(elf, phnum, size);
	why = check_header(elf, &eh, phnum, size);
	if (!why)
		why = check_segments(elf, phnum);
	if (why) {
		refuse(r, ELF_NOT_EXECUTABLE, why);
		/* GNU strip and objcopy cannot keep a moved table: say so. */
		if (r->added_sections)
			snprintf(r->reason, sizeof(r->reason), "%s (GNU strip or objcopy after elfnote set? strip first, then stamp)", why);
		return;
	}
	headers_disagree(elf, phnum, r->disagreeing, sizeof(r->disagreeing));
	if (r->added_sections && rewritten_after_stamp(r))
		return;
	read_notes(elf, phnum, size, r->big_endian, r);
}

void elf_inspect_fd(int fd, struct elf_report *r)
{
	unsigned char head[EI_NIDENT];
	struct stat st;
	Elf *elf;

	memset(r, 0, sizeof(*r));
	elf_version(EV_CURRENT);
	if (fstat(fd, &st)) {
		refuse(r, ELF_IO_ERROR, strerror(errno));
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		refuse(r, ELF_NOT_EXECUTABLE, S_ISDIR(st.st_mode) ? "a directory" : "not a regular file");
		return;
	}
	memset(head, 0, sizeof(head));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	/* The first bytes only where libelf saw no ELF: is it one cut short? */
	if (elf && elf_kind(elf) != ELF_K_ELF && pread(fd, head, sizeof(head), 0) < 0)
		refuse(r, ELF_IO_ERROR, strerror(errno));
	else if (!elf)
		refuse(r, ELF_NOT_EXECUTABLE, "not an ELF file");
	else
		inspect_elf(elf, st.st_size, head, r);
	elf_end(elf);
}

void elf_inspect_image(unsigned char *image, size_t len, struct elf_report *r)
{
	unsigned char head[EI_NIDENT] = { 0 };
	Elf *elf;

	memset(r, 0, sizeof(*r));
	elf_version(EV_CURRENT);
	memcpy(head, image, len < sizeof(head) ? len : sizeof(head));
	elf = elf_memory((char *)image, len);
	if (!elf)
		refuse(r, ELF_NOT_EXECUTABLE, "not an ELF file");
	else
		inspect_elf(elf, (off_t)len, head, r);
	elf_end(elf);
}

void elf_inspect(const char *path, struct elf_report *r)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		memset(r, 0, sizeof(*r));
		refuse(r, ELF_IO_ERROR, strerror(errno));
		return;
	}
	elf_inspect_fd(fd, r);
	close(fd);
}
