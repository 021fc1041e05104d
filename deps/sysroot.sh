#!/bin/bash
# deps/sysroot.sh ARCH: the folder under which the build finds the files
# of Debian architecture ARCH's packages: nothing (the host's /) for the
# host's own architecture, whose packages make deps installs, and
# $BUILD/sysroot/ARCH for any other, which deps/fetch.sh fills with the
# packages deps/data-packages.txt names.
#
# deps/sysroot.sh --specs ABI: musl's specs file for the programs of ABI
# (i386-guest/abis.txt: its debarch and triplet), for gcc -specs=.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}

sysroot() {
	if [ "$1" = "$(dpkg --print-architecture)" ]; then
		echo ""
	else
		echo "$BUILD/sysroot/$1"
	fi
}

case "${1:-}" in
--specs)
	read -r debarch triplet < <("$top/i386-guest/abis.sh" debarch,triplet abi="${2:?usage: deps/sysroot.sh --specs ABI}")
	[ -n "${triplet:-}" ] || { echo "deps/sysroot.sh: no ABI '$2' in i386-guest/abis.txt" >&2; exit 2; }
	echo "$(sysroot "$debarch")/usr/lib/$triplet/musl-gcc.specs" ;;
''|-*) echo "usage: deps/sysroot.sh ARCH | --specs ABI" >&2; exit 2 ;;
*) sysroot "$1" ;;
esac
