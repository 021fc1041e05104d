// SPDX-License-Identifier: GPL-2.0
/*
 * elfnote scan: walk trees and list the ELF executables that run with
 * raised privilege (setuid, setgid, file capabilities), or with --all
 * every ELF executable, with their exec policy note.
 *
 * The walk is our own, with openat() and getdents64(), rather than
 * fts(3) or nftw(3): both lstat() every entry, and a scan --all of /usr
 * then spends a third of its time in stat calls it does not need (the
 * entry's d_type says which entries are regular files, and opening one
 * tells the rest).  What they get right is kept:
 *
 *  - a bounded number of descriptors at any depth: a directory keeps its
 *    descriptor only while it is one of the FD_BUDGET deepest on the
 *    walk; an older one is closed and reopened on the way back through
 *    ".." of its child, checked to be the same device and inode, so a
 *    tree moved during the scan stops that DIR with an error instead of
 *    walking somewhere else;
 *  - no limit on depth or path length: the stack is on the heap, and
 *    every call names an entry relative to its directory, never by the
 *    full path (which is only printed);
 *  - symlinks are entries, never followed (O_NOFOLLOW where we open);
 *    only a DIR given on the command line is, as find -H does;
 *  - one filesystem: a directory on another mount is not entered (its
 *    statx() mount id differs; or, on kernels without mount ids, its
 *    device), which covers bind mounts too and so leaves no cycle to
 *    detect.
 *
 * Cost per regular file: an fstatat(), and that is all for a file
 * without an execute bit (no one can execute it, root included, so it is
 * not an executable whatever its header says or its other bits are).
 * Then, without --all, the capability xattr unless the mode already makes
 * it a candidate.  Candidates (privileged files, or with --all every one
 * left) cost openat() + pread() of 64 bytes + close(), and only ELF
 * executables go through libelf, which reads the ELF header, program
 * headers and notes with pread(): never a whole file.
 */
#define _GNU_SOURCE	/* O_NOATIME, getdents64(), statx() */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "command.h"
#include "elffile.h"
#include "exit.h"
#include "json.h"
#include "names.h"
#include "verdict.h"

/* What the kernel reads for file capabilities (XATTR_NAME_CAPS). */
#define CAPS_XATTR	"security.capability"

/*
 * The text listing is sorted by path and its columns are as wide as their
 * longest value, so it is printed once the walk is done; JSON Lines, read
 * as they come, stay in walk order.
 */
enum { COL_MODE, COL_OWNER, COL_GROUP, COL_PRIVILEGE, COL_STATUS, COL_STACK, COL_GAP, COL_CAPS,
       TEXT_COLUMNS };

struct text_row {
	const char *col[TEXT_COLUMNS];
	const char *path;
	char *text;		/* one allocation: the columns and the path */
};

struct scan {
	bool json;
	bool all;
	bool failed;		/* something could not be read: exit 4 */
	bool noatime;		/* open with O_NOATIME (root; dropped on EPERM) */
	uid_t euid;
	struct text_row *rows;	/* the text listing, printed sorted at the end */
	size_t nrows, rows_cap;
};

/*
 * uid and gid to name.  getpwuid() reads /etc/passwd on every call (or
 * asks NSS), and a scan of /usr --all lists thousands of files nearly all
 * owned by root, so names are remembered in a small direct-mapped cache.
 */
#define NAME_CACHE	64
#define NAME_MAX_LEN	256

struct name_slot {
	bool valid;
	unsigned int id;
	char name[NAME_MAX_LEN];
};

static struct name_slot user_cache[NAME_CACHE], group_cache[NAME_CACHE];

static const char *id_name(struct name_slot *cache, unsigned int id, bool group)
{
	struct name_slot *slot = &cache[id % NAME_CACHE];
	const char *name = NULL;

	if (slot->valid && slot->id == id)
		return slot->name;
	if (group) {
		struct group *gr = getgrgid((gid_t)id);

		name = gr ? gr->gr_name : NULL;
	} else {
		struct passwd *pw = getpwuid((uid_t)id);

		name = pw ? pw->pw_name : NULL;
	}
	/* No name, or one too long to be real: the number, as ls -l does. */
	if (!name || strlen(name) >= NAME_MAX_LEN)
		snprintf(slot->name, sizeof(slot->name), "%u", id);
	else
		memcpy(slot->name, name, strlen(name) + 1);
	slot->valid = true;
	slot->id = id;
	return slot->name;
}

