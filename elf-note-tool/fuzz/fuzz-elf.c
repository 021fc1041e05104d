// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for whole files: the input becomes a memfd, and
 * elf_inspect_fd() opens it with libelf, runs the executable checks and
 * walks every PT_NOTE.  The verdict must be one of the documented ones,
 * with a reason wherever one is promised.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "elffile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct elf_report r;
	int fd = memfd_create("fuzz", MFD_CLOEXEC);

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		elf_inspect_fd(fd, &r);
		if (r.verdict > ELF_IO_ERROR)
			abort();
		if (r.verdict >= ELF_NOT_EXECUTABLE && !r.reason[0])
			abort();
		if (r.verdict == ELF_MALFORMED && !r.policy.problem)
			abort();
	}
	close(fd);
	return 0;
}
