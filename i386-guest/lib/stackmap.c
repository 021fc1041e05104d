// SPDX-License-Identifier: GPL-2.0
#include "stackmap.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

int stack_mapping(uintptr_t *start, uintptr_t *end)
{
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "re");
	int found = -1;

	if (!maps)
		return -1;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;

		if (!strstr(line, "[stack]"))
			continue;
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			*start = lo;
			*end = hi;
			found = 0;
		}
		break;
	}
	fclose(maps);
	if (found)
		errno = ENOENT;
	return found;
}

int mapping_top_below(uintptr_t limit, uintptr_t *top)
{
	char line[512];
	FILE *maps = fopen("/proc/self/maps", "re");

	if (!maps)
		return -1;
	*top = 0;
	while (fgets(line, sizeof(line), maps)) {
		unsigned long lo, hi;

		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && hi <= limit && hi > *top)
			*top = hi;
	}
	fclose(maps);
	return 0;
}

const char *rlimit_text(unsigned long long value, char *buf, unsigned int len)
{
	if (value == (unsigned long long)RLIM_INFINITY)
		snprintf(buf, len, "unlimited");
	else
		snprintf(buf, len, "%llu", value);
	return buf;
}