static void report_error(struct scan *s, const char *path, const char *why)
{
	struct elf_report r = { .verdict = ELF_IO_ERROR };

	s->failed = true;
	name_error(path, "%s", why);
	if (!s->json)
		return;
	snprintf(r.reason, sizeof(r.reason), "%s", why);
	verdict_json_line(stdout, path, &r);
}

/*
 * errno for an entry the walk found in its directory.  One removed since
 * (ENOENT) is no error: a live system's temporary files come and go, and
 * what no longer exists runs nothing.
 */
static void report_entry_error(struct scan *s, const char *path)
{
	if (errno != ENOENT)
		report_error(s, path, strerror(errno));
}

/* One file to list: the descriptor's stat (what was inspected), and more. */
struct listing {
	const char *path;
	struct stat st;
	const char *caps;	/* cap_to_text(), NULL for none */
	struct elf_report r;
};

/* Linux ignores the setgid bit of a file its group cannot execute. */
static bool setgid_ignored(mode_t mode)
{
	return (mode & S_ISGID) && !(mode & S_IXGRP);
}

static const char *privilege_name(mode_t mode)
{
	bool sgid = mode & S_ISGID, ign = setgid_ignored(mode);

	if (mode & S_ISUID)
		return !sgid ? "setuid" : ign ? "setuid,setgid-ignored" : "setuid,setgid";
	if (sgid)
		return ign ? "setgid-ignored" : "setgid";
	return "-";
}

static void print_json(const struct listing *l)
{
	const struct stat *st = &l->st;
	char mode[8];

	snprintf(mode, sizeof(mode), "%04o", (unsigned int)(st->st_mode & 07777));
	putchar('{');
	verdict_json(stdout, l->path, &l->r);
	fputs(",\"owner\":", stdout);
	json_string(stdout, id_name(user_cache, st->st_uid, false));
	fputs(",\"group\":", stdout);
	json_string(stdout, id_name(group_cache, st->st_gid, true));
	printf(",\"uid\":%u,\"gid\":%u,\"mode\":",
	       (unsigned int)st->st_uid, (unsigned int)st->st_gid);
	json_string(stdout, mode);
	printf(",\"setuid\":%s,\"setgid\":%s,\"setgid_ignored\":%s,\"capabilities\":",
	       st->st_mode & S_ISUID ? "true" : "false", st->st_mode & S_ISGID ? "true" : "false",
	       setgid_ignored(st->st_mode) ? "true" : "false");
	json_string(stdout, l->caps ? l->caps : "");
	fputs("}\n", stdout);
}

/* A request in bytes, or "-" for none. */
static void request_text(const struct elf_report *r, uint64_t v, char *buf, size_t len)
{
	if (r->verdict == ELF_ANNOTATED && v)
		snprintf(buf, len, "%" PRIu64, v);
	else
		snprintf(buf, len, "-");
}

static const char *const text_header[TEXT_COLUMNS] = {
	"MODE", "OWNER", "GROUP", "PRIVILEGE", "STATUS", "STACK", "GUARD-GAP", "CAPABILITIES",
};
/* The narrowest each column is, so that common listings line up the same way. */
static const int text_width[TEXT_COLUMNS] = { 4, 8, 8, 14, 14, 10, 10, 15 };

/* The row's strings, copied into one allocation; false when out of memory. */
static bool fill_row(struct text_row *row, const char *const *col, const char *path)
{
	size_t len = strlen(path) + 1;
	char *p;

	for (int c = 0; c < TEXT_COLUMNS; c++)
		len += strlen(col[c]) + 1;
	p = row->text = malloc(len);
	if (!p)
		return false;
	for (int c = 0; c < TEXT_COLUMNS; c++) {
		row->col[c] = p;
		p = stpcpy(p, col[c]) + 1;
	}
	row->path = p;
	strcpy(p, path);
	return true;
}

