#!/bin/bash
# deps/fetch.sh ARCH: the Debian ARCH packages deps/data-packages.txt
# names, downloaded with the project's own apt configuration
# (deps/apt.sh: the host's sources, its own state, the shared .deb cache)
# and unpacked into $BUILD/sysroot/ARCH.  The host's dpkg architectures and
# package state are not touched.
#
# musl's specs file (usr/lib/TRIPLET/musl-gcc.specs) names its files by
# absolute path; the sysroot's copy is rewritten to name the sysroot's.
#
# A warm run (the same list and scripts as the last fetch) does
# nothing and uses no network; FETCH_REFRESH=1 fetches again anyway.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
BUILD=${BUILD:-$top/build}
DEPS_WHO="deps/fetch.sh"
. "$here/apt.sh"

arch=${1:?usage: deps/fetch.sh ARCH}
list=$here/data-packages.txt
sysroot=$BUILD/sysroot/$arch
aptdir=$CACHE/apt-$arch

read -r -a wanted < <(awk -v arch="$arch" '!/^#/ && $1 == arch { $1 = ""; print }' "$list")
[ "${#wanted[@]}" -gt 0 ] || deps_die "$list names no package for $arch"

want_stamp=$( { sha256sum < "$0"; sha256sum < "$here/apt.sh"; echo "$arch ${wanted[*]}"; } | sha256sum | cut -d' ' -f1)
if [ "${FETCH_REFRESH:-0}" != 1 ] && [ "$(cat "$sysroot/.stamp" 2>/dev/null)" = "$want_stamp" ]; then
	exit 0
fi

deps_private_apt "$aptdir" "$arch"
echo "  FETCH   $arch: ${wanted[*]}"
deps_private_update "$aptdir"
# Simulated first, so that a package that cannot be had is named with
# apt's reason.  install --download-only puts the packages in the shared
# cache, where apt checks a cached file's hash before using it (apt-get
# download would fetch them again every time); it brings their
# dependencies too (linux-libc-dev, small), but only the named packages
# are unpacked.
if ! "${APT[@]}" install -s -y "${wanted[@]}" > "$aptdir/log/simulate.log" 2>&1; then
	deps_explain_install "$aptdir/log/simulate.log" "${wanted[@]}" | sed "s/^/$DEPS_WHO: cannot fetch $arch /" >&2
	deps_die "nothing fetched (apt-get's output: $aptdir/log/simulate.log)"
fi
exec 9> "$DEPS_DEBS/.lock"
flock 9
"${APT[@]}" install --download-only -y "${wanted[@]}" > "$aptdir/log/download.log" 2>&1 ||
	{ tail -20 "$aptdir/log/download.log" >&2; deps_die "apt-get install --download-only failed (log: $aptdir/log/download.log)"; }

# The file apt keeps each named package in: NAME_VERSION_ARCH.deb, the
# epoch's colon as %3a.
debs=()
for pkg in "${wanted[@]}"; do
	deb=$(sed -nE "s/^Inst $pkg \(([^ ]+) .* \[([a-z0-9]+)\]\).*$/${pkg}_\1_\2.deb/p" "$aptdir/log/simulate.log" | sed 's/:/%3a/g')
	if [ -z "$deb" ] || [ ! -f "$DEPS_DEBS/$deb" ]; then
		deps_die "$pkg ($arch) was not downloaded (log: $aptdir/log/download.log)"
	fi
	debs+=("$DEPS_DEBS/$deb")
done
flock -u 9

rm -rf "$sysroot" "$sysroot.tmp"
mkdir -p "$sysroot.tmp"
for deb in "${debs[@]}"; do
	dpkg-deb -x "$deb" "$sysroot.tmp"
done
for specs in "$sysroot.tmp"/usr/lib/*/musl-gcc.specs; do
	[ -f "$specs" ] || continue
	# Paths into /usr/lib/TRIPLET and /usr/include/TRIPLET, and the
	# loader's name: only the first two are files the compiler reads.
	sed -i -E "s#/usr/(lib|include)/#$sysroot/usr/\\1/#g" "$specs"
	# musl's libc.so is in /lib/TRIPLET (package musl), which the specs
	# do not search: -lc took libc.a from /usr/lib/TRIPLET, and a
	# "dynamic" program got libc linked in (on arm, libgcc's
	# __aeabi_ldiv0 then missed raise).  ld takes the first folder with
	# either, so /lib/TRIPLET goes first.
	triplet=$(basename "$(dirname "$specs")")
	if [ -f "$sysroot.tmp/lib/$triplet/libc.so" ]; then
		sed -i "s#-L$sysroot/usr/lib/$triplet #-L$sysroot/lib/$triplet &#" "$specs"
	fi
done
printf '%s\n' "${debs[@]##*/}" > "$sysroot.tmp/.debs"
echo "$want_stamp" > "$sysroot.tmp/.stamp"
mv "$sysroot.tmp" "$sysroot"
echo "  SYSROOT $sysroot: ${wanted[*]}"
