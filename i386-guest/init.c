// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /init: runs the scenarios of this boot and reports TAP on the
 * console, then reboots (QEMU runs with -no-reboot, so it exits).
 *
 * Kernel command line:
 *   guest.boot=TAG   run the scenarios with boot=TAG (default "default")
 *   guest.abi=A,B    run them under these ABIs only (default: every ABI the
 *                    kernel runs, see below)
 *   guest.shell      no scenarios: an interactive busybox shell on the
 *                    console's serial port (console=, ttyS0 or ttyAMA0)
 *   guest.debian     the initramfs has Debian's root in /debian: mount
 *                    /proc and /sys there, bring up lo
 *   guest.overlay    mount /abi again at /ovl through overlayfs
 *   guest.selinux    load /etc/selinux.policy and enforce it
 *   guest.only=GLOB,...  run only the scenarios whose names match one of
 *                    these fnmatch() patterns (a prefix of the series:
 *                    kernel/check-series.sh)
 *
 * ABIs (scenario.h): an i386 kernel runs the scenarios once, "i386"; an
 * x86_64 kernel runs them twice, "x86_64" with the 64-bit programs, then
 * "ia32" with the i386 ones.  Each ABI's programs are in /abi/ABI/bin and
 * its loaders in /abi/ABI/lib; /bin and /lib are symbolic links that the
 * runner points at the ABI being run, so one scenario file names
 * /bin/probe for all of them.  Results are named ABI/NAME.
 *
 * Run from that shell (not as PID 1), it runs one scenario given as fields:
 *   /init run=/bin/probe-suid user=1000 stack=unlimited
 *
 * Which kernel this is (stock or patched) comes from `uname -r`, whose
 * suffix kernel/build.sh sets; scenarios with kernel=stock|patched run only
 * there, and those with series=6.1 only on a 6.1 kernel (the release's
 * MAJOR.MINOR).  Each scenario runs in a child: RLIMIT_STACK, personality,
 * groups, gid and uid are set in that order (the rlimit first, while root
 * may still raise the hard limit), the ambient= capabilities are raised,
 * then the program is exec'd with the scenario's argv/envp padding.  An
 * exec failure comes back through a close-on-exec pipe as its errno.  A
 * scenario with repeat=N runs N times and passes when every run does; it
 * is still one test.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <net/if.h>

#include "exec-observe.h"
#include "lib/pad.h"
#include "scenario.h"

#define SCENARIO_DIR "/etc/scenarios"
#define OUTPUT_MAX 4096
#define SCENARIO_TIMEOUT 300	/* seconds; the host has its own timeout */
#define REPORT_MAX 1024		/* the expected and observed outcomes as text */

static char cmdline[2048];	/* COMMAND_LINE_SIZE on x86 */
static char kernel_variant[32];
static char kernel_series[16];	/* MAJOR.MINOR of the release: "6.1", "6.12" */
static char machine[65];
static const char *current_abi = "i386";
/* guest.only=: the scenario names this boot runs (globs; "": all). */
static char only_names[SCN_ONLY_MAX];
static int test_number, passed, failed;

static void read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, cmdline, sizeof(cmdline) - 1);

	if (n > 0)
		cmdline[n] = '\0';
	if (fd >= 0)
		close(fd);
}

/* The value of key=value on the kernel command line, or NULL. */
static const char *cmdline_value(const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = cmdline;

	while ((p = strstr(p, key))) {
		bool start = p == cmdline || p[-1] == ' ';

		if (start && p[klen] == '=') {
			size_t n = strcspn(p + klen + 1, " \n");

			snprintf(buf, len, "%.*s", (int)n, p + klen + 1);
			return buf;
		}
		if (start && (p[klen] == ' ' || p[klen] == '\n' || !p[klen])) {
			snprintf(buf, len, "1");
			return buf;
		}
		p += klen;
	}
	return NULL;
}

static void detect_kernel(void)
{
	struct utsname u = { 0 };
	const char *dash;
	size_t major;

	strcpy(kernel_variant, "unknown");
	if (uname(&u) == 0 && (dash = strrchr(u.release, '-')))
		snprintf(kernel_variant, sizeof(kernel_variant), "%s", dash + 1);
	major = strspn(u.release, "0123456789");
	if (u.release[major] == '.')
		snprintf(kernel_series, sizeof(kernel_series), "%.*s",
			 (int)(major + 1 + strspn(u.release + major + 1, "0123456789")), u.release);
	snprintf(machine, sizeof(machine), "%s", u.machine);
	printf("# guest: kernel %s %s (%s), variant %s\n", u.sysname, u.release,
	       u.machine, kernel_variant);
}

/* security.capability, revision 2: permitted and effective, no inheritable. */
static void apply_fcap(const struct scn_fcap *f)
{
	struct vfs_cap_data data;

	memset(&data, 0, sizeof(data));
	data.magic_etc = VFS_CAP_REVISION_2 | VFS_CAP_FLAGS_EFFECTIVE;
	data.data[0].permitted = (__u32)f->caps;
	data.data[1].permitted = (__u32)(f->caps >> 32);
	if (setxattr(f->path, "security.capability", &data, XATTR_CAPS_SZ_2, 0))
		printf("# guest: setting capabilities on %s failed: %s\n", f->path, strerror(errno));
	else
		printf("# guest: %s has capabilities %#llx (permitted, effective)\n",
		       f->path, f->caps);
}

/* argv or envp: the scenario's strings, empty strings, then padding (pad.h). */
static char **padded_vector(char *const *base, int n, unsigned long long empty,
			    unsigned long long pad)
{
	unsigned long long strings = pad_strings(pad), i;
	char **vec = calloc((size_t)(n + empty + strings + 1), sizeof(char *));

	if (!vec || (strings && !pad_string(pad, 0)))
		return NULL;
	for (int k = 0; k < n; k++)
		vec[k] = base[k];
	for (i = 0; i < empty; i++)
		vec[n + i] = "";
	for (i = 0; i < strings; i++)
		vec[n + empty + i] = pad_string(pad, i);
	return vec;
}

