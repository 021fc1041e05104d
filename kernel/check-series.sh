#!/bin/bash
# check-series.sh: build every prefix of the series (patch 1, patches 1-2,
# ...) for i386 in a scratch output folder, to show that each patch builds
# on its own.  A maintainer's check, slower than make check (every patch
# that touches a widely included header rebuilds much of the kernel).
# The scratch worktree and output folder are removed afterwards.
#
# PREFIX_BOOTS=1 also boots the prefixes that end at a security-relevant
# patch, as kernel/patches/SERIES/prefix-scenarios.txt lists them, through
# the guest scenarios each must pass (i386-guest/run.sh with GUEST_ONLY;
# the initramfs of make check, build/guest-SERIES-i386.cpio, must exist).  Their
# results are in build/results/linux-SERIES-i386-patched-prefixN.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
JOBS=${JOBS:-2}
"$top/kernel/tree.sh" patched >/dev/null
tree=$BUILD/src/linux-$SERIES-patched
work=$BUILD/series-check-$SERIES
out=$BUILD/out/series-check-$SERIES
config=$BUILD/out/linux-$SERIES-i386-patched/.config
[ -f "$config" ] || { echo "check-series.sh: build the patched kernel first (make kernels)" >&2; exit 1; }
prefixes=$top/kernel/patches/$SERIES/prefix-scenarios.txt
PREFIX_BOOTS=${PREFIX_BOOTS:-}
if [ -n "$PREFIX_BOOTS" ] && [ ! -f "$BUILD/guest-$SERIES-i386.cpio" ]; then
	echo "check-series.sh: PREFIX_BOOTS needs the guest's initramfs (make check, or make initramfs)" >&2
	exit 1
fi

# The globs the prefix ending at the patch with this subject must pass
# ("" for none).
prefix_globs() {
	awk -v subject="$1" '!/^#/ && NF > 1 {
		globs = $1; sub(/^[^ ]+ /, ""); if ($0 == subject) { print globs; exit } }' "$prefixes"
}

# Boots the prefix just built through its scenarios (TAP on stdout).
boot_prefix() {
	local n=$1 globs=$2 variant=patched-prefix$1
	local image=$BUILD/out/linux-$SERIES-i386-$variant/arch/x86/boot
	mkdir -p "$image"
	cp "$out/arch/x86/boot/bzImage" "$image/bzImage"
	local tap
	tap=$(GUEST_ONLY=$globs "$top/i386-guest/run.sh" "$SERIES/i386/$variant")
	echo "$tap"
	failed=$((failed + $(grep -c '^not ok' <<< "$tap" || true)))
}

cleanup() {
	git -C "$tree" worktree remove --force "$work" 2>/dev/null || true
	rm -rf "$out"
}
trap cleanup EXIT
cleanup
git -C "$tree" worktree add -q --detach "$work" pristine
mkdir -p "$out"
cp "$config" "$out/.config"

n=0 failed=0
for commit in $(git -C "$tree" rev-list --reverse pristine..HEAD); do
	n=$((n + 1))
	git -C "$work" checkout -q "$commit"
	subject=$(git -C "$work" log -1 --format=%s)
	# Symbols a later patch adds are dropped by olddefconfig; set them
	# again from the full config once they exist.
	cp "$config" "$out/.config"
	make -s -C "$work" O="$out" ARCH=i386 LOCALVERSION= olddefconfig
	start=$(date +%s)
	if make -s -C "$work" O="$out" ARCH=i386 LOCALVERSION= -j"$JOBS" bzImage 2>"$out/warnings.txt" &&
	   ! grep -q 'warning:' "$out/warnings.txt"; then
		echo "ok - patch $n builds on its own, no warnings ($(( $(date +%s) - start )) s): $subject"
		globs=$(prefix_globs "$subject")
		if [ -n "$PREFIX_BOOTS" ] && [ -n "$globs" ]; then
			boot_prefix "$n" "$globs"
		fi
	else
		echo "not ok - patch $n: $subject"
		sed 's/^/#   /' "$out/warnings.txt"
		failed=$((failed + 1))
	fi
done
# A maintainer's check: any prefix that fails to build, warns or fails a
# scenario fails the whole check.
[ "$failed" = 0 ] || { echo "check-series.sh: $failed failed" >&2; exit 1; }
