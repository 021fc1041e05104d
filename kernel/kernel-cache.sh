# shellcheck shell=bash
# kernel/kernel-cache.sh: built kernels kept by what they are built from,
# sourced by kernel/build.sh.  A second clone (CI's case) boots the
# kernels an earlier clone built, instead of building them again from
# ccache's objects (2 to 3 minutes each on 2 cores, all hits).
#
# An entry, $CACHE/kernels/KEY/, holds the kernel image (bzImage,
# zImage or Image: abis.txt's image column), System.map and .config.
# KEY is the SHA-256 of everything the build reads:
#   - the tree: its stamp, written last when kernel/tree.sh made it (the
#     tarball's checksum, or the series' id, which covers every patch's
#     bytes); a tree with any file newer than its stamp was changed by
#     hand and is never served from here (it is built, and not stored);
#   - the final .config (fragments, tinyconfig and olddefconfig's result);
#   - the make goal and variables: kernel/build.sh's own bytes;
#   - the compiler and the linker (the ARCH's cross tools if any): their
#     versions.
# So an entry is what the build would make, a changed input is a new
# key, and deleting any entry (or all of them) only costs a build.
KERNEL_CACHE=${KERNEL_CACHE:-1}
KEEP_KERNELS=${KEEP_KERNELS:-24}
kernel_cache=$CACHE/kernels

# tree_stamp TREE: the file kernel/tree.sh wrote last into TREE.
tree_stamp() {
	if [ -f "$1/.git/series-id" ]; then
		echo "$1/.git/series-id"
	else
		echo "$1/.tarball-id"
	fi
}

# kernel_key SRC OUT [KCROSS]: the entry's key, or nothing (and a note on
# stderr) when the tree was changed since it was made.
kernel_key() {
	local src out=$2 cross=${3:-} stamp changed
	cross=${cross#-}
	src=$(readlink -f "$1")
	stamp=$(tree_stamp "$src")
	[ -f "$stamp" ] || return 0
	changed=$(find "$src/" -mindepth 1 -path "$src/.git" -prune -o -newer "$stamp" -print -quit)
	if [ -n "$changed" ]; then
		echo "  NOCACHE $changed is newer than the tree ($stamp): building, not caching" >&2
		return 0
	fi
	{
		cat "$stamp"
		sha256sum < "$out/.config"
		sha256sum < "$0"	# kernel/build.sh, which sourced this
		"${cross}gcc" --version | head -n 1
		"${cross}ld" --version | head -n 1
	} | sha256sum | cut -c1-32
}

# kernel_cached KEY OUT IMAGE: put the entry's files into OUT (the image
# at OUT/IMAGE); false if none.  OUT's vmlinux goes: a later build in OUT
# then links it again from its own objects instead of taking the copied
# image for up to date.
kernel_cached() {
	local entry=$kernel_cache/$1 out=$2 image=$3
	local name
	name=$(basename "$image")
	[ "$KERNEL_CACHE" = 1 ] && [ -n "$1" ] && [ -f "$entry/$name" ] || return 1
	mkdir -p "$out/$(dirname "$image")"
	rm -f "$out/vmlinux"
	cp "$entry/$name" "$out/$image"
	cp "$entry/System.map" "$out/System.map"
	touch "$entry"
}

# kernel_store KEY OUT IMAGE: keep OUT's build under KEY (made aside,
# renamed into place; a clone that stored it first wins), then drop the
# least recently used entries beyond KEEP_KERNELS.
kernel_store() {
	local entry=$kernel_cache/$1 out=$2 image=$3 tmp
	[ "$KERNEL_CACHE" = 1 ] && [ -n "$1" ] || return 0
	mkdir -p "$kernel_cache"
	tmp=$(mktemp -d "$kernel_cache/.new.XXXXXX")
	cp "$out/$image" "$out/System.map" "$out/.config" "$tmp/"
	mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
	# shellcheck disable=SC2012 # the names are 32 hex digits
	ls -dt "$kernel_cache"/* | tail -n +$((KEEP_KERNELS + 1)) | while read -r old; do rm -rf "$old"; done
}
