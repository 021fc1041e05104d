// SPDX-License-Identifier: GPL-2.0
/*
 * The floor for elfnote scan's benchmark (bench/scan-bench.sh): the walk
 * scan makes (src/cmd-scan.c: getdents64() of each directory at once, d_type,
 * openat() relative to the directory, statx() and fchdir() per directory,
 * not crossing mounts, symlinks not followed) and, for every regular
 * file, a stat, and for those with an execute (or setuid/setgid) bit,
 * what a reader of file headers does at least: open, read the first
 * 4 KiB, close.
 *
 * Recursive, one descriptor per level: scan bounds its descriptors at 64
 * levels, a depth /usr does not reach, so the system calls are the same.
 *
 *   floor DIR...   prints "files N" (regular files read)
 */
#define _GNU_SOURCE	/* O_NOATIME, getdents64(), statx() */
#include <dirent.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static unsigned long files;
static int file_flags = O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC | O_NONBLOCK;
static uint64_t root_mnt;

static void read_file(int dirfd, const char *name)
{
	static char buf[4096];
	struct stat st;
	int fd;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISREG(st.st_mode) ||
	    !(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH | S_ISUID | S_ISGID)))
		return;
	fd = openat(dirfd, name, file_flags);
	if (fd < 0)
		return;
	if (read(fd, buf, sizeof(buf)) >= 0)
		files++;
	close(fd);
}

/* Like scan: every entry read first, then visited in order. */
static void walk(int dirfd, const char *name, int flags)
{
	static char buf[32768] __attribute__((aligned(8)));
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | flags);
	char *ents = NULL;
	size_t len = 0, cap = 0;
	struct statx stx;
	ssize_t n;

	if (fd < 0)
		return;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_TYPE | STATX_INO | STATX_MNT_ID, &stx) ||
	    (root_mnt && stx.stx_mnt_id != root_mnt) || fchdir(fd)) {
		close(fd);
		return;
	}
	if (!root_mnt)
		root_mnt = stx.stx_mnt_id;
	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n; ) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			size_t l = strlen(d->d_name);

			off += d->d_reclen;
			if (d->d_name[0] == '.' && (l == 1 || (l == 2 && d->d_name[1] == '.')))
				continue;
			if (len + l + 2 > cap) {
				cap = cap ? cap * 2 + l + 2 : 4096;
				ents = realloc(ents, cap);
				if (!ents)
					exit(4);
			}
			ents[len] = (char)d->d_type;
			memcpy(ents + len + 1, d->d_name, l + 1);
			len += l + 2;
		}
	}
	for (size_t off = 0; off < len; off += strlen(ents + off + 1) + 2) {
		if (ents[off] == DT_REG)
			read_file(fd, ents + off + 1);
		else if (ents[off] == DT_DIR)
			walk(fd, ents + off + 1, O_NOFOLLOW);
	}
	free(ents);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("usage: floor DIR...\n", stderr);
		return 64;
	}
	/* The same flags as scan: no atime update, no following, no waiting. */
	if (geteuid() == 0)
		file_flags |= O_NOATIME;
	for (int i = 1; i < argc; i++) {
		root_mnt = 0;
		walk(AT_FDCWD, argv[i], 0);
	}
	printf("files %lu\n", files);
	return 0;
}
