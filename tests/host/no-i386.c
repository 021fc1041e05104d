// SPDX-License-Identifier: GPL-2.0
/*
 * no-i386 COMMAND [ARG...]: run COMMAND so that no 32-bit x86 program can
 * run anywhere below it.
 *
 * Some hosts the project's tests run on refuse i386 programs (a kernel
 * without IA32_EMULATION, or with ia32_emulation=0: execve() fails with
 * ENOEXEC), others run them.  The host tests must give the same answer on
 * both, so make check runs them on a host of the first kind whatever the
 * machine is: a seccomp filter, inherited by every child and kept across
 * execve(), kills any process that makes a system call through a 32-bit
 * entry (the audit arch of the call is AUDIT_ARCH_I386: an i386 program,
 * or int 0x80 from a 64-bit one).  An i386 program then dies with SIGSYS
 * at its first system call, before it can print or write anything; a
 * refusing host fails its execve() instead.  Either way it does not run,
 * and a test that needs one must use qemu-i386 or a guest.
 *
 * Where seccomp is not available the command runs unfiltered, with a
 * note on stderr: the host's own behaviour is then what the tests see.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>

static int refuse_32bit_calls(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_I386, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = sizeof(code) / sizeof(code[0]),
		.filter = code,
	};

	/*
	 * Without no_new_privs where the caller may (CAP_SYS_ADMIN, as make
	 * check runs): setuid programs below must keep working as they do.
	 */
	if (!prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 0;
	if (errno != EACCES || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: no-i386 COMMAND [ARG...]\n");
		return 2;
	}
	if (refuse_32bit_calls())
		fprintf(stderr, "no-i386: # seccomp unavailable (%s): i386 programs are not refused\n",
			strerror(errno));
	execvp(argv[1], argv + 1);
	fprintf(stderr, "no-i386: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
