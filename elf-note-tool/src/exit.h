/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elfnote's exit statuses, as man/elfnote.1 documents them (EXIT STATUS):
 * scripts test these numbers, so each is defined here once and every
 * command returns one of them.
 */
#ifndef ELFNOTE_EXIT_H
#define ELFNOTE_EXIT_H

#define EXIT_OK			0

/* show, set, clear: some FILE could not be done (the others were). */
#define EXIT_FILE_FAILED	1

/* check: the worst FILE's verdict (scan shares the I/O error). */
#define EXIT_NOTE		0	/* a well-formed note */
#define EXIT_NO_NOTE		1
#define EXIT_MALFORMED		2	/* execve() fails with ENOEXEC */
#define EXIT_NOT_EXECUTABLE	3
#define EXIT_IO_ERROR		4	/* scan: something could not be read */

/* Any command: bad options or arguments (sysexits.h's EX_USAGE). */
#define EXIT_USAGE		64

#endif
