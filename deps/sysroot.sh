#!/bin/bash
# deps/sysroot.sh ARCH: the folder under which the build finds the files
# of Debian architecture ARCH's packages: nothing (the host's /) for the
# host's own architecture, whose packages make deps installs, and
# $BUILD/sysroot/ARCH for any other, which deps/fetch.sh fills with the
# packages deps/data-packages.txt names.
#
# deps/sysroot.sh --specs ABI: musl's specs file for the programs of ABI
# (i386-guest/abis.txt: its debarch and triplet), for gcc -specs=.
#
# deps/sysroot.sh --busybox ABI: Debian's static busybox for the programs
# of ABI: its architecture's busybox-static, fetched as data; for the
# host's own architecture, whose busybox-static cannot be installed beside
# the host's busybox, i386's (x86_64 guests run it through compat).
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
--busybox)
	debarch=$("$top/i386-guest/abis.sh" debarch abi="${2:?usage: deps/sysroot.sh --busybox ABI}")
	[ -n "$debarch" ] || { echo "deps/sysroot.sh: no ABI '$2' in i386-guest/abis.txt" >&2; exit 2; }
	root=$(sysroot "$debarch")
	echo "${root:-$(sysroot i386)}/bin/busybox" ;;
''|-*) echo "usage: deps/sysroot.sh ARCH | --specs ABI | --busybox ABI" >&2; exit 2 ;;
*) sysroot "$1" ;;
esac
