// SPDX-License-Identifier: GPL-2.0
#include "size-arg.h"

#include <string.h>

/*
 * K, M, G or T in either case (as the kernel's memparse() reads its
 * command line), or KiB, MiB, GiB, TiB: powers of 1024.  "MB" is refused,
 * since a reader could take it for 10^6.
 */
static int suffix_shift(const char *s)
{
	static const char units[] = "KMGT";
	const char *u = *s ? strchr(units, *s & ~0x20) : NULL;

	if (!*s)
		return 0;
	if (!u || (s[1] && (strcmp(s + 1, "iB") || *s != *u)))
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
		*why = "unknown suffix (use bytes, or K, M, G or T, also written KiB, MiB, GiB or TiB)";
		return false;
	}
	if (shift && v > UINT64_MAX >> shift) {
		*why = "too large";
		return false;
	}
	*bytes = v << shift;
	return true;
}
