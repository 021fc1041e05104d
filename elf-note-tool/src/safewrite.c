// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE	/* O_TMPFILE, linkat(AT_EMPTY_PATH) */
#include "safewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/xattr.h>
#include <unistd.h>

/*
 * The test build can make any step fail (ELFNOTE_FAIL_AT=step), so the
 * tests can prove that every failure leaves the original as it was and
 * no file behind.
 */
#ifdef ELFNOTE_FAULT_INJECTION
static bool injected(const char *step)
{
	const char *at = getenv("ELFNOTE_FAIL_AT");

	if (!at || strcmp(at, step))
		return false;
	errno = EIO;
	return true;
}
#else
static bool injected(const char *step)
{
	(void)step;
	return false;
}
#endif

/* Inode flags the new file keeps; the ones refused are in check_flags(). */
#define KEPT_FLAGS (FS_SYNC_FL | FS_NODUMP_FL | FS_NOATIME_FL)

static bool fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return false;
}

/*
 * All len bytes from offset 0, read (pread) or written (pwrite); false
 * with errno, EIO for a file that ended early or took nothing.
 */
static bool transfer(int fd, unsigned char *buf, size_t len, bool out)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = out ? pwrite(fd, buf + done, len - done, (off_t)done) :
				  pread(fd, buf + done, len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!n)
				errno = EIO;
			return false;
		}
		done += (size_t)n;
	}
	return true;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino && a->st_size == b->st_size &&
	       a->st_mtim.tv_sec == b->st_mtim.tv_sec && a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	       a->st_ctim.tv_sec == b->st_ctim.tv_sec && a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

