// SPDX-License-Identifier: GPL-2.0
#include "pad.h"

#include <stdlib.h>
#include <string.h>

unsigned long long pad_strings(unsigned long long bytes)
{
	return (bytes + PAD_CHUNK - 1) / PAD_CHUNK;
}

/* Every padding string is a tail of one buffer of 'x' and a NUL. */
char *pad_string(unsigned long long bytes, unsigned long long i)
{
	static char *chunk;
	unsigned long long left = bytes - i * PAD_CHUNK;

	if (!chunk) {
		chunk = malloc(PAD_CHUNK);
		if (!chunk)
			return NULL;
		memset(chunk, 'x', PAD_CHUNK - 1);
		chunk[PAD_CHUNK - 1] = '\0';
	}
	return chunk + PAD_CHUNK - (left < PAD_CHUNK ? left : PAD_CHUNK);
}