/* Writes len bytes to path in one write(): 0, or -1 with errno set. */
static int write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, buf, len);
	err = n < 0 ? errno : EIO;
	close(fd);
	if (n == (ssize_t)len)
		return 0;
	errno = err;
	return -1;
}

/*
 * context=: the SELinux context the exec enters, asked for as the
 * scenario's user right before it (the policy of the "selinux" boot lets
 * anyone ask; the exec is judged as a domain transition).
 */
static void set_exec_context(const char *context)
{
	if (context[0] && write_file("/proc/self/attr/exec", context, strlen(context))) {
		fprintf(stderr, "guest: context=%s: %s\n", context, strerror(errno));
		_exit(125);
	}
}

static void set_limit(int resource, const struct scn_limit *l)
{
	struct rlimit rl = {
		.rlim_cur = l->soft == SCN_UNLIMITED ? RLIM_INFINITY : (rlim_t)l->soft,
		.rlim_max = l->hard == SCN_UNLIMITED ? RLIM_INFINITY : (rlim_t)l->hard,
	};

	if (l->set && setrlimit(resource, &rl)) {
		perror("guest: setrlimit");
		_exit(125);
	}
}

/*
 * ambient=, before the drop to the scenario's uid: setuid away from root
 * clears the permitted set unless the process asked to keep it.
 */
static void keep_caps(const struct scenario *s)
{
	if (s->ambient && prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0)) {
		perror("guest: PR_SET_KEEPCAPS for ambient=");
		_exit(125);
	}
}

/*
 * ambient=, after the drop: only a capability both permitted and
 * inheritable can be raised as ambient (effective is not needed, so it
 * stays empty), and an exec of a program that is not setuid and has no
 * file capabilities gives the ambient set to its permitted and effective
 * sets.  No libcap: the guest's programs are static musl ones.
 */
static void raise_ambient(const struct scenario *s)
{
	struct __user_cap_header_struct head = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (!s->ambient)
		return;
	memset(data, 0, sizeof(data));
	for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		data[i].permitted = (__u32)(s->ambient >> 32 * i);
		data[i].inheritable = data[i].permitted;
	}
	if (syscall(SYS_capset, &head, data)) {
		perror("guest: capset for ambient=");
		_exit(125);
	}
	for (int cap = 0; cap < 64; cap++) {
		if ((s->ambient >> cap & 1) &&
		    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, cap, 0, 0)) {
			perror("guest: PR_CAP_AMBIENT_RAISE for ambient=");
			_exit(125);
		}
	}
}

/* root=: the program, and before=/after=, see this folder as / (as root). */
static void enter_root(const char *root)
{
	if (root[0] && (chroot(root) || chdir("/"))) {
		fprintf(stderr, "guest: chroot %s: %s\n", root, strerror(errno));
		_exit(125);
	}
}

static __attribute__((noreturn)) void child(const struct scenario *s, int out, int in, int errfd)
{
	char *args[SCN_MAX_ARGS];
	char **argv, **envp;
	int err;

	for (int i = 0; i < s->argc; i++)
		args[i] = (char *)s->argv[i];
	argv = padded_vector(args, s->argc, s->argv_empty, s->argv_bytes);
	envp = padded_vector(NULL, 0, s->envp_empty, s->envp_bytes);
	/*
	 * stderr too: what a program says there (a PAM prompt, java
	 * -version) is part of what it did, and on the console it would
	 * break the runner's TAP lines.
	 */
	if (!argv || !envp || dup2(out, STDOUT_FILENO) < 0 || dup2(out, STDERR_FILENO) < 0 ||
	    (in >= 0 && dup2(in, STDIN_FILENO) < 0)) {
		perror("guest: child setup");
		_exit(125);
	}
	set_limit(RLIMIT_STACK, &s->stack);
	set_limit(RLIMIT_NOFILE, &s->nofile);
	enter_root(s->root);
	/*
	 * observe=1: traced by the runner, the program stops with SIGTRAP once
	 * its exec has succeeded.  Asked while still root: the kernel judges
	 * a traced setuid or capability exec by the credentials the child had
	 * when it asked (ptracer_cred), and keeps the gains only for a tracer
	 * with CAP_SYS_PTRACE; asked as the scenario's user, the exec would
	 * run without them.
	 */
	if (s->observe && ptrace(PTRACE_TRACEME, 0, NULL, NULL)) {
		perror("guest: PTRACE_TRACEME for observe=");
		_exit(125);
	}
	keep_caps(s);
	if ((s->norandom && personality(ADDR_NO_RANDOMIZE) < 0) ||
	    setgroups(0, NULL) || setgid(s->gid) || setuid(s->uid)) {
		perror("guest: dropping to the scenario's user");
		_exit(125);
	}
	raise_ambient(s);
	set_exec_context(s->context);
	execve(argv[0], argv, envp);
	err = errno;
	if (write(errfd, &err, sizeof(err)) != sizeof(err))
		_exit(126);
	_exit(127);
}

static void on_alarm(int sig)
{
	(void)sig;
}

struct observed {
	enum scn_status status;
	int value;
	char output[OUTPUT_MAX];
	char kmsg[OUTPUT_MAX];	/* kernel log lines printed during the run */
	bool kmsg_ok;		/* all of them were read */
	bool timed_out;
	int before_status, after_status;	/* before=, after=: exit status */
};

/* What a scenario's runs add up to: the verdict and the report's texts. */
struct verdict {
	bool ok;
	char expected[REPORT_MAX];
	char observed[REPORT_MAX];
};

/*
 * A range expectation over the passing runs of a repeated scenario: the
 * smallest and largest number its key printed, and their text as printed.
 */