static void add_text(struct scan *s, const struct listing *l)
{
	const struct stat *st = &l->st;
	char mode[8], stack[24], gap[24];
	const char *col[TEXT_COLUMNS];

	if (s->nrows == s->rows_cap) {
		size_t cap = s->rows_cap ? 2 * s->rows_cap : 64;
		struct text_row *more = realloc(s->rows, cap * sizeof(*more));

		if (!more) {
			report_error(s, l->path, "out of memory");
			return;
		}
		s->rows = more;
		s->rows_cap = cap;
	}
	snprintf(mode, sizeof(mode), "%04o", (unsigned int)(st->st_mode & 07777));
	request_text(&l->r, l->r.policy.suid_stack, stack, sizeof(stack));
	request_text(&l->r, l->r.policy.stack_guard_gap, gap, sizeof(gap));
	col[COL_MODE] = mode;
	col[COL_OWNER] = id_name(user_cache, st->st_uid, false);
	col[COL_GROUP] = id_name(group_cache, st->st_gid, true);
	col[COL_PRIVILEGE] = privilege_name(st->st_mode);
	col[COL_STATUS] = verdict_name(l->r.verdict);
	col[COL_STACK] = stack;
	col[COL_GAP] = gap;
	col[COL_CAPS] = l->caps ? l->caps : "-";
	if (fill_row(&s->rows[s->nrows], col, l->path))
		s->nrows++;
	else
		report_error(s, l->path, "out of memory");
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct text_row *)a)->path, ((const struct text_row *)b)->path);
}

static void print_row(const int *width, const char *const *col, const char *path)
{
	for (int c = 0; c < TEXT_COLUMNS; c++)
		printf("%-*s ", width[c], col[c]);
	name_print(stdout, path);
	putchar('\n');
}

/* Sorted by path, each column as wide as its longest value; frees the rows. */
static void print_text(struct scan *s)
{
	int width[TEXT_COLUMNS];

	if (!s->nrows)
		return;
	qsort(s->rows, s->nrows, sizeof(*s->rows), by_path);
	memcpy(width, text_width, sizeof(width));
	for (size_t i = 0; i < s->nrows; i++)
		for (int c = 0; c < TEXT_COLUMNS; c++)
			if ((int)strlen(s->rows[i].col[c]) > width[c])
				width[c] = (int)strlen(s->rows[i].col[c]);
	print_row(width, text_header, "FILE");
	for (size_t i = 0; i < s->nrows; i++) {
		print_row(width, s->rows[i].col, s->rows[i].path);
		free(s->rows[i].text);
	}
	free(s->rows);
	s->rows = NULL;
	s->nrows = s->rows_cap = 0;
}

/* ELF class, byte order and type ET_EXEC or ET_DYN, from the first bytes. */
static bool looks_executable(const unsigned char *h, ssize_t len)
{
	unsigned int type;

	if (len < EI_NIDENT + 2 || memcmp(h, ELFMAG, SELFMAG))
		return false;
	if (h[EI_CLASS] != ELFCLASS32 && h[EI_CLASS] != ELFCLASS64)
		return false;
	if (h[EI_DATA] == ELFDATA2LSB)
		type = h[EI_NIDENT] | (unsigned int)h[EI_NIDENT + 1] << 8;
	else if (h[EI_DATA] == ELFDATA2MSB)
		type = (unsigned int)h[EI_NIDENT] << 8 | h[EI_NIDENT + 1];
	else
		return false;
	return type == ET_EXEC || type == ET_DYN;
}

/*
 * The file capabilities as getcap prints them (cap_free() them), NULL
 * for none.  -1 after reporting an error: capabilities that cannot be
 * decoded are not "none".
 */
