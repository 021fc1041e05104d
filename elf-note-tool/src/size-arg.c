// SPDX-License-Identifier: GPL-2.0
#include "size-arg.h"

#include <string.h>

static int suffix_shift(const char *s)
{
	static const char units[] = "KMG";
	const char *u = *s ? strchr(units, *s) : NULL;

	if (!u)
		return *s ? -1 : 0;
	if (s[1] && strcmp(s + 1, "iB"))
		return -1;
	return 10 * (int)(u - units + 1);
}

bool size_arg_parse(const char *s, uint64_t *bytes, const char **why)
{
	uint64_t v = 0;
	int shift;

	if (*s < '0' || *s > '9') {
		*why = "not a number";
		return false;
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (UINT64_MAX - (uint64_t)(*s - '0')) / 10) {
			*why = "too large";
			return false;
		}
		v = v * 10 + (uint64_t)(*s - '0');
	}
	shift = suffix_shift(s);
	if (shift < 0) {
		*why = "unknown suffix (use bytes, or K, M or G)";
		return false;
	}
	if (shift && v > UINT64_MAX >> shift) {
		*why = "too large";
		return false;
	}
	*bytes = v << shift;
	return true;
}
