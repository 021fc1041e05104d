#!/bin/bash
# kernel/build-cost.sh REV [ARCH]: what a change to the guest fragment
# costs a cold build.  Builds the stock tree of $SERIES twice from scratch,
# with kernel/config/guest.config as it is at git revision REV and as it
# is in the work tree (plus ARCH.config, default i386), one after the
# other with make -j$JOBS, and prints each build's CPU and wall time and
# bzImage size.  Not part of any test: docs/guest.md quotes its figures.
# The builds go to a temporary folder, removed afterwards.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
JOBS=${JOBS:-2}
rev=${1:?usage: kernel/build-cost.sh REV [ARCH]}
arch=${2:-i386}
src=$BUILD/src/linux-$SERIES-pristine

"$top/kernel/tree.sh" pristine >/dev/null
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$top" show "$rev:kernel/config/guest.config" > "$tmp/guest-$rev.config"

# build NAME GUEST_FRAGMENT: one clean build, one line of figures.
build() {
	local out=$tmp/$1 start wall
	mkdir -p "$out"
	cat "$2" "$top/kernel/config/$arch.config" > "$out/fragment.config"
	make -s -C "$src" O="$out" ARCH="$arch" tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m .config fragment.config) >/dev/null
	make -s -C "$src" O="$out" ARCH="$arch" olddefconfig >/dev/null
	start=$(date +%s.%N)
	/usr/bin/time -f '%U %S' -o "$out/cpu" \
		make -s -C "$src" O="$out" ARCH="$arch" -j"$JOBS" bzImage >/dev/null 2>"$out/build.log"
	wall=$(echo "$(date +%s.%N) - $start" | bc)
	read -r user sys < "$out/cpu"
	printf '%-12s cpu %6.1f s (user %.1f + sys %.1f)  wall %6.1f s  bzImage %d bytes  objects %d\n' \
		"$1" "$(echo "$user + $sys" | bc)" "$user" "$sys" "$wall" \
		"$(stat -c %s "$out/arch/x86/boot/bzImage")" "$(find "$out" -name '*.o' | wc -l)"
}

echo "# $SERIES $arch stock, tinyconfig + guest.config + $arch.config, make -j$JOBS bzImage"
build "$rev" "$tmp/guest-$rev.config"
build work-tree "$top/kernel/config/guest.config"
