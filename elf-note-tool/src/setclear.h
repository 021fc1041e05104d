/* SPDX-License-Identifier: GPL-2.0 */
/* elfnote set and clear: the command line around edit.c and safewrite.c. */
#ifndef ELFNOTE_SETCLEAR_H
#define ELFNOTE_SETCLEAR_H

/* argv[0] is "set" or "clear"; returns the process exit status. */
int cmd_setclear(int argc, char **argv);

#endif