static bool copied_xattr(const char *name)
{
	static const char *const prefixes[] = {
		"security.", "trusted.", "user.", "system.posix_acl_access", "system.nfs4_acl",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* The xattr names of fd, NUL-separated, in *list (NULL when none). */
static ssize_t list_xattrs(int fd, char **list)
{
	ssize_t n = flistxattr(fd, NULL, 0);

	*list = NULL;
	if (n < 0 && (errno == ENOTSUP || errno == ENOSYS))
		return 0;
	if (n <= 0)
		return n;
	*list = malloc((size_t)n);
	if (!*list)
		return -1;
	return flistxattr(fd, *list, (size_t)n);
}

/* One xattr's value, malloc'd, in *val; its size, or -1. */
static ssize_t get_xattr(int fd, const char *name, char **val)
{
	ssize_t n = fgetxattr(fd, name, NULL, 0);

	*val = NULL;
	if (n < 0)
		return -1;
	*val = malloc(n ? (size_t)n : 1);
	if (!*val)
		return -1;
	if (fgetxattr(fd, name, *val, (size_t)n) != n) {
		free(*val);
		*val = NULL;
		return -1;
	}
	return n;
}

/*
 * Whether fd's xattr name is the same as on other: with copy, make it so
 * (set it, or remove it where other has none).
 */
static bool match_xattr(int other, int fd, const char *name, bool copy, char *why, size_t whylen)
{
	char *want, *got;
	ssize_t n = get_xattr(other, name, &want), m;
	bool same;

	if (n < 0 && errno != ENODATA) {
		free(want);
		return fail(why, whylen, "cannot read extended attribute %s: %s", name, strerror(errno));
	}
	m = get_xattr(fd, name, &got);
	same = n == m && (n < 0 || !memcmp(want, got, (size_t)n));
	free(got);
	errno = 0;
	if (!same && copy && !injected("xattr"))
		same = n < 0 ? !fremovexattr(fd, name) : !fsetxattr(fd, name, want, (size_t)n, 0);
	free(want);
	if (!same)
		return fail(why, whylen, "cannot %s extended attribute %s%s%s", copy ? "copy" : "keep",
			    name, errno ? ": " : " (differs)", errno ? strerror(errno) : "");
	return true;
}

/*
 * Every copied xattr of either file made (with copy) or checked to be the
 * original's: a new file may inherit a default ACL from its directory,
 * which would let others run a program the original kept from them.
 */
static bool xattrs(int orig, int tmp, bool copy, char *why, size_t whylen)
{
	int fds[2] = { orig, tmp };
	bool ok = true;

	for (int i = 0; i < 2 && ok; i++) {
		char *list;
		ssize_t n = list_xattrs(fds[i], &list);

		if (n < 0)
			return fail(why, whylen, "cannot list extended attributes: %s", strerror(errno));
		for (char *name = list; ok && name && name < list + n; name += strlen(name) + 1)
			if (copied_xattr(name))
				ok = match_xattr(orig, tmp, name, copy, why, whylen);
		free(list);
	}
	return ok;
}

/* What a rewrite cannot keep, refused up front. */
static bool check_signatures(int fd, char *why, size_t whylen)
{
	static const char *const signed_by[] = { "security.ima", "security.evm" };

	for (size_t i = 0; i < 2; i++)
		if (fgetxattr(fd, signed_by[i], NULL, 0) >= 0)
			return fail(why, whylen, "signed (%s): new contents would not match; stamp before signing",
				    signed_by[i]);
	return true;
}

static bool check_flags(int fd, int *flags, char *why, size_t whylen)
{
	*flags = 0;
	if (ioctl(fd, FS_IOC_GETFLAGS, flags)) {
		*flags = 0;
		return true;	/* a filesystem without inode flags */
	}
	if (*flags & (FS_IMMUTABLE_FL | FS_APPEND_FL))
		return fail(why, whylen, "immutable or append-only (chattr -i/-a first)");
	if (*flags & FS_VERITY_FL)
		return fail(why, whylen, "protected by fs-verity, which a new file would lose");
	return true;
}

/* As root, only in a directory no one else may change (or a sticky one). */
static bool check_dir(const struct target *t, char *why, size_t whylen)
{
	struct stat dst;

	if (fstat(t->dirfd, &dst))
		return fail(why, whylen, "%s: %s", t->dir, strerror(errno));
	if (geteuid() != 0)
		return true;
	if (dst.st_uid != 0 || ((dst.st_mode & (S_IWGRP | S_IWOTH)) && !(dst.st_mode & S_ISVTX)))
		return fail(why, whylen, "its directory %s may be changed by others than root: not replacing files there as root",
			    t->dir);
	return true;
}

/* Splits path into t->dir and t->name, and opens the directory. */
static bool open_dir(const char *path, struct target *t, char *why, size_t whylen)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	if (!*base || !strcmp(base, ".") || !strcmp(base, ".."))
		return fail(why, whylen, "not a file name");
	t->name = strdup(base);
	t->dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	t->path = strdup(path);
	if (!t->name || !t->dir || !t->path)
		return fail(why, whylen, "out of memory");
	t->dirfd = open(t->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0)
		return fail(why, whylen, "%s: %s", t->dir, strerror(errno));
	return true;
}

/* The file itself: a regular file, opened for reading. */
static bool open_file(struct target *t, bool follow, char *why, size_t whylen)
{
	struct stat lst;

	if (fstatat(t->dirfd, t->name, &lst, AT_SYMLINK_NOFOLLOW))
		return fail(why, whylen, "%s", strerror(errno));
	if (S_ISLNK(lst.st_mode))
		return fail(why, whylen, follow ? "changed while being opened" :
			    "a symbolic link: not written through (--follow-symlinks edits its target)");
	if (!S_ISREG(lst.st_mode))
		return fail(why, whylen, "not a regular file");
	t->fd = openat(t->dirfd, t->name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (t->fd < 0 || fstat(t->fd, &t->st))
		return fail(why, whylen, "%s", strerror(errno));
	if (!same_file(&lst, &t->st))
		return fail(why, whylen, "changed while being opened");
	return true;
}

bool target_replaceable(struct target *t, char *why, size_t whylen)
{
	if (!check_dir(t, why, whylen))
		return false;
	if (t->st.st_nlink > 1)
		return fail(why, whylen, "has %ju hard links: replacing it would leave the others with the old contents",
			    (uintmax_t)t->st.st_nlink);
	if (!check_signatures(t->fd, why, whylen) || !check_flags(t->fd, &t->flags, why, whylen))
		return false;
	if (faccessat(t->dirfd, t->name, W_OK, AT_EACCESS | AT_SYMLINK_NOFOLLOW))
		return fail(why, whylen, "cannot be written by you: %s", strerror(errno));
	return true;
}

bool target_open(const char *path, bool follow, struct target *t, char *why, size_t whylen)
{
	char *resolved = NULL;
	bool ok;

	memset(t, 0, sizeof(*t));
	t->dirfd = t->fd = -1;
	if (follow) {
		resolved = realpath(path, NULL);
		if (!resolved)
			return fail(why, whylen, "%s", strerror(errno));
		path = resolved;
	}
	ok = open_dir(path, t, why, whylen) && open_file(t, follow, why, whylen);
	free(resolved);
	if (!ok)
		return false;
	t->len = (size_t)t->st.st_size;
	t->image = malloc(t->len ? t->len : 1);
	if (!t->image)
		return fail(why, whylen, "out of memory");
	if (!transfer(t->fd, t->image, t->len, false))
		return fail(why, whylen, "read error: %s", strerror(errno));
	return true;
}

/* Owner, xattrs, inode flags, then mode (see safewrite.h for the order). */
static bool give_attributes(struct target *t, int tmp, char *why, size_t whylen)
{
	struct stat st;
	int flags;

	errno = 0;
	if (injected("chown") || fchown(tmp, t->st.st_uid, t->st.st_gid))
		return fail(why, whylen, "cannot give the new file the owner %ju:%ju: %s",
			    (uintmax_t)t->st.st_uid, (uintmax_t)t->st.st_gid, strerror(errno));
	if (!xattrs(t->fd, tmp, true, why, whylen))
		return false;
	if ((t->flags & KEPT_FLAGS) &&
	    (ioctl(tmp, FS_IOC_GETFLAGS, &flags) ||
	     (flags = (flags & ~KEPT_FLAGS) | (t->flags & KEPT_FLAGS),
	      ioctl(tmp, FS_IOC_SETFLAGS, &flags))))
		return fail(why, whylen, "cannot keep the inode flags: %s", strerror(errno));
	if (injected("chmod") || fchmod(tmp, t->st.st_mode & 07777))
		return fail(why, whylen, "cannot set mode %04o: %s", t->st.st_mode & 07777,
			    strerror(errno));
	if (fstat(tmp, &st) || (st.st_mode & 07777) != (t->st.st_mode & 07777) ||
	    st.st_uid != t->st.st_uid || st.st_gid != t->st.st_gid)
		return fail(why, whylen, "the new file did not keep owner %ju:%ju and mode %04o",
			    (uintmax_t)t->st.st_uid, (uintmax_t)t->st.st_gid, t->st.st_mode & 07777);
	return true;
}

/* After fsync: the bytes, the attributes, and the original unchanged. */
static bool verify(struct target *t, int tmp, const unsigned char *image, size_t len,
		   char *why, size_t whylen)
{
	unsigned char *back = malloc(len ? len : 1);
	struct stat st;
	bool same;

	if (!back)
		return fail(why, whylen, "out of memory");
	same = !injected("verify") && transfer(tmp, back, len, false) && !memcmp(back, image, len) &&
	       !fstat(tmp, &st) && (size_t)st.st_size == len;
	free(back);
	if (!same)
		return fail(why, whylen, "the new file does not read back as written");
	if (!xattrs(t->fd, tmp, false, why, whylen))
		return false;
	if (fstatat(t->dirfd, t->name, &st, AT_SYMLINK_NOFOLLOW) || !same_file(&st, &t->st))
		return fail(why, whylen, "changed by someone else while being edited; not replaced");
	return true;
}

/*
 * The new file, unnamed where the filesystem allows (a crash leaves
 * nothing), else under a fresh hidden name in *named.
 */
static int create_tmp(struct target *t, char *named, size_t len)
{
	int fd;

	named[0] = '\0';
	if (injected("create"))
		return -1;
	fd = openat(t->dirfd, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	for (int tries = 0; tries < 100; tries++) {
		snprintf(named, len, ".%.200s.elfnote-%08x", t->name, (unsigned int)random());
		fd = openat(t->dirfd, named, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0)
		named[0] = '\0';
	return fd;
}

/* A name for an unnamed file: with CAP_DAC_READ_SEARCH, or through /proc. */
static int name_tmp(struct target *t, int tmp, char *named, size_t len)
{
	char proc[64];

	for (int tries = 0; tries < 100; tries++) {
		snprintf(named, len, ".%.200s.elfnote-%08x", t->name, (unsigned int)random());
		if (!linkat(tmp, "", t->dirfd, named, AT_EMPTY_PATH))
			return 0;
		if (errno == ENOENT || errno == EPERM) {
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", tmp);
			if (!linkat(AT_FDCWD, proc, t->dirfd, named, AT_SYMLINK_FOLLOW))
				return 0;
		}
		if (errno != EEXIST)
			break;
	}
	named[0] = '\0';
	return -1;
}

/* Names the new file (if unnamed) and renames it over the original. */
static bool put_in_place(struct target *t, int tmp, char *named, size_t len,
			 char *why, size_t whylen)
{
	sigset_t all, old;
	bool ok = true;

	/* No interrupt between naming a setuid file and renaming it. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	if (!named[0] && name_tmp(t, tmp, named, len))
		ok = fail(why, whylen, "cannot name the new file in %s: %s", t->dir, strerror(errno));
	if (ok && (injected("rename") || renameat(t->dirfd, named, t->dirfd, t->name)))
		ok = fail(why, whylen, "cannot rename %s/%s over it: %s", t->dir, named, strerror(errno));
	if (!ok && named[0] && unlinkat(t->dirfd, named, 0) && errno != ENOENT) {
		size_t used = strlen(why);

		snprintf(why + used, whylen - used, "; and %s/%s could not be removed", t->dir, named);
	} else if (ok) {
		named[0] = '\0';
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ok;
}

bool target_replace(struct target *t, const unsigned char *image, size_t len,
		    char *why, size_t whylen)
{
	char named[NAME_MAX + 1];
	bool ok;
	int tmp = create_tmp(t, named, sizeof(named));

	if (tmp < 0)
		return fail(why, whylen, "cannot create a temporary file in %s: %s", t->dir, strerror(errno));
	ok = !injected("write") && transfer(tmp, (unsigned char *)image, len, true);
	if (!ok)
		fail(why, whylen, "cannot write the new file: %s", strerror(errno));
	ok = ok && give_attributes(t, tmp, why, whylen);
	if (ok && (injected("fsync") || fsync(tmp)))
		ok = fail(why, whylen, "cannot sync the new file: %s", strerror(errno));
	ok = ok && verify(t, tmp, image, len, why, whylen);
	/* The tests kill the process here: an unnamed file leaves nothing. */
	if (ok && injected("kill"))
		raise(SIGKILL);
	ok = ok && put_in_place(t, tmp, named, sizeof(named), why, whylen);
	close(tmp);
	if (!ok && named[0])
		unlinkat(t->dirfd, named, 0);
	if (ok && fsync(t->dirfd))
		ok = fail(why, whylen, "replaced, but %s could not be synced: %s", t->dir, strerror(errno));
	return ok;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t->path);
	free(t->dir);
	free(t->name);
	free(t->image);
	memset(t, 0, sizeof(*t));
	t->dirfd = t->fd = -1;
}
