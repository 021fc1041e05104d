// SPDX-License-Identifier: GPL-2.0
#include "exec-observe.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define AT_SECURE_TYPE 23	/* elf.h's AT_SECURE, without elf.h */
#define UNREADABLE "(unreadable)"

static void add(char *out, size_t len, const char *key, const char *value)
{
	size_t used = strlen(out);

	if (used < len)
		snprintf(out + used, len - used, "%sexec.%s=%s", used ? " " : "", key, value);
}

/* The first line of /proc/PID/FILE starting with prefix, after it. */
static bool proc_line(pid_t pid, const char *file, const char *prefix, char *buf, size_t len)
{
	char path[64], line[512];
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)))
			continue;
		snprintf(buf, len, "%s", line + strlen(prefix));
		buf[strcspn(buf, "\n")] = '\0';
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

/* "Max stack size   8388608   unlimited   bytes" */
static void add_limits(pid_t pid, char *out, size_t len)
{
	char rest[256], cur[32] = UNREADABLE, max[32] = UNREADABLE;

	if (proc_line(pid, "limits", "Max stack size", rest, sizeof(rest)) &&
	    sscanf(rest, "%31s %31s", cur, max) != 2)
		snprintf(max, sizeof(max), UNREADABLE);
	add(out, len, "rlim_cur", cur);
	add(out, len, "rlim_max", max);
}

/* "Uid:\treal\teffective\tsaved\tfs": the second column. */
static void add_id(pid_t pid, const char *prefix, const char *key, char *out, size_t len)
{
	char rest[128], real[16], eff[16] = UNREADABLE;

	if (proc_line(pid, "status", prefix, rest, sizeof(rest)) &&
	    sscanf(rest, "%15s %15s", real, eff) != 2)
		snprintf(eff, sizeof(eff), UNREADABLE);
	add(out, len, key, eff);
}

/* "StackGuardGap:\t    1024 kB", or no such line on a stock kernel. */
static void add_status(pid_t pid, char *out, size_t len)
{
	char rest[128], value[32] = UNREADABLE;
	unsigned long kb = 0;

	add_id(pid, "Uid:", "euid", out, len);
	add_id(pid, "Gid:", "egid", out, len);
	if (proc_line(pid, "status", "CapEff:", rest, sizeof(rest)))
		sscanf(rest, "%31s", value);
	add(out, len, "capeff", value);
	snprintf(value, sizeof(value), "none");
	if (proc_line(pid, "status", "StackGuardGap:", rest, sizeof(rest))) {
		if (sscanf(rest, "%lu", &kb) == 1)
			snprintf(value, sizeof(value), "%lu", kb * 1024);
		else
			snprintf(value, sizeof(value), UNREADABLE);
	}
	add(out, len, "gap", value);
}

/* AT_SECURE from the saved auxiliary vector: pairs of the program's words. */
static void add_secure(pid_t pid, int word_size, char *out, size_t len)
{
	unsigned char buf[4096];
	char path[64], value[24] = UNREADABLE;
	size_t pair = 2 * (size_t)word_size;
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		close(fd);
	}
	for (size_t off = 0; n > 0 && off + pair <= (size_t)n; off += pair) {
		uint64_t type = 0, val = 0;

		/* x86 is little-endian: the low bytes of a wider field come first. */
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

void exec_observe(pid_t pid, int word_size, char *out, size_t len)
{
	add_limits(pid, out, len);
	add_status(pid, out, len);
	add_secure(pid, word_size, out, len);
	add_interp(pid, out, len);
	if (strlen(out) + 1 < len)
		strcat(out, "\n");
}