struct span {
	bool seen;
	unsigned long long lo, hi;
	char lo_text[SCN_TEXT], hi_text[SCN_TEXT];
};

static int run_child(const struct scenario *s, struct observed *o);
static int run_with_sysctl(const struct scenario *s, struct observed *o);
static int run_aside(const struct scn_command *c, const char *root, char *out, size_t len);

/* Reads a sysctl into old (if given), then writes value; 0 or -1. */
static int swap_sysctl(const char *path, const char *value, char *old, size_t len)
{
	int fd = open(path, O_RDWR | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	if (old) {
		n = read(fd, old, len - 1);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		old[n] = '\0';
		old[strcspn(old, "\n")] = '\0';
	}
	/* At offset 0: strict sysctl writes ignore the rest. */
	n = pwrite(fd, value, strlen(value), 0);
	close(fd);
	return n == (ssize_t)strlen(value) ? 0 : -1;
}

/* The kernel log from here on: /dev/kmsg positioned at its end. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/*
 * Drops whole lines from the front of out until add more bytes fit: a
 * program that floods the log (10,000 execs, each logging) must still
 * leave its last lines, which are what a kmsg= expectation looks for.
 */
static size_t kmsg_make_room(char *out, size_t used, size_t len, size_t add)
{
	while (used && used + add + 2 >= len) {
		size_t line = strcspn(out, "\n") + 1;

		if (line > used)
			line = used;
		memmove(out, out + line, used - line + 1);
		used -= line;
	}
	return used;
}

/*
 * Appends the text of every new record, one line each, keeping the latest
 * when they do not all fit.  Returns false when some could not be read or
 * were dropped: then a no_kmsg= expectation cannot pass (a line that was
 * seen still counts for kmsg=).
 */
static bool kmsg_collect(int fd, char *out, size_t len)
{
	char rec[8192];
	size_t used = 0;
	bool ok = fd >= 0;
	ssize_t n;

	out[0] = '\0';
	while (fd >= 0) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE) {
			ok = false;	/* records were overwritten meanwhile */
			continue;
		}
		if (n <= 0)
			break;
		const char *text;

		rec[n] = '\0';
		text = strchr(rec, ';');
		text = text ? text + 1 : rec;
		n = (ssize_t)strcspn(text, "\n");
		if ((size_t)n + 2 >= len)
			n = (ssize_t)len - 3;
		if (used + (size_t)n + 2 >= len) {
			ok = false;
			used = kmsg_make_room(out, used, len, (size_t)n);
		}
		memcpy(out + used, text, (size_t)n);
		used += (size_t)n;
		out[used++] = '\n';
		out[used] = '\0';
	}
	return ok;
}

static int run(const struct scenario *s, struct observed *o)
{
	int kmsg = kmsg_open(), r;

	o->output[0] = '\0';
	o->before_status = s->before.argc ?
		run_aside(&s->before, s->root, o->output, sizeof(o->output)) : 0;
	r = run_with_sysctl(s, o);
	o->after_status = s->after.argc ?
		run_aside(&s->after, s->root, o->output, sizeof(o->output)) : 0;
	o->kmsg_ok = kmsg_collect(kmsg, o->kmsg, sizeof(o->kmsg));
	if (kmsg >= 0)
		close(kmsg);
	return r;
}

static int run_with_sysctl(const struct scenario *s, struct observed *o)
{
	char old[64];
	int r;

	if (!s->sysctl[0])
		return run_child(s, o);
	if (swap_sysctl(s->sysctl, s->sysctl_value, old, sizeof(old)))
		return -1;
	r = run_child(s, o);
	if (swap_sysctl(s->sysctl, old, NULL, 0))
		return -1;
	return r;
}

/*
 * stdin=: the program's input pipe.  A line is written only once the
 * program has read everything before it, so each read(2) it makes sees at
 * most one line: PAM's conversation reads a password with one read() of
 * whatever is there, and two lines at once would be taken as one answer.
 * The runner keeps a read end of its own (rd) to see whether the pipe is
 * empty, which also means the program can exit without reading and the
 * runner never gets SIGPIPE.
 */
struct feed {
	int wr, rd;
	const char *next;	/* the lines not yet written */
};

/* Writes the next line if the pipe is empty; closes it after the last. */
static void feed_step(struct feed *f)
{
	int queued = 0;
	size_t n;

	if (f->wr < 0 || ioctl(f->rd, FIONREAD, &queued) || queued)
		return;
	if (!*f->next) {
		close(f->wr);
		close(f->rd);
		f->wr = f->rd = -1;
		return;
	}
	n = strcspn(f->next, "\n") + 1;
	if (write(f->wr, f->next, n) != (ssize_t)n)
		perror("guest: writing stdin=");
	f->next += n;
}

static void feed_close(struct feed *f)
{
	if (f->wr >= 0) {
		close(f->wr);
		close(f->rd);
	}
	f->wr = f->rd = -1;
}

/*
 * Reads the program's stdout into out (len bytes with the NUL, appending
 * after what is there) until it closes, feeding its stdin meanwhile.
 * Returns -1 with errno EINTR when the scenario's alarm went off.
 */
static int collect_output(int fd, struct feed *f, char *out, size_t len)
{
	size_t used = strlen(out);
	ssize_t n;

	/* Words of what came before (before=, observe=) end where this begins. */
	if (used && out[used - 1] != '\n' && used < len - 1) {
		out[used++] = '\n';
		out[used] = '\0';
	}
	for (;;) {
		char scratch[512];
		/* Keep what fits; drain the rest so the child never blocks. */
		bool full = used == len - 1;
		struct pollfd p = { .fd = fd, .events = POLLIN };

		feed_step(f);
		n = poll(&p, 1, f->wr >= 0 ? 10 : -1);
		if (n == 0)
			continue;
		if (n > 0)
			n = read(fd, full ? scratch : out + used, full ? sizeof(scratch) : len - 1 - used);
		if (n <= 0)
			break;
		if (!full)
			used += (size_t)n;
	}
	out[used] = '\0';
	return n < 0 && errno == EINTR ? -1 : 0;
}

