/* SPDX-License-Identifier: GPL-2.0 */
/*
 * elfnote scan: the audit of a tree of binaries (setuid, setgid and
 * file-capability ELF executables, or with --all every ELF executable).
 */
#ifndef ELFNOTE_SCAN_H
#define ELFNOTE_SCAN_H

/* argv[0] is "scan"; returns the process exit status. */
int cmd_scan(int argc, char **argv);

#endif
