// SPDX-License-Identifier: GPL-2.0
/*
 * faultfs-exec WHERE MODE PROGRAM [ARG...]: execute PROGRAM from a FUSE
 * file system whose reads fail at one byte of it, and print what the exec
 * returned:
 *
 *   fault_at=OFFSET exec=OK|ERRNO-NAME status=exit:N|SIGNAME
 *
 * with, for exec=OK, what PROGRAM printed before the last two words, and
 * how it ended (a page the program touches may still fail to read:
 * SIGBUS).  WHERE picks the byte, from
 * PROGRAM's own ELF headers:
 *
 *   phdrs        the last byte of the program headers
 *   after-phdrs  the first byte after them, which the kernel reads with
 *                the headers (the 256 bytes where linkers put notes)
 *   note         4 bytes into the first PT_NOTE segment that the kernel
 *                must read on its own (none of it within the headers and
 *                the 256 bytes after them)
 *   none         no byte: every read succeeds
 *
 * MODE is what a read that covers the byte gets: "eio" fails it with
 * EIO; "short" returns only the bytes before it, as a file system that
 * returns less than the file's size promises.
 *
 * The file is opened with FOPEN_DIRECT_IO and the mount has no
 * readahead, so each read the kernel makes is one FUSE read of exactly
 * that range: the fault hits the read that covers the byte, and no page
 * cache hides it.  Root only (it mounts); tests/scenarios/54-note-read-errors.scn
 * runs it.  A static program of its own: the FUSE protocol is
 * <linux/fuse.h>, and no libfuse is in the guest.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/fuse.h>

#define MOUNT_DIR "/tmp/faultfs"
#define FILE_NAME "prog"
#define FILE_NODE 2
/* The kernel reads this much past the program headers with them. */
#define HEADER_EXTRA 256
/* exec reads the file's first bytes before any binary format looks. */
#define BINPRM_BUF 256
#define NO_FAULT UINT64_MAX

static const char *errno_name(int err)
{
	switch (err) {
	case EIO: return "EIO";
	case ENOEXEC: return "ENOEXEC";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case ENOENT: return "ENOENT";
	case EINVAL: return "EINVAL";
	default: return "other";
	}
}

/* The program's bytes, served as /tmp/faultfs/prog. */
struct image {
	unsigned char *data;
	uint64_t size;
};

static int load_image(const char *path, struct image *img)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;

	if (fd < 0 || fstat(fd, &st)) {
		perror(path);
		return -1;
	}
	img->size = (uint64_t)st.st_size;
	img->data = malloc(img->size ? img->size : 1);
	if (!img->data || read(fd, img->data, img->size) != (ssize_t)img->size) {
		fprintf(stderr, "faultfs-exec: reading %s failed\n", path);
		return -1;
	}
	close(fd);
	return 0;
}

/* One program header of either class, as the few fields used here. */
struct seg {
	uint32_t type;
	uint64_t offset, filesz;
};

struct headers {
	uint64_t phoff, phsize;
	unsigned int phnum;
	struct seg seg[64];
};

static int read_headers(const struct image *img, struct headers *h)
{
	const unsigned char *d = img->data;
	int is64;

	if (img->size < sizeof(Elf32_Ehdr) || memcmp(d, ELFMAG, SELFMAG))
		return -1;
	is64 = d[EI_CLASS] == ELFCLASS64;
	if (is64) {
		const Elf64_Ehdr *e = (const void *)d;

		h->phoff = e->e_phoff;
		h->phnum = e->e_phnum;
		h->phsize = (uint64_t)e->e_phnum * e->e_phentsize;
	} else {
		const Elf32_Ehdr *e = (const void *)d;

		h->phoff = e->e_phoff;
		h->phnum = e->e_phnum;
		h->phsize = (uint64_t)e->e_phnum * e->e_phentsize;
	}
	if (h->phnum > 64 || h->phoff > img->size || h->phsize > img->size - h->phoff)
		return -1;
	for (unsigned int i = 0; i < h->phnum; i++) {
		const unsigned char *p = d + h->phoff;

		if (is64) {
			const Elf64_Phdr *ph = (const Elf64_Phdr *)p + i;

			h->seg[i] = (struct seg){ ph->p_type, ph->p_offset, ph->p_filesz };
		} else {
			const Elf32_Phdr *ph = (const Elf32_Phdr *)p + i;

			h->seg[i] = (struct seg){ ph->p_type, ph->p_offset, ph->p_filesz };
		}
	}
	return 0;
}