/* Waits for pid; a wait the alarm interrupts kills it (*timed_out). */
static int reap(pid_t pid, int *status, bool *timed_out)
{
	while (waitpid(pid, status, 0) < 0) {
		if (errno != EINTR)
			return -1;
		*timed_out = true;
		kill(pid, SIGKILL);
	}
	return 0;
}

/*
 * observe=1: waits for the child's stop at its exec and appends what
 * /proc shows then to the output.  Returns 1 when the child ended
 * instead (its exec failed; *status is set), 0 when it runs on, -1 when
 * the wait failed.
 */
static int observe_exec(pid_t pid, int *status, struct observed *o)
{
	size_t used = strlen(o->output);

	if (reap(pid, status, &o->timed_out))
		return -1;
	if (!WIFSTOPPED(*status))
		return 1;
	if (WSTOPSIG(*status) == SIGTRAP)
		exec_observe(pid, o->output + used, sizeof(o->output) - used);
	ptrace(PTRACE_DETACH, pid, NULL,
	       (void *)(long)(WSTOPSIG(*status) == SIGTRAP ? 0 : WSTOPSIG(*status)));
	return 0;
}

static void set_status(struct observed *o, int err, int status)
{
	if (err) {
		o->status = SCN_ERRNO;
		o->value = err;
	} else if (WIFSIGNALED(status)) {
		o->status = SCN_SIGNAL;
		o->value = WTERMSIG(status);
	} else {
		o->status = SCN_EXIT;
		o->value = WEXITSTATUS(status);
	}
}

/* What /proc/PID/task/TID/stat shows of one thread at one moment. */
struct thread_sample {
	char state;
	unsigned long long minflt, utime, stime;
};

static bool thread_stat(pid_t pid, const char *tid, struct thread_sample *t)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* The fields after the name, which may hold blanks and ")". */
	p = strrchr(buf, ')');
	return p && sscanf(p + 2, "%c %*s %*s %*s %*s %*s %*s %llu %*s %*s %*s %llu %llu",
			   &t->state, &t->minflt, &t->utime, &t->stime) == 4;
}

/* /proc/PID/task/TID/FILE's first line, or "?". */
static void task_line(pid_t pid, const char *tid, const char *file, char *out, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%s/%s", (int)pid, tid, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, out, len - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		n = snprintf(out, len, "?");
	out[n] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/*
 * A /proc/TID/syscall line cut to its number, first two arguments (a
 * futex's address and operation) and user pc: NR A1 A2 ... SP PC.
 */
static void short_syscall(char *line, size_t len)
{
	char *tok[9], *save = NULL, copy[256];
	int n = 0;

	snprintf(copy, sizeof(copy), "%s", line);
	for (char *t = strtok_r(copy, " ", &save); t && n < 9; t = strtok_r(NULL, " ", &save))
		tok[n++] = t;
	if (n == 9)
		snprintf(line, len, "%s,%s,%s,pc=%s", tok[0], tok[1], tok[2], tok[8]);
	else if (n == 3)
		snprintf(line, len, "%s,pc=%s", tok[0], tok[2]);
}

/* The 12 bytes of code at pc, as hex, appended to out. */
static void append_code(pid_t pid, unsigned long pc, char *out, size_t len)
{
	unsigned char code[12];
	char path[32];
	size_t used;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	if (pread(fd, code, sizeof(code), (off_t)pc) == (ssize_t)sizeof(code)) {
		for (size_t i = 0; i < sizeof(code); i++) {
			used = strlen(out);
			snprintf(out + used, len - used, "%s%02x", i ? "" : ",code=", code[i]);
		}
	}
	close(fd);
}

/*
 * Where a running thread is: stopped for a moment with PTRACE_SEIZE and
 * PTRACE_INTERRUPT, its user pc and the file and offset /proc/PID/maps
 * puts it at.  /proc/TID/syscall says only "running" for a thread on a
 * CPU.  x86 only (the guests whose JVMs hung); elsewhere "?".
 */
static void running_pc(pid_t pid, pid_t tid, char *out, size_t len)
{
	unsigned long pc = 0, lo, hi, off;
	char path[32], line[512], file[256];
	FILE *maps;
	int status;

	snprintf(out, len, "?");
#if defined(__x86_64__) || defined(__i386__)
	struct user_regs_struct regs;

	if (ptrace(PTRACE_SEIZE, tid, NULL, NULL))
		return;
	if (!ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) && waitpid(tid, &status, __WALL) == tid &&
	    !ptrace(PTRACE_GETREGS, tid, NULL, &regs))
#ifdef __x86_64__
		pc = regs.rip;
#else
		pc = regs.eip;
#endif
	ptrace(PTRACE_DETACH, tid, NULL, NULL);
#endif
	if (!pc)
		return;
	snprintf(out, len, "%#lx", pc);
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	maps = fopen(path, "re");
	while (maps && fgets(line, sizeof(line), maps)) {
		file[0] = '\0';
		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %255s", &lo, &hi, &off, file) >= 3 &&
		    pc >= lo && pc < hi) {
			snprintf(out, len, "%#lx(%s+%#lx)", pc, file[0] ? file : "anon", pc - lo + off);
			break;
		}
	}
	if (maps)
		fclose(maps);
	append_code(pid, pc, out, len);
}

/*
 * A timed-out program's threads as /proc shows them, one line each on
 * the output: state; user and system CPU ticks and minor faults over one
 * second; the system call it waits in (/proc/TID/syscall: its number,
 * arguments, user stack pointer and pc) or, running, its pc.  That tells
 * a thread that spins in user space from one that faults over and over
 * and from threads that all wait, and where; the guest kernel has no
 * symbols (no KALLSYMS), so numbers are all /proc has.
 */
