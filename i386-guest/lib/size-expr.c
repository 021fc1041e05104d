// SPDX-License-Identifier: GPL-2.0
#include "size-expr.h"

#include <limits.h>

static int suffix_shift(char c, unsigned int *shift)
{
	switch (c) {
	case 'K': *shift = 10; return 0;
	case 'M': *shift = 20; return 0;
	case 'G': *shift = 30; return 0;
	default: return -1;
	}
}

/* One factor: digits and an optional suffix.  Advances *p past it. */
static int parse_factor(const char **p, unsigned long long *out)
{
	unsigned long long v = 0;
	unsigned int shift = 0;
	const char *s = *p;

	if (*s < '0' || *s > '9')
		return -1;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (v > (ULLONG_MAX - (unsigned int)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned int)(*s - '0');
	}
	if (*s && *s != '+' && *s != '-' && *s != '*') {
		if (suffix_shift(*s, &shift))
			return -1;
		s++;
		if (v > (ULLONG_MAX >> shift))
			return -1;
		v <<= shift;
	}
	*p = s;
	*out = v;
	return 0;
}

/* One term: factors joined by '*' (binding tighter than + and -). */
static int parse_term(const char **p, unsigned long long *out)
{
	unsigned long long total, factor;

	if (parse_factor(p, &total))
		return -1;
	while (**p == '*') {
		(*p)++;
		if (parse_factor(p, &factor))
			return -1;
		if (factor && total > ULLONG_MAX / factor)
			return -1;
		total *= factor;
	}
	*out = total;
	return 0;
}

int size_expr_parse(const char *text, unsigned long long *value)
{
	const char *p = text;
	unsigned long long total, term;

	if (!text || parse_term(&p, &total))
		return -1;
	while (*p) {
		char op = *p++;

		if ((op != '+' && op != '-') || parse_term(&p, &term))
			return -1;
		if (op == '+') {
			if (total > ULLONG_MAX - term)
				return -1;
			total += term;
		} else {
			if (term > total)
				return -1;
			total -= term;
		}
	}
	*value = total;
	return 0;
}
