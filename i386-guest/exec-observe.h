/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kernel gave a program at its exec, read from /proc/PID while the
 * program is stopped there (the runner traces it: observe=1 in a scenario).
 * A program of Debian's prints no key=value words of its own, and a setuid
 * one may change its limits or exit before anyone could look; at the exec
 * stop the new image is complete (finalize_exec() has written RLIMIT_STACK
 * back) and has not run an instruction.
 */
#ifndef GUEST_EXEC_OBSERVE_H
#define GUEST_EXEC_OBSERVE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Appends "exec.KEY=VALUE" words, one line, to out (a NUL-terminated buffer
 * of len bytes):
 *   exec.rlim_cur, exec.rlim_max  RLIMIT_STACK in bytes or "unlimited"
 *                                 (/proc/PID/limits)
 *   exec.euid, exec.egid          effective ids (/proc/PID/status)
 *   exec.capeff                   CapEff, hex as printed
 *   exec.gap                      StackGuardGap in bytes, or "none" where the
 *                                 kernel prints no such line (stock)
 *   exec.secure                   AT_SECURE (/proc/PID/auxv, in the words
 *                                 of the program's ELF class: 4 or 8 bytes)
 *   exec.interp                   lowest address of a file mapping other
 *                                 than the program's: the ELF interpreter,
 *                                 which the kernel maps at the mmap base
 *                                 (/proc/PID/maps), or "none"
 * A value that could not be read is "unknown".
 */
void exec_observe(pid_t pid, char *out, size_t len);

#endif