static void describe_hang(pid_t pid, char *out, size_t len)
{
	char path[32], tids[32][16], where[256], comm[32];
	struct thread_sample before[32], after;
	struct dirent *d;
	size_t used;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return;
	while ((d = readdir(dir)) && n < 32) {
		if (d->d_name[0] == '.' || strlen(d->d_name) >= sizeof(tids[0]) ||
		    !thread_stat(pid, d->d_name, &before[n]))
			continue;
		memcpy(tids[n++], d->d_name, strlen(d->d_name) + 1);
	}
	closedir(dir);
	sleep(1);
	for (int i = 0; i < n; i++) {
		if (!thread_stat(pid, tids[i], &after))
			continue;
		task_line(pid, tids[i], "comm", comm, sizeof(comm));
		task_line(pid, tids[i], "syscall", where, sizeof(where));
		if (!strcmp(where, "running"))
			running_pc(pid, atoi(tids[i]), where, sizeof(where));
		else
			short_syscall(where, sizeof(where));
		used = strlen(out);
		if (used < len)
			snprintf(out + used, len - used,
				 "\nhang: tid=%s comm=%s state=%c utime=%llu stime=%llu minflt=%llu at=%s",
				 tids[i], comm, after.state, after.utime - before[i].utime,
				 after.stime - before[i].stime, after.minflt - before[i].minflt, where);
	}
}

static int run_child(const struct scenario *s, struct observed *o)
{
	int out[2], errp[2], in[2] = { -1, -1 }, status = 0, err = 0, ended = 0;
	struct feed feed = { -1, -1, s->stdin_text };
	pid_t pid;

	fflush(stdout);
	if (pipe2(out, O_CLOEXEC) || pipe2(errp, O_CLOEXEC) ||
	    (s->has_stdin && pipe2(in, O_CLOEXEC)))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(s, out[1], in[0], errp[1]);
	close(out[1]);
	close(errp[1]);
	if (s->has_stdin) {
		feed.rd = in[0];
		feed.wr = in[1];
	}
	alarm(SCENARIO_TIMEOUT);
	o->timed_out = false;
	if (s->observe)
		ended = observe_exec(pid, &status, o);
	if (ended >= 0 && collect_output(out[0], &feed, o->output, sizeof(o->output)) < 0) {
		o->timed_out = true;
		describe_hang(pid, o->output, sizeof(o->output));
		kill(pid, SIGKILL);
	}
	feed_close(&feed);
	if (read(errp[0], &err, sizeof(err)) != sizeof(err))
		err = 0;
	if (ended < 0 || (!ended && reap(pid, &status, &o->timed_out)))
		return -1;
	alarm(0);
	close(out[0]);
	close(errp[0]);
	set_status(o, err, status);
	return 0;
}

/*
 * before=, after=: the command as root, in the scenario's root, stdin
 * /dev/null, under the scenario's alarm; its output is appended to out.
 * Returns its exit status, 128 + the signal that ended it, or -1.
 */
static int run_aside(const struct scn_command *c, const char *root, char *out, size_t len)
{
	char *argv[SCN_MAX_ARGS];
	struct feed none = { -1, -1, "" };
	bool timed_out = false;
	int pipefd[2], status;
	pid_t pid;

	for (int i = 0; i < c->argc; i++)
		argv[i] = (char *)c->argv[i];
	argv[c->argc] = NULL;
	fflush(stdout);
	if (pipe2(pipefd, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(pipefd[1], STDOUT_FILENO) < 0 ||
		    dup2(pipefd[1], STDERR_FILENO) < 0)
			_exit(125);
		enter_root(root);
		execv(argv[0], argv);
		fprintf(stderr, "guest: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	alarm(SCENARIO_TIMEOUT);
	if (collect_output(pipefd[0], &none, out, len) < 0)
		kill(pid, SIGKILL);
	close(pipefd[0]);
	if (reap(pid, &status, &timed_out))
		return -1;
	alarm(0);
	return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
}

/* The last "key=value" word in the program's output, or NULL. */
static const char *output_value(const char *output, const char *key, char *buf, size_t len)
{
	size_t klen = strlen(key);
	const char *p = output, *found = NULL;

	for (; (p = strstr(p, key)); p += klen) {
		if ((p == output || p[-1] == ' ' || p[-1] == '\n') && p[klen] == '=')
			found = p + klen + 1;
	}
	if (!found)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(found, " \n"), found);
	return buf;
}

static void append(char *buf, size_t len, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);

	if (used < len)
		snprintf(buf + used, len - used, fmt, a, b);
}

/* Whether one line of log holds every comma-separated word of words. */
static bool log_has(const char *log, const char *words)
{
	char line[1024], word[SCN_TEXT];

	for (const char *p = log; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		const char *w = words;
		bool all = true;

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p);
		while (*w) {
			size_t n = strcspn(w, ",");

			snprintf(word, sizeof(word), "%.*s", (int)n, w);
			all = all && strstr(line, word);
			w += n + (w[n] == ',');
		}
		if (all)
			return true;
	}
	return false;
}

/* before=/after= must exit 0; a failure is shown with the command. */
static bool judge_aside(const char *key, const struct scn_command *c, int status,
			struct verdict *vd)
{
	char text[2 * SCN_TEXT + 32];

	if (!c->argc || !status)
		return true;
	/* The program and its first argument: effect's check, say. */
	snprintf(text, sizeof(text), " %s=%s%s%s:exit=%d", key, c->argv[0],
		 c->argc > 1 ? "," : "", c->argc > 1 ? c->argv[1] : "", status);
	append(vd->observed, sizeof(vd->observed), "%s%s", text, "");
	return false;
}

