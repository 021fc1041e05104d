// SPDX-License-Identifier: GPL-2.0
/*
 * userns-run PROGRAM [ARG...]: make a user namespace, map uid and gid 0
 * in it to the caller's, as `unshare -r` does (the setting of a rootless
 * container), and execute PROGRAM there: root of its own namespace, with
 * every capability in it and none outside.
 *
 * userns-run (no PROGRAM): make the namespace the same way, after this
 * program's own exec, and print what /proc/self/status says then:
 *
 *   euid=0 capeff=... gap=...
 *
 * Stamped with a one-page gap (userns-run-g4k), it shows that a process
 * whose gap was lowered keeps it when it becomes root of a namespace.
 * tests/scenarios/60-guard-gap.scn uses both forms.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../i386-guest/lib/proc-status.h"

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t len = (ssize_t)strlen(text);
	int ok;

	if (fd < 0) {
		perror(path);
		return -1;
	}
	ok = write(fd, text, (size_t)len) == len;
	if (!ok)
		perror(path);
	close(fd);
	return ok ? 0 : -1;
}

/* unshare -r: a new user namespace whose root is the caller. */
static int enter_user_ns(void)
{
	char map[64];
	unsigned int uid = getuid(), gid = getgid();

	if (unshare(CLONE_NEWUSER)) {
		perror("userns-run: unshare(CLONE_NEWUSER)");
		return -1;
	}
	snprintf(map, sizeof(map), "0 %u 1\n", uid);
	if (write_file("/proc/self/uid_map", map))
		return -1;
	/* An unprivileged gid_map needs setgroups denied first. */
	if (write_file("/proc/self/setgroups", "deny"))
		return -1;
	snprintf(map, sizeof(map), "0 %u 1\n", gid);
	return write_file("/proc/self/gid_map", map);
}

int main(int argc, char **argv)
{
	struct proc_status st;

	if (enter_user_ns())
		return 125;
	if (argc > 1) {
		execv(argv[1], argv + 1);
		perror(argv[1]);
		return 127;
	}
	if (proc_status(0, &st))
		return 1;
	printf("euid=%s capeff=%s gap=%s\n", st.euid, st.capeff, st.gap);
	return 0;
}
