#!/bin/bash
# Host tests of kernel/tree.sh on a tiny stand-in tarball: the series is
# applied in order, re-applied only when it changes, and a patch that does
# not apply stops the run naming the patch and the tree's version.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="host tree.sh: "
tap_plan 10
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
	BUILD=$work/build SERIES=9.9 TARBALL=$work/linux-source-9.9.tar.xz \
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