/*
 * Whether one run met every expectation; vd gets the verdict and the
 * expected and observed outcomes as text.  With spans (a repeated scenario
 * whose runs all passed), a range expectation is shown as observed over
 * every run, LO..HI (one value when they all printed the same), instead of
 * as this run printed it.
 */
static bool judge(const struct scenario *s, const struct observed *o, const struct span *spans,
		  struct verdict *vd)
{
	char *expected = vd->expected, *observed = vd->observed, value[SCN_TEXT];
	bool ok = o->status == s->status && o->value == s->status_value;

	scn_status_text(s->status, s->status_value, expected, sizeof(vd->expected));
	scn_status_text(o->status, o->value, observed, sizeof(vd->observed));
	for (int i = 0; i < s->nvalues; i++) {
		const struct scn_value *v = &s->values[i];
		const char *got = output_value(o->output, v->key, value, sizeof(value));
		const struct span *sp = spans && spans[i].seen ? &spans[i] : NULL;

		append(expected, sizeof(vd->expected), " %s=%s", v->key, v->text);
		append(observed, sizeof(vd->observed), " %s=%s", v->key,
		       sp ? sp->lo_text : got ? got : "(missing)");
		if (sp && sp->lo != sp->hi)
			append(observed, sizeof(vd->observed), "%s%s", "..", sp->hi_text);
		if (!got || !scn_value_matches(v, got))
			ok = false;
	}
	if (s->no_kmsg[0] && !o->kmsg_ok) {
		append(observed, sizeof(vd->observed), " %s%s", "kmsg=",
		       "(could not read all of /dev/kmsg)");
		ok = false;
	}
	if (o->timed_out) {
		append(observed, sizeof(vd->observed), " %s%s", "timeout=", "killed");
		ok = false;
	}
	if (s->stdout_has[0]) {
		bool has = strstr(o->output, s->stdout_has) != NULL;

		append(expected, sizeof(vd->expected), " %s%s", "stdout=", s->stdout_has);
		append(observed, sizeof(vd->observed), " %s%s", "stdout=",
		       has ? s->stdout_has : "(not in the output)");
		ok = ok && has;
	}
	if (s->ktap.set) {
		struct scn_ktap got;
		char text[SCN_TEXT];
		bool has = !scn_ktap_totals(o->output, &got);

		scn_ktap_text(&s->ktap, text, sizeof(text));
		append(expected, sizeof(vd->expected), " %s%s", "ktap=", text);
		if (has)
			scn_ktap_text(&got, text, sizeof(text));
		append(observed, sizeof(vd->observed), " %s%s", "ktap=",
		       has ? text : "(no totals line)");
		ok = ok && has && !memcmp(got.n, s->ktap.n, sizeof(got.n));
	}
	ok = judge_aside("before", &s->before, o->before_status, vd) && ok;
	ok = judge_aside("after", &s->after, o->after_status, vd) && ok;
	if (s->kmsg[0]) {
		bool has = log_has(o->kmsg, s->kmsg);

		append(expected, sizeof(vd->expected), " %s%s", "kmsg=", s->kmsg);
		append(observed, sizeof(vd->observed), " %s%s", "kmsg=",
		       has ? s->kmsg : o->kmsg_ok ? "(no such line)" :
		       "(no such line among the last ones; earlier lines were lost)");
		ok = ok && has;
	}
	if (s->no_kmsg[0]) {
		bool has = log_has(o->kmsg, s->no_kmsg);

		append(expected, sizeof(vd->expected), " %s%s", "no_kmsg=", s->no_kmsg);
		append(observed, sizeof(vd->observed), " %s%s", "no_kmsg=",
		       has ? "(logged)" : s->no_kmsg);
		ok = ok && !has;
	}
	vd->ok = ok;
	return ok;
}

/* Widens the spans of the range expectations by a passing run's values. */
static void widen(const struct scenario *s, const struct observed *o, struct span *spans)
{
	char text[SCN_TEXT];
	unsigned long long n;

	for (int i = 0; i < s->nvalues; i++) {
		struct span *sp = &spans[i];

		if (!s->values[i].is_range ||
		    !output_value(o->output, s->values[i].key, text, sizeof(text)) ||
		    scn_number(text, &n))
			continue;
		if (!sp->seen || n < sp->lo) {
			sp->lo = n;
			snprintf(sp->lo_text, sizeof(sp->lo_text), "%s", text);
		}
		if (!sp->seen || n > sp->hi) {
			sp->hi = n;
			snprintf(sp->hi_text, sizeof(sp->hi_text), "%s", text);
		}
		sp->seen = true;
	}
}

/*
 * Runs the scenario s->repeat times: every run must pass, and the first
 * that does not ends it (a randomised outcome, such as the mmap base under
 * ASLR, is checked over many execs).  o is left with the last run, vd with
 * the verdict; a repeated scenario's observed text shows the span of each
 * range value over its runs, or the failing run's values and which run
 * that was.  Returns -1 when the runner itself failed.
 */
static int run_repeated(const struct scenario *s, struct observed *o, struct verdict *vd)
{
	struct span spans[SCN_MAX_VALUES];
	char runs[48];
	unsigned int i;

	memset(spans, 0, sizeof(spans));
	for (i = 1; i <= s->repeat; i++) {
		if (run(s, o))
			return -1;
		if (!judge(s, o, NULL, vd))
			break;
		widen(s, o, spans);
	}
	if (s->repeat == 1)
		return 0;
	if (vd->ok) {
		judge(s, o, spans, vd);
		snprintf(runs, sizeof(runs), " (%u runs)", s->repeat);
	} else {
		snprintf(runs, sizeof(runs), " (run %u of %u)", i, s->repeat);
	}
	append(vd->observed, sizeof(vd->observed), "%s%s", runs, "");
	return 0;
}

static long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000LL + t.tv_nsec / 1000;
}