/* The byte WHERE names, or NO_FAULT; -1 when the program has no such byte. */
static int fault_offset(const struct image *img, const char *where, uint64_t *at)
{
	struct headers h;
	uint64_t window_end;

	*at = NO_FAULT;
	if (!strcmp(where, "none"))
		return 0;
	if (read_headers(img, &h))
		return -1;
	window_end = h.phoff + h.phsize + HEADER_EXTRA;
	if (!strcmp(where, "phdrs"))
		*at = h.phoff + h.phsize - 1;
	else if (!strcmp(where, "after-phdrs"))
		*at = h.phoff + h.phsize;
	else if (!strcmp(where, "note")) {
		for (unsigned int i = 0; i < h.phnum && *at == NO_FAULT; i++) {
			const struct seg *s = &h.seg[i];

			if (s->type == PT_NOTE && s->filesz > 4 &&
			    (s->offset >= window_end || s->offset + s->filesz <= h.phoff))
				*at = s->offset + 4;
		}
	}
	/* A byte exec reads first would fail it before binfmt_elf reads anything. */
	return *at < img->size && *at >= BINPRM_BUF ? 0 : -1;
}

/* --- the FUSE server --------------------------------------------------- */

struct server {
	int fd;
	const struct image *img;
	uint64_t fault_at;
	int short_reads;	/* 1: a faulting read returns the bytes before the byte */
};

static void reply(int fd, uint64_t unique, int error, const void *data, size_t len)
{
	struct fuse_out_header out = {
		.len = (uint32_t)(sizeof(out) + (error ? 0 : len)),
		.error = error,
		.unique = unique,
	};
	struct iovec iov[2] = { { &out, sizeof(out) }, { (void *)data, error ? 0 : len } };

	/* An interrupted request's reply may be refused: nothing to do then. */
	if (writev(fd, iov, 2) < 0 && errno != ENOENT)
		perror("faultfs-exec: reply");
}

static void fill_attr(const struct server *srv, uint64_t node, struct fuse_attr *a)
{
	memset(a, 0, sizeof(*a));
	a->ino = node;
	if (node == FILE_NODE) {
		a->mode = S_IFREG | 0755;
		a->nlink = 1;
		a->size = srv->img->size;
		a->blocks = (srv->img->size + 511) / 512;
	} else {
		a->mode = S_IFDIR | 0755;
		a->nlink = 2;
	}
}

static void do_init(struct server *srv, const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_init_in *init = arg;
	struct fuse_init_out out = {
		.major = FUSE_KERNEL_VERSION,
		.minor = init->minor < FUSE_KERNEL_MINOR_VERSION ? init->minor
								  : FUSE_KERNEL_MINOR_VERSION,
		.max_readahead = 0,
		.max_write = 4096,
	};

	reply(srv->fd, in->unique, 0, &out, sizeof(out));
}

static void do_lookup(struct server *srv, const struct fuse_in_header *in, const char *name)
{
	struct fuse_entry_out out;

	if (in->nodeid != FUSE_ROOT_ID || strcmp(name, FILE_NAME)) {
		reply(srv->fd, in->unique, -ENOENT, NULL, 0);
		return;
	}
	memset(&out, 0, sizeof(out));
	out.nodeid = FILE_NODE;
	out.entry_valid = out.attr_valid = 3600;
	fill_attr(srv, FILE_NODE, &out.attr);
	reply(srv->fd, in->unique, 0, &out, sizeof(out));
}

static void do_getattr(struct server *srv, const struct fuse_in_header *in)
{
	struct fuse_attr_out out;

	memset(&out, 0, sizeof(out));
	out.attr_valid = 3600;
	fill_attr(srv, in->nodeid, &out.attr);
	reply(srv->fd, in->unique, 0, &out, sizeof(out));
}

static void do_open(struct server *srv, const struct fuse_in_header *in)
{
	struct fuse_open_out out = { .open_flags = FOPEN_DIRECT_IO };

	reply(srv->fd, in->unique, 0, &out, sizeof(out));
}

static void do_read(struct server *srv, const struct fuse_in_header *in, const void *arg)
{
	const struct fuse_read_in *rd = arg;
	uint64_t off = rd->offset, end = rd->offset + rd->size, size = srv->img->size;

	if (off > size)
		off = size;
	if (end > size)
		end = size;
	if (srv->fault_at >= off && srv->fault_at < end) {
		if (!srv->short_reads) {
			reply(srv->fd, in->unique, -EIO, NULL, 0);
			return;
		}
		end = srv->fault_at;
	}
	reply(srv->fd, in->unique, 0, srv->img->data + off, (size_t)(end - off));
}

