#!/bin/bash
# Build one guest kernel: kernel/build.sh stock|patched [ARCH]
#
# stock   is built from the pristine tree, patched from the patched tree;
# both from the same config (tinyconfig + kernel/config/guest.config +
# kernel/config/$ARCH.config + series-$SERIES.config and
# series-$SERIES-$ARCH.config if there are, plus
# guest-patched.config for symbols the series adds, and
# series-$SERIES-patched.config for those only one series adds),
# each in its own output folder, $BUILD/out/linux-$SERIES-$ARCH-$VARIANT.
# Builds are incremental; the config is regenerated only when the fragment
# changed.  A kernel built before from the same inputs, by any clone, is
# taken from $CACHE/kernels (kernel/kernel-cache.sh; KERNEL_CACHE=0 builds
# anyway).  Prints the path of the kernel image (abis.txt's image column
# for ARCH: bzImage, zImage or Image) on the last line.
#
# kernel/build.sh VARIANT ARCH PROFILE builds a profile: PROFILE's fragment
# (kernel/config/PROFILE.config) is merged last, after the variant's, into
# $BUILD/out/linux-$SERIES-$ARCH-$VARIANT-$PROFILE (make bench: "bench").
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
JOBS=${JOBS:-2}
variant=${1:?usage: kernel/build.sh stock|patched [ARCH [PROFILE]]}
arch=${2:-i386}
profile=${3:-}

die() { echo "kernel/build.sh: $*" >&2; exit 1; }
. "$top/kernel/ccache.sh"
. "$top/kernel/kernel-cache.sh"

case "$variant" in
stock) src=$BUILD/src/linux-$SERIES-pristine; "$top/kernel/tree.sh" pristine ;;
patched) src=$BUILD/src/linux-$SERIES-patched; "$top/kernel/tree.sh" patched ;;
*) die "unknown variant '$variant' (stock or patched)" ;;
esac

config=$top/kernel/config
[ -f "$config/$arch.config" ] || die "no config fragment $config/$arch.config (one per kernel of i386-guest/abis.txt)"
# What the ABI table says of this ARCH's kernel: its image (the make
# goal) and compiler.
read -r image kcross < <("$top/i386-guest/abis.sh" image,kcross abi="$arch")
[ -n "${image:-}" ] && [ "$image" != - ] || die "no kernel row for ARCH=$arch in i386-guest/abis.txt"
kcc_cross "$kcross"
[ -z "$profile" ] || [ -f "$config/$profile.config" ] || die "no config fragment $config/$profile.config"
out=$BUILD/out/linux-$SERIES-$arch-$variant${profile:+-$profile}
mkdir -p "$out"
# LOCALVERSION set (empty) keeps setlocalversion from adding "+" for the
# git tree the patched kernel is built from.
kmake() { make -s -C "$src" O="$out" ARCH="$arch" LOCALVERSION= "${KCC[@]}" "$@"; }

# The fragment, the variant's own fragment if any (symbols only the series
# adds), and the variant's name, so `uname -r` tells which kernel booted.
want_config() {
	cat "$config/guest.config" "$config/$arch.config"
	[ ! -f "$config/series-$SERIES.config" ] || cat "$config/series-$SERIES.config"
	[ ! -f "$config/series-$SERIES-$arch.config" ] || cat "$config/series-$SERIES-$arch.config"
	[ ! -f "$config/guest-$variant.config" ] || cat "$config/guest-$variant.config"
	[ ! -f "$config/series-$SERIES-$variant.config" ] || cat "$config/series-$SERIES-$variant.config"
	[ -z "$profile" ] || cat "$config/$profile.config"
	echo "CONFIG_LOCALVERSION=\"-$variant\""
}

configure() {
	echo "  CONFIG  $variant: tinyconfig + guest.config + $arch.config$(
		[ ! -f "$config/series-$SERIES.config" ] || echo " + series-$SERIES.config")$(
		[ ! -f "$config/series-$SERIES-$arch.config" ] || echo " + series-$SERIES-$arch.config")${profile:+ + $profile.config}"
	rm -f "$out/fragment.applied"
	want_config > "$out/fragment.config"
	kmake tinyconfig >/dev/null
	(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m .config fragment.config) >/dev/null
	kmake olddefconfig >/dev/null
	# merge_config only warns when a symbol did not stick (missing
	# dependency): a guest without, say, MULTIUSER would quietly test
	# nothing, so insist that every requested value (the last one given
	# for each symbol) is in the result.
	local line sym
	while read -r line; do
		case "$line" in
		CONFIG_*=n) sym=${line%%=*}
			! grep -q "^$sym=" "$out/.config" || die "$sym is set but the fragment says n" ;;
		CONFIG_*) grep -qxF "$line" "$out/.config" || die "config did not take '$line' (missing dependency?)" ;;
		esac
	done < <(awk -F= '/^CONFIG_/ { last[$1] = $0; order[++n] = $1 }
		END { for (i = 1; i <= n; i++) if (!seen[order[i]]++) print last[order[i]] }' \
		"$out/fragment.config")
	cp "$out/fragment.config" "$out/fragment.applied"
}

if [ ! -f "$out/.config" ] || ! want_config | cmp -s - "$out/fragment.applied"; then
	configure
fi

version=$(make -s --no-print-directory -C "$src" kernelversion)
key=$(kernel_key "$src" "$out" "$kcross")
if kernel_cached "$key" "$out" "$image"; then
	echo "  CACHED  linux $version-$variant ($arch) from $kernel_cache/$key"
else
	echo "  BUILD   linux $version-$variant ($arch) in $out"
	start=$(date +%s)
	kmake -j"$JOBS" "$(basename "$image")"
	kernel_store "$key" "$out" "$image"
	echo "  BUILT   linux $version-$variant ($arch) in $(( $(date +%s) - start )) s"
fi
echo "$out/$image"
