/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Replacing an executable that may be setuid root or carry file
 * capabilities, so that it either has all of its new contents and all of
 * its old attributes, or is untouched (docs/policy.md, "Writing safely"):
 *
 *   read it whole (no symlinks unless asked, no hard links)
 *   write the new contents to a temporary file in the same directory
 *   give it the owner, then the xattrs (security.*, trusted.*, user.*,
 *   ACLs), then the mode with setuid/setgid: a chown or a write would
 *   drop those, so they come last
 *   fsync, read everything back and compare, check that the original
 *   did not change meanwhile, rename over it, fsync the directory
 *
 * On any failure the temporary file is removed.
 */
#ifndef ELFNOTE_SAFEWRITE_H
#define ELFNOTE_SAFEWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

struct target {
	char *path;		/* the file itself (symlink resolved if asked) */
	int fd;
	struct stat st;
	unsigned char *image;	/* its contents */
	size_t len;
};

/*
 * Opens and reads path for an edit.  follow: edit a symlink's target
 * instead of refusing.  Returns false with a reason in why.
 */
bool target_open(const char *path, bool follow, struct target *t, char *why, size_t whylen);

/* Replaces the file's contents by image as described above. */
bool target_replace(struct target *t, const unsigned char *image, size_t len,
		    char *why, size_t whylen);

void target_close(struct target *t);

#endif
