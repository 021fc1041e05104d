// SPDX-License-Identifier: GPL-2.0
#include "scan.h"

#include <stdio.h>

int cmd_scan(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fputs("elfnote: scan: not written yet\n", stderr);
	return 64;
}
