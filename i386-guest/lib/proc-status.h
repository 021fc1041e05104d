/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What /proc/PID/status says of a task that the guest's tests check: the
 * probe reads its own (samples/probe.c), the runner a program's at its exec
 * stop (i386-guest/exec-observe.c).
 */
#ifndef GUEST_LIB_PROC_STATUS_H
#define GUEST_LIB_PROC_STATUS_H

struct proc_status {
	char euid[16], egid[16];	/* effective ids, as printed */
	char capeff[64];		/* CapEff, hex as the kernel prints it */
	char gap[32];			/* StackGuardGap in bytes, or "none" */
};

/*
 * Reads /proc/PID/status (pid 0: this process's) in one pass.  A field
 * whose line is missing or not understood is "unknown", except gap, which
 * is "none" when the kernel prints no StackGuardGap line (a stock kernel).
 * Returns 0, or -1 when the file cannot be opened (every field "unknown").
 */
int proc_status(int pid, struct proc_status *st);

#endif
