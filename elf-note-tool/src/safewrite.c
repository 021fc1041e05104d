// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "safewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

/*
 * The test build can make any step fail (ELFNOTE_FAIL_AT=step), so the
 * tests can prove that every failure leaves the original as it was and
 * no temporary file behind.
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

static bool fail(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return false;
}

static bool read_all(int fd, unsigned char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		done += (size_t)n;
	}
	return true;
}

static bool write_all(int fd, const unsigned char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, buf + done, len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
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

static bool check_kind(const char *path, bool follow, struct target *t, char *why, size_t whylen)
{
	struct stat lst;

	if (lstat(path, &lst))
		return fail(why, whylen, "%s", strerror(errno));
	if (S_ISLNK(lst.st_mode) && !follow)
		return fail(why, whylen, "a symbolic link: not written through (--follow-symlinks edits its target)");
	t->path = realpath(path, NULL);
	if (!t->path)
		return fail(why, whylen, "%s", strerror(errno));
	return true;
}

bool target_open(const char *path, bool follow, struct target *t, char *why, size_t whylen)
{
	struct stat lst;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (!check_kind(path, follow, t, why, whylen))
		return false;
	t->fd = open(t->path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (t->fd < 0 || fstat(t->fd, &t->st))
		return fail(why, whylen, "%s", strerror(errno));
	if (!S_ISREG(t->st.st_mode))
		return fail(why, whylen, "not a regular file");
	if (t->st.st_nlink > 1)
		return fail(why, whylen, "has %ju hard links: replacing it would leave the others with the old contents",
			    (uintmax_t)t->st.st_nlink);
	if (faccessat(AT_FDCWD, t->path, W_OK, AT_EACCESS))
		return fail(why, whylen, "cannot be written by you: %s", strerror(errno));
	if (lstat(t->path, &lst) || !same_file(&lst, &t->st))
		return fail(why, whylen, "changed while being opened");
	t->len = (size_t)t->st.st_size;
	t->image = malloc(t->len ? t->len : 1);
	if (!t->image)
		return fail(why, whylen, "out of memory");
	if (!read_all(t->fd, t->image, t->len))
		return fail(why, whylen, "read error: %s", errno ? strerror(errno) : "file shrank");
	return true;
}

static bool copied_xattr(const char *name)
{
	static const char *const prefixes[] = {
		"security.", "trusted.", "user.", "system.posix_acl_access",
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

/* Copies (or with check, compares) every copied xattr from src to dst. */
static bool xattrs(int src, int dst, bool check, char *why, size_t whylen)
{
	char *list, *val = NULL, *got = NULL;
	ssize_t n = list_xattrs(src, &list);
	bool ok = n >= 0;

	if (!ok)
		fail(why, whylen, "cannot list extended attributes: %s", strerror(errno));
	for (char *name = list; ok && name && name < list + n; name += strlen(name) + 1) {
		ssize_t vlen;

		if (!copied_xattr(name))
			continue;
		vlen = fgetxattr(src, name, NULL, 0);
		free(val);
		free(got);
		val = malloc(vlen > 0 ? (size_t)vlen : 1);
		got = malloc(vlen > 0 ? (size_t)vlen : 1);
		ok = vlen >= 0 && val && got && fgetxattr(src, name, val, (size_t)vlen) == vlen;
		if (ok && check)
			ok = fgetxattr(dst, name, got, (size_t)vlen) == vlen &&
			     !memcmp(val, got, (size_t)vlen);
		else if (ok)
			ok = !injected("xattr") && !fsetxattr(dst, name, val, (size_t)vlen, 0);
		if (!ok)
			fail(why, whylen, "cannot %s extended attribute %s: %s",
			     check ? "keep" : "copy", name, errno ? strerror(errno) : "differs");
	}
	free(list);
	free(val);
	free(got);
	return ok;
}

static bool dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;

	if (n + 2 > len)
		return false;
	memcpy(dir, path, n);
	dir[n ? n : 1] = '\0';
	if (!n)
		dir[0] = slash ? '/' : '.';
	return true;
}

/* Owner, xattrs, then mode (see safewrite.h for why in this order). */
static bool give_attributes(struct target *t, int tmp, char *why, size_t whylen)
{
	struct stat st;

	errno = 0;
	if (injected("chown") || fchown(tmp, t->st.st_uid, t->st.st_gid))
		return fail(why, whylen, "cannot give the new file the owner %ju:%ju: %s",
			    (uintmax_t)t->st.st_uid, (uintmax_t)t->st.st_gid, strerror(errno));
	if (!xattrs(t->fd, tmp, false, why, whylen))
		return false;
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
	same = !injected("verify") && read_all(tmp, back, len) && !memcmp(back, image, len) &&
	       !fstat(tmp, &st) && (size_t)st.st_size == len;
	free(back);
	if (!same)
		return fail(why, whylen, "the new file does not read back as written");
	if (!xattrs(t->fd, tmp, true, why, whylen))
		return false;
	if (lstat(t->path, &st) || !same_file(&st, &t->st))
		return fail(why, whylen, "changed by someone else while being edited; not replaced");
	return true;
}

static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

bool target_replace(struct target *t, const unsigned char *image, size_t len,
		    char *why, size_t whylen)
{
	char dir[PATH_MAX], tmpname[PATH_MAX];
	const char *base = strrchr(t->path, '/') ? strrchr(t->path, '/') + 1 : t->path;
	bool ok;
	int tmp;

	if (!dir_of(t->path, dir, sizeof(dir)) ||
	    snprintf(tmpname, sizeof(tmpname), "%s/.%s.elfnote-XXXXXX", dir, base) >= (int)sizeof(tmpname))
		return fail(why, whylen, "path too long");
	tmp = injected("create") ? -1 : mkostemp(tmpname, O_CLOEXEC);
	if (tmp < 0)
		return fail(why, whylen, "cannot create a temporary file in %s: %s", dir, strerror(errno));
	ok = !injected("write") && write_all(tmp, image, len);
	if (!ok)
		fail(why, whylen, "cannot write %s: %s", tmpname, strerror(errno));
	ok = ok && give_attributes(t, tmp, why, whylen);
	if (ok && (injected("fsync") || fsync(tmp)))
		ok = fail(why, whylen, "cannot sync %s: %s", tmpname, strerror(errno));
	ok = ok && verify(t, tmp, image, len, why, whylen);
	if (ok && (injected("rename") || rename(tmpname, t->path)))
		ok = fail(why, whylen, "cannot rename %s over it: %s", tmpname, strerror(errno));
	close(tmp);
	if (!ok)
		unlink(tmpname);
	else
		sync_dir(dir);
	return ok;
}

void target_close(struct target *t)
{
	if (t->fd >= 0)
		close(t->fd);
	free(t->path);
	free(t->image);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}