static int caps_text(struct scan *s, int fd, const char *path, char **text)
{
	cap_t caps;

	*text = NULL;
	/* Most files have none: one fgetxattr() says so (libcap would also capget()). */
	if (fgetxattr(fd, CAPS_XATTR, NULL, 0) < 0) {
		if (errno == ENODATA || errno == ENOTSUP)
			return 0;
		report_error(s, path, strerror(errno));
		return -1;
	}
	caps = cap_get_fd(fd);
	if (!caps) {
		if (errno == ENODATA || errno == ENOTSUP)
			return 0;
		report_error(s, path, errno == EINVAL ? "file capabilities cannot be decoded"
						     : strerror(errno));
		return -1;
	}
	*text = cap_to_text(caps, NULL);
	cap_free(caps);
	if (!*text) {
		report_error(s, path, strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * An open regular file: list it if it is an ELF executable and, without
 * --all, privileged.  The descriptor's own stat decides and is shown, so
 * that a file replaced since its directory was read is judged as it is.
 */
static void inspect_fd(struct scan *s, int fd, const char *path)
{
	unsigned char head[64];
	struct listing l = { .path = path };
	ssize_t n = pread(fd, head, sizeof(head), 0);
	char *caps;

	if (n < 0) {
		/* ESPIPE: a FIFO swapped in since its directory was read. */
		if (errno != ESPIPE)
			report_error(s, path, strerror(errno));
		return;
	}
	if (!looks_executable(head, n))
		return;
	if (fstat(fd, &l.st)) {
		report_error(s, path, strerror(errno));
		return;
	}
	if (!S_ISREG(l.st.st_mode) || caps_text(s, fd, path, &caps))
		return;
	l.caps = caps;
	if (s->all || (l.st.st_mode & (S_ISUID | S_ISGID)) || caps) {
		elf_inspect_fd(fd, &l.r);
		if (l.r.verdict == ELF_IO_ERROR)
			report_error(s, path, l.r.reason);
		else if (s->json)
			print_json(&l);
		else
			add_text(s, &l);
	}
	cap_free(caps);
}

/* -1 and errno; O_NONBLOCK: a FIFO swapped in for the file is not waited on. */
static int open_file(struct scan *s, int dirfd, const char *name)
{
	int flags = O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
	int fd;

	/* An audit should not change access times: O_NOATIME, for root. */
	if (s->noatime) {
		fd = openat(dirfd, name, flags | O_NOATIME);
		if (fd >= 0 || errno != EPERM)
			return fd;
		/* Root without CAP_FOWNER over this file (a user namespace). */
		s->noatime = false;
	}
	return openat(dirfd, name, flags);
}

/*
 * Whether a file has a capability xattr, from its name alone.  There is
 * no getxattrat() before Linux 6.13: the name is relative to the working
 * directory, which the walk keeps in the directory being read.
 */
static bool has_caps_xattr(struct scan *s, const char *name, const char *path)
{
	if (lgetxattr(name, CAPS_XATTR, NULL, 0) >= 0)
		return true;
	if (errno != ENODATA && errno != ENOTSUP)
		report_entry_error(s, path);
	return false;
}

/*
 * A regular file (by its directory entry).  One without an execute bit,
 * or, without --all, neither setuid, setgid nor with capabilities, is
 * passed over on its stat and xattr alone, unopened.
 */
static void visit_file(struct scan *s, int dirfd, const char *name, const char *path)
{
	struct stat st;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		report_entry_error(s, path);
		return;
	}
	/* No one can execute a file without an execute bit, root included. */
	if (!S_ISREG(st.st_mode) || !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH)))
		return;
	if (!s->all && !(st.st_mode & (S_ISUID | S_ISGID)) && !has_caps_xattr(s, name, path))
		return;
	fd = open_file(s, dirfd, name);
	if (fd < 0) {
		/* A symlink or another type swapped in since the directory was read. */
		if (errno != ELOOP && errno != ENXIO)
			report_entry_error(s, path);
		return;
	}
	inspect_fd(s, fd, path);
	close(fd);
}

/* --- the walk ------------------------------------------------------------ */

/* Descriptors the walk may hold: the deepest directories' (see above). */
#define FD_BUDGET	64
/* Kept free for stdio, the file being inspected and NSS lookups. */
#define FD_RESERVE	16

/* One directory on the walk's stack, with all its entries, read at once. */
struct level {
	int fd;			/* -1 while closed to stay within the budget */
	dev_t dev;
	ino_t ino;
	size_t path_len;	/* its path is walk.path[0 .. path_len) */
	char *ents;		/* entries: d_type byte, name, NUL; . and .. left out */
	size_t len, next;
};

struct walk {
	struct level *stack;
	size_t depth, cap;	/* stack[depth - 1] is the directory being read */
	char *path;
	size_t path_cap;
	dev_t dev;		/* the DIR's filesystem */
	uint64_t mnt_id;
	bool have_mnt_id;
	size_t budget;
};

static bool grow(void **buf, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n * size);
	if (!p)
		return false;
	*buf = p;
	*cap = n;
	return true;
}

/* walk.path becomes the path of level top's entry name; false on ENOMEM. */
static bool set_path(struct walk *w, size_t base, const char *name)
{
	size_t len = strlen(name);
	bool slash = base && w->path[base - 1] != '/';

	if (!grow((void **)&w->path, &w->path_cap, base + slash + len + 1, 1))
		return false;
	if (slash)
		w->path[base] = '/';
	memcpy(w->path + base + slash, name, len + 1);
	return true;
}