/*
 * One TAP line for the scenario, however many runs it took.  The row
 * ends with the scenario's time in the guest (all its runs), which tells
 * where a boot's minutes go.
 */
static void report(const struct scenario *s, const struct observed *o, const struct verdict *vd,
		   long long us)
{
	int n_lines = 0;

	test_number++;
	if (vd->ok)
		passed++;
	else
		failed++;
	printf("%s %d - %s/%s\n", vd->ok ? "ok" : "not ok", test_number, current_abi, s->name);
	printf("# row\t%s/%s\t%s\t%s\t%s\t%lld\n", current_abi, s->name, vd->expected,
	       vd->observed, vd->ok ? "PASS" : "FAIL", us / 1000);
	if (!vd->ok)
		printf("#   expected: %s\n#   observed: %s\n", vd->expected, vd->observed);
	/* The first line; all of them (up to 48) when the scenario failed. */
	for (const char *p = o->output; *p && n_lines < (vd->ok ? 1 : 48); n_lines++) {
		int n = (int)strcspn(p, "\n");

		printf("#   output: %.*s\n", n, p);
		p += n + (p[n] == '\n');
	}
}

static bool selected(const struct scenario *s, const char *boot)
{
	return !strcmp(s->boot, boot) && scn_runs_on(s, current_abi) &&
	       scn_runs_in(s, kernel_series) && scn_named_in(s, only_names) &&
	       (!strcmp(s->kernel, "any") || !strcmp(s->kernel, kernel_variant));
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Parses every file; runs the selected scenarios unless run is false. */
static int scenarios(bool run_them, const char *boot, struct scn_file *st)
{
	struct dirent **names;
	int n = scandir(SCENARIO_DIR, &names, NULL, by_name);
	int errors = 0;

	if (n < 0) {
		printf("# guest: no %s: %s\n", SCENARIO_DIR, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++) {
		char path[512];
		struct scenario s;
		struct observed o;
		struct verdict vd;
		FILE *f;
		int r;

		snprintf(path, sizeof(path), SCENARIO_DIR "/%s", names[i]->d_name);
		free(names[i]);
		if (path[sizeof(SCENARIO_DIR)] == '.' || !(f = fopen(path, "re")))
			continue;
		st->path = path;
		st->line = 0;
		while ((r = scn_next(f, st, &s)) == 1) {
			long long start = now_us();

			if (!run_them || !selected(&s, boot))
				continue;
			if (run_repeated(&s, &o, &vd)) {
				printf("not ok %d - %s/%s # runner: %s\n", ++test_number, current_abi,
				       s.name, strerror(errno));
				failed++;
				continue;
			}
			report(&s, &o, &vd, now_us() - start);
		}
		if (r < 0) {
			printf("not ok %d - %s/%s # %s\n", ++test_number, current_abi, path, st->error);
			failed++;
			errors++;
		}
		fclose(f);
	}
	free(names);
	return errors ? -1 : 0;
}

/* Points /bin and /lib at the ABI's programs and loaders. */
static int use_abi(const char *abi)
{
	static const char *const links[] = { "bin", "lib" };
	char path[80], target[64];

	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		snprintf(target, sizeof(target), "abi/%s/%s", abi, links[i]);
		snprintf(path, sizeof(path), "/%s", target);
		if (access(path, F_OK)) {
			printf("# guest: no %s in this initramfs\n", path);
			return -1;
		}
		snprintf(path, sizeof(path), "/%s", links[i]);
		if ((unlink(path) && errno != ENOENT) || symlink(target, path)) {
			printf("# guest: pointing %s at %s failed: %s\n", path, target, strerror(errno));
			return -1;
		}
	}
	current_abi = abi;
	printf("# guest: abi %s: /bin -> abi/%s/bin\n", abi, abi);
	return 0;
}

/*
 * Points /bin and /lib at the ABI and sets the file capabilities its
 * scenarios ask for (@fcap, read in a first pass: they must be set before
 * any run).  st is left ready for the pass that runs them.
 */
static int enter_abi(const char *abi, const char *boot, struct scn_file *st)
{
	if (use_abi(abi))
		return -1;
	memset(st, 0, sizeof(*st));
	st->abi = abi;
	scenarios(false, boot, st);
	for (int i = 0; i < st->nfcaps; i++)
		apply_fcap(&st->fcaps[i]);
	memset(st, 0, sizeof(*st));
	st->abi = abi;
	return 0;
}

/* Every scenario of the boot under one ABI. */
static void run_abi(const char *abi, const char *boot)
{
	struct scn_file st;

	if (enter_abi(abi, boot, &st)) {
		printf("not ok %d - %s/runner # no programs for ABI %s\n", ++test_number, abi, abi);
		failed++;
		return;
	}
	scenarios(true, boot, &st);
}

/*
 * guest.debian (the boot of tests/scenarios/70-debian.scn): the initramfs
 * has Debian's 32-bit root in /debian (i386-guest/debian/).  Its programs
 * run chrooted there (root=/debian) and need what a booted Debian has:
 * /proc and /sys mounted, and the loopback device up for ping (the kernel
 * gives it 127.0.0.1 when it comes up).
 */
static void prepare_debian(void)
{
	struct ifreq ifr;
	int fd;

	if (mount("proc", "/debian/proc", "proc", 0, NULL) ||
	    mount("sysfs", "/debian/sys", "sysfs", 0, NULL))
		printf("# guest: mounting /proc, /sys in /debian: %s\n", strerror(errno));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	ifr.ifr_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || ioctl(fd, SIOCSIFFLAGS, &ifr))
		printf("# guest: bringing lo up: %s\n", strerror(errno));
	if (fd >= 0)
		close(fd);
	printf("# guest: Debian root in /debian, lo up\n");
}

