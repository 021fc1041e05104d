/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replacing an executable that may be setuid root or carry file
 * capabilities, so that it either has all of its new contents and all of
 * its old attributes, or is untouched (man page, "WRITING SAFELY"):
 *
 *   open its directory once; every later step names the file relative
 *   to that descriptor, so moving or swapping directories meanwhile
 *   cannot redirect a step elsewhere
 *   refuse a symlink (unless asked), anything but a regular file, hard
 *   links, IMA/EVM signatures, immutable, append-only and fs-verity files,
 *   and, as root, a directory another user may write to
 *   write the new contents to an unnamed file in that directory
 *   (O_TMPFILE), drop any ACL or xattr it inherited, give it the owner,
 *   then the xattrs (security.*, trusted.*, user.*, ACLs), then the mode
 *   with setuid/setgid: a chown or a write would drop those, so they come
 *   last
 *   fsync, read everything back and compare, check that the original did
 *   not change meanwhile, and only then give the file a name and rename
 *   it over the original (signals held off in between), fsync the
 *   directory
 *
 * On any failure the new file is removed: unnamed, it cannot be left
 * behind by a crash either, except in the moment between link and rename.
 */
#ifndef ELFNOTE_SAFEWRITE_H
#define ELFNOTE_SAFEWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct target {
	char *path;		/* for messages: the file as opened */
	char *dir;		/* its directory, for messages */
	char *name;		/* its name in that directory */
	int dirfd, fd;
	struct stat st;
	int flags;		/* its inode flags (FS_IOC_GETFLAGS), 0 if none */
	unsigned char *image;	/* its contents */
	size_t len;
};

/*
 * Opens and reads path for an edit; reading needs no write access, so a
 * dry run works on a read-only mount and for someone else's file.
 * follow: edit a symlink's target instead of refusing.  Returns false
 * with a reason in why.
 */
bool target_open(const char *path, bool follow, struct target *t, char *why, size_t whylen);

/*
 * Whether target_replace() may replace the opened file: the checks above
 * (its directory as root, one link, not signed, no immutable, append-only
 * or fs-verity flag, writable by the caller).  Sets t->flags.  Returns
 * false with a reason in why.
 */
bool target_replaceable(struct target *t, char *why, size_t whylen);

/* Replaces the file's contents by image as described above (after target_replaceable()). */
bool target_replace(struct target *t, const unsigned char *image, size_t len,
		    char *why, size_t whylen);

void target_close(struct target *t);

#endif