/* All entries of an open directory into lv->ents; an errno, or 0. */
static int read_entries(int fd, struct level *lv)
{
	static char buf[32768] __attribute__((aligned(8)));
	size_t cap = 0;

	lv->ents = NULL;
	lv->len = 0;
	lv->next = 0;
	for (;;) {
		ssize_t n = getdents64(fd, buf, sizeof(buf));

		if (n < 0)
			return errno;
		if (n == 0)
			return 0;
		for (ssize_t off = 0; off < n; ) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			size_t len = strlen(d->d_name);

			off += d->d_reclen;
			if (d->d_name[0] == '.' && (len == 1 || (len == 2 && d->d_name[1] == '.')))
				continue;
			if (!grow((void **)&lv->ents, &cap, lv->len + len + 2, 1))
				return ENOMEM;
			lv->ents[lv->len] = (char)d->d_type;
			memcpy(lv->ents + lv->len + 1, d->d_name, len + 1);
			lv->len += len + 2;
		}
	}
}

/* Device, inode and mount of an open directory; false and errno. */
static bool dir_identity(int fd, struct stat *st, uint64_t *mnt_id, bool *have_mnt_id)
{
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx))
		return false;
	st->st_mode = stx.stx_mode;
	st->st_ino = stx.stx_ino;
	st->st_dev = makedev(stx.stx_dev_major, stx.stx_dev_minor);
	*have_mnt_id = stx.stx_mask & STATX_MNT_ID;
	*mnt_id = stx.stx_mnt_id;
	return true;
}

/* Close older directories' descriptors so that at most budget stay open. */
static void keep_budget(struct walk *w)
{
	if (w->depth > w->budget) {
		struct level *old = &w->stack[w->depth - w->budget - 1];

		if (old->fd >= 0) {
			close(old->fd);
			old->fd = -1;
		}
	}
}

/*
 * Enters directory name of dirfd (or the DIR itself: dirfd AT_FDCWD and
 * root): pushes it with its entries, or reports why it cannot be read,
 * or passes over it quietly when it is on another filesystem.
 */
static void enter_dir(struct scan *s, struct walk *w, int dirfd, const char *name, bool root)
{
	int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (root ? 0 : O_NOFOLLOW);
	int fd = openat(dirfd, name, flags), err;
	uint64_t mnt_id;
	bool have_mnt_id;
	struct level *lv = NULL;
	struct stat st;

	if (fd < 0) {
		/* Not a directory any more, or a symlink now: a race, not an error. */
		if (root)
			report_error(s, w->path, strerror(errno));
		else if (errno != ENOTDIR && errno != ELOOP)
			report_entry_error(s, w->path);
		return;
	}
	if (!dir_identity(fd, &st, &mnt_id, &have_mnt_id)) {
		report_error(s, w->path, strerror(errno));
		close(fd);
		return;
	}
	if (root) {
		w->dev = st.st_dev;
		w->mnt_id = mnt_id;
		w->have_mnt_id = have_mnt_id;
	} else if (st.st_dev != w->dev || (w->have_mnt_id && have_mnt_id && mnt_id != w->mnt_id)) {
		close(fd);	/* a mount point: like find -xdev, not entered */
		return;
	}
	/* A directory we may read but not search is reported here, once. */
	if (fchdir(fd)) {
		report_error(s, w->path, strerror(errno));
		close(fd);
		return;
	}
	err = ENOMEM;
	if (grow((void **)&w->stack, &w->cap, w->depth + 1, sizeof(*w->stack))) {
		lv = &w->stack[w->depth];
		err = read_entries(fd, lv);
	}
	if (err) {
		report_error(s, w->path, strerror(err));
		if (lv)
			free(lv->ents);
		close(fd);
		/* Back in the parent, whose entries' names are relative to it. */
		if (!root && fchdir(dirfd))
			report_error(s, w->path, strerror(errno));
		return;
	}
	lv->fd = fd;
	lv->dev = st.st_dev;
	lv->ino = st.st_ino;
	lv->path_len = strlen(w->path);
	w->depth++;
	keep_budget(w);
}

/*
 * Leaves the deepest directory.  Its parent, if its descriptor was closed
 * for the budget, is reopened through ".." and must be the directory it
 * was.  false when the walk of this DIR cannot go on.
 */