/* Serves requests until the connection ends (ENODEV) or it is killed. */
static void serve(struct server *srv)
{
	static char buf[FUSE_MIN_READ_BUFFER + 128 * 1024];

	for (;;) {
		ssize_t n = read(srv->fd, buf, sizeof(buf));
		const struct fuse_in_header *in = (const void *)buf;
		const void *arg = buf + sizeof(*in);

		if (n < 0 && (errno == EINTR || errno == ENOENT))
			continue;
		if (n < (ssize_t)sizeof(*in))
			return;
		switch (in->opcode) {
		case FUSE_INIT:
			do_init(srv, in, arg);
			break;
		case FUSE_LOOKUP:
			do_lookup(srv, in, arg);
			break;
		case FUSE_GETATTR:
			do_getattr(srv, in);
			break;
		case FUSE_OPEN:
			do_open(srv, in);
			break;
		case FUSE_READ:
			do_read(srv, in, arg);
			break;
		case FUSE_FORGET:
		case FUSE_BATCH_FORGET:
		case FUSE_INTERRUPT:
			break;	/* no reply */
		case FUSE_RELEASE:
		case FUSE_FLUSH:
		case FUSE_DESTROY:
			reply(srv->fd, in->unique, 0, NULL, 0);
			break;
		default:	/* getxattr and the rest: not supported */
			reply(srv->fd, in->unique, -ENOSYS, NULL, 0);
			break;
		}
	}
}

static int mount_faultfs(int *fd)
{
	char opts[160];

	if (mkdir(MOUNT_DIR, 0755) && errno != EEXIST)
		return -1;
	if (access("/dev/fuse", F_OK) && mknod("/dev/fuse", S_IFCHR | 0666, makedev(10, 229)))
		return -1;
	*fd = open("/dev/fuse", O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -1;
	snprintf(opts, sizeof(opts),
		 "fd=%d,rootmode=40000,user_id=0,group_id=0,default_permissions,allow_other", *fd);
	return mount("faultfs", MOUNT_DIR, "fuse", MS_NODEV, opts);
}

static const char *signal_name(int sig)
{
	switch (sig) {
	case SIGBUS: return "SIGBUS";
	case SIGSEGV: return "SIGSEGV";
	case SIGKILL: return "SIGKILL";
	default: return "other";
	}
}

/*
 * Executes the served file with argv; returns 0 or the exec's errno, and
 * the child's wait status in *status.
 */
static int exec_served(char **argv, int *status)
{
	int pipefd[2], err = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return errno;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(MOUNT_DIR "/" FILE_NAME, argv);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) != sizeof(err))
			_exit(126);
		_exit(127);
	}
	close(pipefd[1]);
	if (pid < 0 || read(pipefd[0], &err, sizeof(err)) != sizeof(err))
		err = pid < 0 ? errno : 0;
	close(pipefd[0]);
	if (pid > 0 && waitpid(pid, status, 0) < 0)
		*status = 0;
	return err;
}

int main(int argc, char **argv)
{
	struct image img;
	struct server srv = { .fd = -1, .img = &img };
	pid_t server;
	int err, status = 0;

	if (argc < 4 || (strcmp(argv[2], "eio") && strcmp(argv[2], "short"))) {
		fprintf(stderr, "usage: faultfs-exec phdrs|after-phdrs|note|none eio|short PROGRAM [ARG...]\n");
		return 2;
	}
	srv.short_reads = !strcmp(argv[2], "short");
	if (load_image(argv[3], &img))
		return 2;
	if (fault_offset(&img, argv[1], &srv.fault_at)) {
		fprintf(stderr, "faultfs-exec: %s has no byte for '%s'\n", argv[3], argv[1]);
		return 2;
	}
	if (mount_faultfs(&srv.fd)) {
		perror("faultfs-exec: mounting " MOUNT_DIR);
		return 2;
	}
	server = fork();
	if (server == 0) {
		serve(&srv);
		_exit(0);
	}
	close(srv.fd);
	if (srv.fault_at == NO_FAULT)
		printf("fault_at=none ");
	else
		printf("fault_at=%llu ", (unsigned long long)srv.fault_at);
	err = exec_served(argv + 3, &status);
	printf("exec=%s ", err ? errno_name(err) : "OK");
	if (WIFSIGNALED(status))
		printf("status=%s\n", signal_name(WTERMSIG(status)));
	else
		printf("status=exit:%d\n", WEXITSTATUS(status));
	fflush(stdout);
	/* The server's work is done: it need not see the unmount. */
	if (server > 0) {
		kill(server, SIGKILL);
		waitpid(server, NULL, 0);
	}
	if (umount2(MOUNT_DIR, MNT_DETACH))
		perror("faultfs-exec: unmounting " MOUNT_DIR);
	return 0;
}
