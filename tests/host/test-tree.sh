#!/bin/bash
# Host tests of kernel/tree.sh on a tiny stand-in tarball: the series is
# applied in order, re-applied only when it changes, and a patch that does
# not apply stops the run naming the patch and the tree's version.  The
# trees live in the shared cache under what they are made of: a second
# build folder uses them as they are, and a tarball of other contents at
# the same path gets trees of its own.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="host tree.sh: "
tap_plan 14
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

# A "kernel" whose Makefile answers `make kernelversion` like the real one.
mkdir -p "$work/linux-source-9.9/fs"
printf 'kernelversion:\n\t@echo 9.9.42\n' > "$work/linux-source-9.9/Makefile"
printf 'one\ntwo\nthree\n' > "$work/linux-source-9.9/fs/exec.c"
tar -cJf "$work/linux-source-9.9.tar.xz" -C "$work" linux-source-9.9

# Two patches made with git, as format-patch writes them.
git init -q "$work/g" && cp -r "$work/linux-source-9.9/." "$work/g/"
git -C "$work/g" add -A && git -C "$work/g" -c user.name=t -c user.email=t@t commit -qm base
sed -i 's/two/TWO/' "$work/g/fs/exec.c"
git -C "$work/g" -c user.name=t -c user.email=t@t commit -qam "first"
sed -i 's/three/THREE/' "$work/g/fs/exec.c"
git -C "$work/g" -c user.name=t -c user.email=t@t commit -qam "second"
mkdir -p "$work/patches"
git -C "$work/g" format-patch -q -o "$work/patches" HEAD~2..HEAD
printf '# test series\n0001-first.patch\n0002-second.patch\n' > "$work/patches/series"

run() {
	BUILD=${RUN_BUILD:-$work/build} CACHE=$work/cache SERIES=9.9 TARBALL=$work/linux-source-9.9.tar.xz \
		PATCHES=$work/patches "$top/kernel/tree.sh" "$@"
}

out=$(run patched 2>&1)
tap_check $? "a good series applies"
grep -qx 'one' "$work/build/src/linux-9.9-patched/fs/exec.c" &&
	grep -qx 'TWO' "$work/build/src/linux-9.9-patched/fs/exec.c" &&
	grep -qx 'THREE' "$work/build/src/linux-9.9-patched/fs/exec.c"
tap_check $? "both patches are in the patched tree"
grep -qx 'two' "$work/build/src/linux-9.9-pristine/fs/exec.c"
tap_check $? "the pristine tree is untouched"
[ "$(run version)" = 9.9.42 ]
tap_check $? "version reports the tree's kernelversion"

out=$(run patched 2>&1) && ! echo "$out" | grep -q APPLY
tap_check $? "an unchanged series is not re-applied"

out=$(RUN_BUILD=$work/build2 run patched 2>&1) && ! echo "$out" | grep -qE 'APPLY|EXTRACT' &&
	[ "$(readlink "$work/build2/src/linux-9.9-patched")" = "$(readlink "$work/build/src/linux-9.9-patched")" ] &&
	[ "$(readlink "$work/build2/src/linux-9.9-pristine")" = "$(readlink "$work/build/src/linux-9.9-pristine")" ]
tap_check $? "a second build folder uses the cached trees, neither extracted nor patched again"
case "$(readlink "$work/build/src/linux-9.9-patched")" in
"$work/cache/kernel/linux-9.9-$(sha256sum < "$work/linux-source-9.9.tar.xz" | cut -c1-16)/patched-"*) true ;;
*) false ;;
esac
tap_check $? "the trees are kept under the tarball's checksum"

printf '# test series\n0001-first.patch\n' > "$work/patches/series"
run patched >/dev/null 2>&1 && grep -qx 'three' "$work/build/src/linux-9.9-patched/fs/exec.c"
tap_check $? "dropping a patch from series resets the tree"

# A patch written against another version of the file.
sed 's/^-three$/-tree/; s/^ two$/ too/' "$work/patches/0002-second.patch" > "$work/patches/0003-stale.patch"
printf '0001-first.patch\n0003-stale.patch\n' > "$work/patches/series"
out=$(run patched 2>&1)
status=$?
[ "$status" != 0 ]
tap_check $? "a patch that does not apply fails the run"
echo "$out" | grep -q 'patch 0003-stale.patch does not apply to linux 9.9.42'
tap_check $? "the failure names the patch and the tree version"
[ ! -f "$work/build/src/linux-9.9-patched/.git/series-id" ]
tap_check $? "a failed series is not recorded as applied"

printf '0001-first.patch\nmissing.patch\n' > "$work/patches/series"
out=$(run patched 2>&1)
[ $? != 0 ] && echo "$out" | grep -q 'series names missing.patch'
tap_check $? "a series naming a missing file fails"

# The same tarball path with other contents: trees of its own.
printf '# test series\n0001-first.patch\n' > "$work/patches/series"
echo other > "$work/linux-source-9.9/fs/other.c"
tar -cJf "$work/linux-source-9.9.tar.xz" -C "$work" linux-source-9.9
old_sum=$(ls "$work/cache/kernel")
out=$(run patched 2>&1)
[ $? = 0 ] && echo "$out" | grep -q EXTRACT && grep -qx 'other' "$work/build/src/linux-9.9-patched/fs/other.c" &&
	grep -qx 'TWO' "$work/build/src/linux-9.9-patched/fs/exec.c"
tap_check $? "a tarball of other contents at the same path is extracted and patched anew"
[ -n "$old_sum" ] && [ -d "$work/cache/kernel/$old_sum" ] && [ "$(ls "$work/cache/kernel" | wc -l)" = 2 ]
tap_check $? "the other tarball's trees stay in the cache, under their own checksum"