static bool leave_dir(struct scan *s, struct walk *w)
{
	struct level *lv = &w->stack[w->depth - 1], *up;
	bool ok = true;

	free(lv->ents);
	w->depth--;
	if (!w->depth) {
		close(lv->fd);
		return true;
	}
	up = &w->stack[w->depth - 1];
	w->path[up->path_len] = '\0';
	if (up->fd < 0) {
		struct stat st;
		uint64_t mnt_id;
		bool have_mnt_id;

		up->fd = openat(lv->fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
		if (up->fd < 0 || !dir_identity(up->fd, &st, &mnt_id, &have_mnt_id) ||
		    st.st_dev != up->dev || st.st_ino != up->ino) {
			report_error(s, w->path, "moved during the scan; its walk stops here");
			ok = false;
		}
	}
	close(lv->fd);
	/* The xattr test names files relative to the working directory. */
	if (ok && fchdir(up->fd)) {
		report_error(s, w->path, strerror(errno));
		ok = false;
	}
	return ok;
}

/* The next entry of the deepest directory. */
static void visit_entry(struct scan *s, struct walk *w, struct level *lv)
{
	unsigned char type = (unsigned char)lv->ents[lv->next];
	const char *name = lv->ents + lv->next + 1;
	int fd = lv->fd;

	lv->next += strlen(name) + 2;
	if (!set_path(w, lv->path_len, name)) {
		report_error(s, w->path, strerror(ENOMEM));
		return;
	}
	/* Some filesystems do not fill d_type: ask. */
	if (type == DT_UNKNOWN) {
		struct stat st;

		if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW)) {
			report_entry_error(s, w->path);
			return;
		}
		type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
	}
	if (type == DT_REG)
		visit_file(s, fd, name, w->path);
	else if (type == DT_DIR)
		enter_dir(s, w, fd, name, false);
	/* Symlinks, devices, FIFOs and sockets are not programs we can list. */
}

/* One DIR: every entry, depth first. */
static void walk_root(struct scan *s, struct walk *w, const char *root)
{
	if (!set_path(w, 0, root)) {
		report_error(s, root, strerror(ENOMEM));
		return;
	}
	enter_dir(s, w, AT_FDCWD, root, true);
	while (w->depth) {
		struct level *lv = &w->stack[w->depth - 1];

		if (lv->next < lv->len)
			visit_entry(s, w, lv);
		else if (!leave_dir(s, w))
			break;
	}
	/* After an error, what is left of the stack. */
	while (w->depth) {
		struct level *lv = &w->stack[--w->depth];

		if (lv->fd >= 0)
			close(lv->fd);
		free(lv->ents);
	}
}

/* Directories the walk may keep open: the budget, within RLIMIT_NOFILE. */
static size_t fd_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur >= FD_BUDGET + FD_RESERVE)
		return FD_BUDGET;
	return rl.rlim_cur > FD_RESERVE + 2 ? (size_t)(rl.rlim_cur - FD_RESERVE) : 2;
}

static int scan_roots(struct scan *s, char **roots)
{
	struct walk w = { .budget = fd_budget() };
	/* The walk changes directory; a relative DIR is relative to here. */
	int cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_PATH);

	for (int i = 0; roots[i]; i++) {
		if (i && roots[i][0] != '/' && (cwd < 0 || fchdir(cwd))) {
			report_error(s, roots[i], "cannot return to the starting directory");
			continue;
		}
		walk_root(s, &w, roots[i]);
	}
	if (cwd >= 0)
		close(cwd);
	free(w.stack);
	free(w.path);
	print_text(s);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "elfnote: standard output: %s\n", strerror(errno));
		return EXIT_IO_ERROR;
	}
	return s->failed ? EXIT_IO_ERROR : EXIT_OK;
}

int cmd_scan(const struct command *cmd, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "all", no_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	static char *default_roots[] = { "/", NULL };
	struct scan s = { .euid = geteuid() };
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			s.json = true;
			break;
		case 'a':
			s.all = true;
			break;
		case 'h':
			command_usage(cmd, stdout);
			return EXIT_OK;
		default:
			return command_option_error(cmd, argv, c);
		}
	}
	s.noatime = s.euid == 0;
	return scan_roots(&s, optind < argc ? argv + optind : default_roots);
}
