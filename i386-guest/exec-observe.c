// SPDX-License-Identifier: GPL-2.0
#include "exec-observe.h"
#include "lib/proc-status.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AT_SECURE_TYPE 23	/* elf.h's AT_SECURE, without elf.h */
#define UNREADABLE "unknown"	/* as lib/proc-status.h says it */

static void add(char *out, size_t len, const char *key, const char *value)
{
	size_t used = strlen(out);

	if (used < len)
		snprintf(out + used, len - used, "%sexec.%s=%s", used ? " " : "", key, value);
}

/* "Max stack size   8388608   unlimited   bytes" in /proc/PID/limits */
static void add_limits(pid_t pid, char *out, size_t len)
{
	char path[64], line[256], cur[32] = UNREADABLE, max[32] = UNREADABLE;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/limits", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Max stack size %31s %31s", cur, max) == 2)
			break;
		snprintf(cur, sizeof(cur), UNREADABLE);
		snprintf(max, sizeof(max), UNREADABLE);
	}
	if (f)
		fclose(f);
	add(out, len, "rlim_cur", cur);
	add(out, len, "rlim_max", max);
}

/* The ids, CapEff and StackGuardGap (lib/proc-status.h). */
static void add_status(pid_t pid, char *out, size_t len)
{
	struct proc_status st;

	proc_status((int)pid, &st);
	add(out, len, "euid", st.euid);
	add(out, len, "egid", st.egid);
	add(out, len, "capeff", st.capeff);
	add(out, len, "gap", st.gap);
}

/*
 * The word size of the image the exec started, from its ELF class: at the
 * exec stop /proc/PID/exe is that image (a script's interpreter, for a
 * script: what runs).  0 if it cannot be read.
 */
static int exe_word_size(pid_t pid)
{
	unsigned char ident[5];
	char path[64];
	int fd, size = 0;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (read(fd, ident, sizeof(ident)) == (ssize_t)sizeof(ident) &&
	    !memcmp(ident, "\177ELF", 4))
		size = ident[4] == 2 ? 8 : ident[4] == 1 ? 4 : 0;	/* ELFCLASS64, 32 */
	close(fd);
	return size;
}

/* AT_SECURE from the saved auxiliary vector: pairs of the program's words. */
static void add_secure(pid_t pid, char *out, size_t len)
{
	unsigned char buf[4096];
	char path[64], value[24] = UNREADABLE;
	int word_size = exe_word_size(pid);
	size_t pair = 2 * (size_t)word_size;
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	fd = word_size ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
	}
	for (size_t off = 0; n > 0 && off + pair <= (size_t)n; off += pair) {
		uint64_t type = 0, val = 0;

		/* Every guest ABI is little-endian: low bytes come first. */
		memcpy(&type, buf + off, (size_t)word_size);
		memcpy(&val, buf + off + word_size, (size_t)word_size);
		if (type == AT_SECURE_TYPE) {
			snprintf(value, sizeof(value), "%llu", (unsigned long long)val);
			break;
		}
	}
	add(out, len, "secure", value);
}

/* The lowest mapping of a file other than /proc/PID/exe's. */
static void add_interp(pid_t pid, char *out, size_t len)
{
	char path[64], exe[512], line[768], value[32] = "none";
	unsigned long long lowest = ~0ULL;
	ssize_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, exe, sizeof(exe) - 1);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = n > 0 ? fopen(path, "re") : NULL;
	if (!f) {
		add(out, len, "interp", UNREADABLE);
		return;
	}
	exe[n] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *file = strchr(line, '/');
		unsigned long long start;

		if (!file || sscanf(line, "%llx-", &start) != 1)
			continue;
		file[strcspn(file, "\n")] = '\0';
		if (strcmp(file, exe) && start < lowest)
			lowest = start;
	}
	fclose(f);
	if (lowest != ~0ULL)
		snprintf(value, sizeof(value), "%#llx", lowest);
	add(out, len, "interp", value);
}

void exec_observe(pid_t pid, char *out, size_t len)
{
	add_limits(pid, out, len);
	add_status(pid, out, len);
	add_secure(pid, out, len);
	add_interp(pid, out, len);
	if (strlen(out) + 1 < len)
		strcat(out, "\n");
}