/*
 * guest.overlay (tests/scenarios/52-note-overlay.scn): every ABI's
 * programs again under /ovl/ABI, through an overlayfs whose lower layer is
 * /abi and whose upper layer is a tmpfs.  An overlayfs file has no page
 * cache of its own: exec reads and maps the lower file through it, and the
 * exec policy note must be read the same way.
 */
static void prepare_overlay(void)
{
	const char *opts = "lowerdir=/abi,upperdir=/ovl-rw/upper,workdir=/ovl-rw/work";

	if (mkdir("/ovl", 0755) || mkdir("/ovl-rw", 0755) ||
	    mount("tmpfs", "/ovl-rw", "tmpfs", 0, "mode=0755") ||
	    mkdir("/ovl-rw/upper", 0755) || mkdir("/ovl-rw/work", 0755) ||
	    mount("overlay", "/ovl", "overlay", 0, opts)) {
		/* The scenarios of this boot then fail: their programs are missing. */
		printf("# guest: overlayfs in /ovl: %s\n", strerror(errno));
		return;
	}
	printf("# guest: /abi through overlayfs in /ovl\n");
}

/*
 * guest.selinux (tests/scenarios/90-lsm-limits.scn): load the guest's
 * SELinux policy (i386-guest/selinux/policy.cil) and enforce it, so that a
 * scenario's context= exec is a domain transition the policy judges.
 */
static void prepare_selinux(void)
{
	static char policy[65536];
	ssize_t len = -1;
	int fd = open("/etc/selinux.policy", O_RDONLY | O_CLOEXEC);

	if (fd >= 0) {
		len = read(fd, policy, sizeof(policy));
		close(fd);
	}
	if (len <= 0 || len == (ssize_t)sizeof(policy)) {
		printf("# guest: reading /etc/selinux.policy: %s\n",
		       len < 0 ? strerror(errno) : "empty or too large");
		return;
	}
	if ((mkdir("/sys", 0755) && errno != EEXIST) ||
	    mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    mount("selinuxfs", "/sys/fs/selinux", "selinuxfs", 0, NULL) ||
	    write_file("/sys/fs/selinux/load", policy, (size_t)len) ||
	    write_file("/sys/fs/selinux/enforce", "1", 1)) {
		/* The scenarios of this boot then fail: no context= is entered. */
		printf("# guest: SELinux: %s\n", strerror(errno));
		return;
	}
	printf("# guest: SELinux policy loaded and enforced\n");
}

/*
 * The shell gets the serial port the kernel's console is on (boot.sh's
 * console=, abis.txt's console column), not /dev/console, which an open
 * never makes a controlling terminal: job control and ^C need one.
 */
static void shell(void)
{
	char console[32] = "ttyS0", path[48];
	pid_t pid;

	cmdline_value("console", console, sizeof(console));
	snprintf(path, sizeof(path), "/dev/%.*s", (int)strcspn(console, ","),
		 console);
	pid = fork();
	if (pid == 0) {
		int tty = open(path, O_RDWR);

		setsid();
		if (tty >= 0) {
			ioctl(tty, TIOCSCTTY, 1);
			dup2(tty, 0);
			dup2(tty, 1);
			dup2(tty, 2);
		}
		execl("/bin/sh", "sh", "-l", (char *)NULL);
		perror("guest: /bin/sh");
		_exit(127);
	}
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/*
 * Not PID 1 (from the shell of `make shell`): run the one scenario given as
 * fields on the command line, e.g. init run=/bin/probe-suid user=1000 stack=unlimited
 */
static int run_command_line(int argc, char **argv)
{
	char line[4096] = "name=command-line";
	struct scn_file st;
	struct scenario s;
	struct observed o;
	struct verdict vd;
	FILE *f;

	for (int i = 1; i < argc; i++) {
		if (strlen(line) + strlen(argv[i]) + 2 > sizeof(line))
			return 2;
		strcat(line, " ");
		strcat(line, argv[i]);
	}
	memset(&st, 0, sizeof(st));
	st.path = "command line";
	st.abi = current_abi;
	f = fmemopen(line, strlen(line), "r");
	if (!f || scn_next(f, &st, &s) != 1) {
		fprintf(stderr, "init: %s\n", st.error[0] ? st.error : "no scenario");
		return 2;
	}
	fclose(f);
	long long start = now_us();

	if (run_repeated(&s, &o, &vd))
		return 1;
	printf("%s", o.output);
	report(&s, &o, &vd, now_us() - start);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	char boot[64], flag[8], abis[64];

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGALRM, &sa, NULL);
	if (getpid() != 1)
		return run_command_line(argc, argv);
	if (mount("proc", "/proc", "proc", 0, NULL))
		perror("guest: mount /proc");
	read_cmdline();
	if (!cmdline_value("guest.boot", boot, sizeof(boot)))
		strcpy(boot, "default");
	printf("TAP version 13\n");
	detect_kernel();
	printf("# guest: boot %s\n", boot);

	if (cmdline_value("guest.debian", flag, sizeof(flag)))
		prepare_debian();
	if (cmdline_value("guest.overlay", flag, sizeof(flag)))
		prepare_overlay();
	if (cmdline_value("guest.selinux", flag, sizeof(flag)))
		prepare_selinux();
	if (!cmdline_value("guest.only", only_names, sizeof(only_names)))
		only_names[0] = '\0';
	if (!cmdline_value("guest.abi", abis, sizeof(abis)))
		snprintf(abis, sizeof(abis), "%s", scn_kernel_abis(machine));
	if (cmdline_value("guest.shell", flag, sizeof(flag))) {
		struct scn_file st;

		enter_abi(strtok(abis, ","), boot, &st);
		shell();
	} else {
		char *save = NULL;

		for (char *abi = strtok_r(abis, ",", &save); abi; abi = strtok_r(NULL, ",", &save))
			run_abi(abi, boot);
		printf("1..%d\n# guest: done, %d ok, %d not ok\n", test_number, passed, failed);
	}
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
