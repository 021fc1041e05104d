#!/bin/bash
# mkinitramfs.sh OUT.cpio: the guest's initramfs, from initramfs.list, the
# malformed-note corpus and every scenario file (scenario-files.sh), packed
# by the kernel's own gen_init_cpio.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
BIN=${BIN:-$BUILD/guest-bin}
BUSYBOX=${BUSYBOX:-/bin/busybox}
GEN_INIT_CPIO=${GEN_INIT_CPIO:-$BUILD/host/gen_init_cpio}
# The loaders of the dynamic samples: musl's (package musl:i386) and the
# i686 cross toolchain's glibc (libc6-i386-cross).
MUSL_LIBC=${MUSL_LIBC:-/usr/lib/i386-linux-musl/libc.so}
GLIBC_LIB=${GLIBC_LIB:-/usr/i686-linux-gnu/lib}
out=${1:?usage: mkinitramfs.sh OUT.cpio}

die() { echo "mkinitramfs.sh: $*" >&2; exit 1; }

file -L "$BUSYBOX" | grep -q 'ELF 32-bit.*Intel 80386.*statically linked' ||
	die "$BUSYBOX is not a static i386 busybox (package busybox-static:i386)"

list=$out.list
{
	sed -e '/^#/d' -e '/^$/d' -e "s|\$BIN|$BIN|g" -e "s|\$BUSYBOX|$BUSYBOX|g" \
		-e "s|\$MUSL_LIBC|$MUSL_LIBC|g" -e "s|\$GLIBC_LIB|$GLIBC_LIB|g" \
		"$top/i386-guest/initramfs.list"
	# The malformed-note corpus (tests/malformed/make-corpus.sh).
	[ ! -f "$BUILD/generated/corpus.list" ] || cat "$BUILD/generated/corpus.list"
	{ "$top/i386-guest/scenario-files.sh"; ls "$top"/tests/bench/*.scn; } | while read -r scn; do
		echo "file /etc/scenarios/$(basename "$scn") $scn 0644 0 0"
	done
} > "$list"

# Every source must exist: gen_init_cpio would skip a missing one silently.
awk '$1 == "file" { print $3 }' "$list" | while read -r src; do
	[ -f "$src" ] || die "$src (listed for the initramfs) does not exist"
done
"$GEN_INIT_CPIO" "$list" > "$out.tmp"
mv "$out.tmp" "$out"
