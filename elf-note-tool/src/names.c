// SPDX-License-Identifier: GPL-2.0
#include "names.h"

#include <stdarg.h>
#include <stdbool.h>

/* The length of an escaped sequence at s: C1 controls and bidi controls in UTF-8. */
static int escaped_len(const unsigned char *s)
{
	if (s[0] < 0x20 || s[0] == 0x7f || s[0] == '\\')
		return 1;
	if (s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f)
		return 2;	/* U+0080..U+009F */
	if (s[0] == 0xe2 && s[1] == 0x80 && s[2] >= 0xaa && s[2] <= 0xae)
		return 3;	/* U+202A..U+202E */
	if (s[0] == 0xe2 && s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9)
		return 3;	/* U+2066..U+2069 */
	return 0;
}

void name_print(FILE *out, const char *name)
{
	for (const unsigned char *s = (const unsigned char *)name; *s;) {
		int n = escaped_len(s);

		if (!n) {
			fputc(*s++, out);
			continue;
		}
		while (n--)
			fprintf(out, "\\%03o", *s++);
	}
}

void name_error(const char *name, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* Results and errors about one file come out in the order they happened. */
	fflush(stdout);
	fputs("elfnote: ", stderr);
	name_print(stderr, name);
	fputs(": ", stderr);
	name_print(stderr, msg);
	fputc('\n', stderr);
}
