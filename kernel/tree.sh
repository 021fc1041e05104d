#!/bin/bash
# Prepare the two kernel source trees the guest kernels are built from:
#
#   $BUILD/src/linux-$SERIES-pristine  extracted from Debian's linux-source tarball,
#                                      never modified
#   $BUILD/src/linux-$SERIES-patched   a git tree: one commit "pristine" with the
#                                      same files, then kernel/patches/$SERIES applied in
#                                      series order with git am
#
# Both are links into the cache every clone shares ($CACHE/kernel), where
# a tree is kept under what it is made of: the pristine tree under the
# tarball's checksum, the patched one under that and the series' patch
# names and bytes.  A tree there is complete (made aside, then renamed
# into place) and never changed afterwards, so a second clone, or a
# series changed back, builds from it at once; a changed series makes a
# new tree and never touches the old one.  Only the two patched trees
# used last are kept per tarball.  Everything there is safe to delete.
#
# Usage: kernel/tree.sh [pristine|patched|version]
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stackclamp}
SERIES=${SERIES:-6.1}
# The host's linux-source-SERIES (make deps), or for a series of another
# Debian release (7.2) the tarball deps/linux-source.sh fetches as data.
if [ -z "${TARBALL:-}" ]; then
	TARBALL=/usr/src/linux-source-$SERIES.tar.xz
	if [ ! -f "$TARBALL" ] && awk -v s="$SERIES" '!/^#/ && $1 == s { f = 1 } END { exit !f }' \
		"$top/deps/kernel-sources.txt"; then
		TARBALL=$("$top/deps/linux-source.sh" "$SERIES")
	fi
fi
PATCHES=${PATCHES:-$top/kernel/patches/$SERIES}
# Patched trees kept per tarball (each about 3 GB with its git objects).
KEEP_PATCHED=${KEEP_PATCHED:-2}

pristine=$BUILD/src/linux-$SERIES-pristine
patched=$BUILD/src/linux-$SERIES-patched

die() { echo "kernel/tree.sh: $*" >&2; exit 1; }

tree_version() {
	make -s --no-print-directory -C "$1" kernelversion 2>/dev/null
}

[ -f "$TARBALL" ] || die "$TARBALL missing: run 'make deps' (package linux-source-$SERIES)"
mkdir -p "$CACHE/kernel" "$BUILD/src"
# One tree.sh at a time in the cache: two clones asking for the same tree
# make it once.
exec 9> "$CACHE/kernel/.lock"
flock 9

tarball_sum=$(sha256sum < "$TARBALL" | cut -c1-16)
entry=$CACHE/kernel/linux-$SERIES-$tarball_sum

# link NAME TARGET: $BUILD/src/NAME points at TARGET.
link() {
	rm -rf "${1:?}"
	ln -s "$2" "$1"
}

prepare_pristine() {
	local tree=$entry/pristine
	if [ ! -f "$tree/.tarball-id" ]; then
		echo "  EXTRACT $TARBALL"
		rm -rf "$tree" "$tree.tmp"
		mkdir -p "$tree.tmp"
		tar -xJf "$TARBALL" -C "$tree.tmp" --strip-components=1
		echo "$tarball_sum $(basename "$TARBALL")" > "$tree.tmp/.tarball-id"
		mv "$tree.tmp" "$tree"
		echo "  PRISTINE linux $(tree_version "$tree") in $tree"
	fi
	[ "$(readlink "$pristine" 2>/dev/null)" = "$tree" ] || link "$pristine" "$tree"
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
# bytes, not where this checkout lies, so that every clone shares a tree.
series_id() {
	local files patch
	files=$(series_files) || return
	{
		echo "$tarball_sum"
		for patch in $files; do
			echo "$(sha256sum < "$patch" | cut -d' ' -f1)  $(basename "$patch")"
		done
	} | sha256sum | cut -d' ' -f1
}

# make_patched DIR ID: the pristine files in a git tree, committed and
# tagged "pristine", then the series applied with git am.  Objects are
# stored uncompressed: writing 75,000 of them compressed takes minutes,
# uncompressed seconds.
make_patched() {
	local dir=$1 id=$2 patch
	git_tree() { git -C "$dir" -c user.name=tree.sh -c user.email=tree.sh@localhost \
		-c core.compression=0 -c core.looseCompression=0 "$@"; }
	echo "  GIT     pristine tree into $dir"
	cp -a "$entry/pristine" "$dir"
	rm -f "$dir/.tarball-id"
	git_tree init -q
	# The tarball ships no .gitignore for build products of an O= build, but
	# a stray file would make 'git am' refuse; keep the index complete.
	git_tree add -A -f .
	git_tree commit -q -m "linux $(tree_version "$dir") as shipped in $(basename "$TARBALL")"
	git_tree tag pristine
	for patch in $(series_files); do
		echo "  APPLY   $(basename "$patch")"
		if ! git_tree am -q --keep-cr "$patch" >/dev/null 2>"$dir.err"; then
			cat "$dir.err" >&2
			rm -rf "$dir" "$dir.err"
			die "patch $(basename "$patch") does not apply to linux $(tree_version "$entry/pristine") ($TARBALL)"
		fi
	done
	rm -f "$dir.err"
	echo "$id" > "$dir/.git/series-id"
}

prepare_patched() {
	prepare_pristine
	local id tree old
	id=$(series_id)
	tree=$entry/patched-${id:0:16}
	# No link to a tree that is not this series'.  The right link stays
	# as it is: a kernel build beside this one may be reading through it.
	[ "$(readlink "$patched" 2>/dev/null)" = "$tree" ] || rm -rf "$patched"
	if [ ! -f "$tree/.git/series-id" ]; then
		rm -rf "$tree" "$tree.tmp"
		make_patched "$tree.tmp" "$id"
		mv "$tree.tmp" "$tree"
		echo "  PATCHED linux $(tree_version "$tree") + $(series_files | wc -l) patches in $tree"
	fi
	touch "$tree"
	[ -L "$patched" ] || link "$patched" "$tree"
	# The least recently used patched trees beyond KEEP_PATCHED go, and
	# what was built beside them (TREE.*: kernel/check-debian-configs.sh).
	# (The names are patched- and 16 hex digits: no blank to split on.)
	# shellcheck disable=SC2012
	ls -dt "$entry"/patched-* 2>/dev/null | awk '/\/patched-[0-9a-f]+$/' | tail -n +$((KEEP_PATCHED + 1)) |
		while read -r old; do rm -rf "$old" "$old".*; done
}

case "${1:-patched}" in
pristine) prepare_pristine ;;
patched) prepare_patched ;;
version) prepare_pristine; tree_version "$pristine" ;;
*) die "unknown command '$1' (pristine, patched or version)" ;;
esac
