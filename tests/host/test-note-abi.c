// SPDX-License-Identifier: GPL-2.0
/*
 * The note's format is defined twice: for the kernel in the series'
 * include/uapi/linux/elf.h, for programs and the tool in
 * elf-note-tool/include/exec-policy-note.h.  This test checks that they
 * agree: the constants at compile time, and at run time the note that
 * the header's EXEC_POLICY_SUID_STACK() macro put into this very program,
 * read back from /proc/self/exe with the kernel's definitions only.
 * Built as a static i386 program (ELF32) and as a static x86_64 one
 * (ELF64) against the patched tree's UAPI headers; both run on the host,
 * the i386 one under qemu-i386 (whose /proc/self/exe is the program's).
 * TAP on stdout.
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/elf.h>

#include "exec-policy-note.h"

EXEC_POLICY_SUID_STACK(32 << 20);

/* This program's own ELF class: the kernel's parser sees both. */
#ifdef __LP64__
#define CLASS "ELF64"
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Phdr Phdr;
#else
#define CLASS "ELF32"
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Phdr Phdr;
#endif

#define TAP_PREFIX "note ABI " CLASS ": "
#include "tap.h"

_Static_assert(NT_LINUX_EXEC_POLICY == EXEC_POLICY_NOTE_TYPE, "note type");
_Static_assert(sizeof(NN_LINUX_EXEC_POLICY) == EXEC_POLICY_NOTE_NAMESZ, "name size");
_Static_assert(LINUX_EXEC_POLICY_ALIGN == EXEC_POLICY_NOTE_ALIGN, "alignment");
_Static_assert(LINUX_EXEC_POLICY_SUID_STACK == EXEC_POLICY_PROP_SUID_STACK, "property type");
_Static_assert(LINUX_EXEC_POLICY_STACK_GUARD_GAP == EXEC_POLICY_PROP_STACK_GUARD_GAP,
	       "guard gap property type");
_Static_assert(LINUX_EXEC_POLICY_STACK_UNIT == EXEC_POLICY_STACK_UNIT, "stack unit");
_Static_assert(sizeof(struct linux_exec_policy_prop) == sizeof(struct exec_policy_prop),
	       "property header size");
_Static_assert(offsetof(struct linux_exec_policy_prop, pr_datasz) ==
	       offsetof(struct exec_policy_prop, pr_datasz), "property header layout");

static unsigned char file[1 << 20];

/* The stack request of the first policy note, walking as the kernel does. */
static long long find_request(size_t size)
{
	const Ehdr *eh = (const void *)file;

	for (int i = 0; i < eh->e_phnum; i++) {
		const Phdr *ph = (const void *)(file + eh->e_phoff + i * eh->e_phentsize);
		size_t off = ph->p_offset, end = ph->p_offset + ph->p_filesz;

		if (ph->p_type != PT_NOTE || end > size)
			continue;
		while (end - off >= sizeof(Elf32_Nhdr)) {
			const Elf32_Nhdr *n = (const void *)(file + off);
			size_t name = off + sizeof(*n);
			size_t desc = (name + n->n_namesz + 3) & ~(size_t)3;
			struct linux_exec_policy_prop pr;
			unsigned long long v;

			if (n->n_type == NT_LINUX_EXEC_POLICY &&
			    n->n_namesz == sizeof(NN_LINUX_EXEC_POLICY) &&
			    !memcmp(file + name, NN_LINUX_EXEC_POLICY, n->n_namesz)) {
				memcpy(&pr, file + desc, sizeof(pr));
				if (pr.pr_type != LINUX_EXEC_POLICY_SUID_STACK || pr.pr_datasz != 8)
					return -1;
				memcpy(&v, file + desc + sizeof(pr), sizeof(v));
				return (long long)v;
			}
			off = (desc + n->n_descsz + 3) & ~(size_t)3;
		}
	}
	return -2;
}

int main(void)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, file, sizeof(file));
	long long request;

	tap_plan(3);
	tap_check(!strcmp(NN_LINUX_EXEC_POLICY, EXEC_POLICY_NOTE_NAME), "same note name");
	tap_check(n > (ssize_t)sizeof(Ehdr), "read /proc/self/exe");
	request = n > 0 ? find_request((size_t)n) : -3;
	tap_check(request == 32 << 20,
		  "EXEC_POLICY_SUID_STACK(32 << 20) reads back as 33554432 with the kernel's definitions");
	return tap_done();
}
