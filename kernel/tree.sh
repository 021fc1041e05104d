#!/bin/bash
# Prepare the two kernel source trees the guest kernels are built from:
#
#   $BUILD/src/linux-$SERIES-pristine  extracted from Debian's linux-source tarball,
#                                      never modified
#   $BUILD/src/linux-$SERIES-patched   a git tree: one commit "pristine" with the
#                                      same files, then kernel/patches/$SERIES applied in
#                                      series order with git am
#
# Both are caches: delete $BUILD and they come back.  The patched tree is only
# reset and re-patched when the tarball or the series changed, so kernel
# builds from it stay incremental.
#
# Usage: kernel/tree.sh [pristine|patched|version]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
TARBALL=${TARBALL:-/usr/src/linux-source-$SERIES.tar.xz}
PATCHES=${PATCHES:-$top/kernel/patches/$SERIES}

pristine=$BUILD/src/linux-$SERIES-pristine
patched=$BUILD/src/linux-$SERIES-patched

die() { echo "kernel/tree.sh: $*" >&2; exit 1; }

tarball_id() { stat -c '%n %s %Y' "$TARBALL"; }

tree_version() {
	make -s --no-print-directory -C "$1" kernelversion 2>/dev/null
}

prepare_pristine() {
	[ -f "$TARBALL" ] || die "$TARBALL missing: run 'make deps' (package linux-source-$SERIES)"
	if [ -f "$pristine/.tarball-id" ] &&
	   [ "$(cat "$pristine/.tarball-id")" = "$(tarball_id)" ]; then
		return
	fi
	echo "  EXTRACT $TARBALL"
	rm -rf "$pristine" "$pristine.tmp"
	mkdir -p "$pristine.tmp"
	tar -xJf "$TARBALL" -C "$pristine.tmp" --strip-components=1
	tarball_id > "$pristine.tmp/.tarball-id"
	mv "$pristine.tmp" "$pristine"
	echo "  PRISTINE linux $(tree_version "$pristine") in $pristine"
}

# The patches that series lists, in order, as absolute paths.
series_files() {
	local name
	while read -r name; do
		case "$name" in ''|'#'*) continue ;; esac
		[ -f "$PATCHES/$name" ] || die "series names $name, but $PATCHES/$name does not exist"
		echo "$PATCHES/$name"
	done < "$PATCHES/series"
}

# What the patched tree is made of: the tarball and each patch's name and
# bytes, not where this checkout lies, so that every clone shares a cache.
series_id() {
	local files patch
	files=$(series_files) || return
	{
		tarball_id
		for patch in $files; do
			echo "$(sha256sum < "$patch" | cut -d' ' -f1)  $(basename "$patch")"
		done
	} | sha256sum | cut -d' ' -f1
}

git_tree() { git -C "$patched" -c user.name=tree.sh -c user.email=tree.sh@localhost "$@"; }

import_pristine() {
	echo "  GIT     importing pristine tree into $patched (once per tarball)"
	rm -rf "$patched"
	mkdir -p "$patched"
	cp -a "$pristine/." "$patched/"
	rm -f "$patched/.tarball-id"
	git_tree init -q
	# The tarball ships no .gitignore for build products of an O= build, but
	# a stray file would make 'git am' refuse; keep the index complete.
	git_tree add -A -f .
	git_tree commit -q -m "linux $(tree_version "$pristine") as shipped in $(basename "$TARBALL")"
	git_tree tag pristine
	tarball_id > "$patched/.git/tarball-id"
}

prepare_patched() {
	prepare_pristine
	if [ ! -d "$patched/.git" ] ||
	   [ "$(cat "$patched/.git/tarball-id" 2>/dev/null)" != "$(tarball_id)" ]; then
		import_pristine
	fi
	local want
	want=$(series_id)
	if [ "$(cat "$patched/.git/series-id" 2>/dev/null)" = "$want" ]; then
		return
	fi
	rm -f "$patched/.git/series-id"
	git_tree am --abort >/dev/null 2>&1 || true
	git_tree reset -q --hard pristine
	git_tree clean -q -fdx
	local patch
	for patch in $(series_files); do
		echo "  APPLY   $(basename "$patch")"
		if ! git_tree am -q --keep-cr "$patch" >/dev/null 2>"$BUILD/git-am.err"; then
			git_tree am --abort >/dev/null 2>&1 || true
			cat "$BUILD/git-am.err" >&2
			die "patch $(basename "$patch") does not apply to linux $(tree_version "$pristine") ($TARBALL)"
		fi
	done
	echo "$want" > "$patched/.git/series-id"
	echo "  PATCHED linux $(tree_version "$pristine") + $(series_files | wc -l) patches in $patched"
}

case "${1:-patched}" in
pristine) prepare_pristine ;;
patched) prepare_patched ;;
version) prepare_pristine; tree_version "$pristine" ;;
*) die "unknown command '$1' (pristine, patched or version)" ;;
esac
