#!/bin/bash
# old-kernel.sh: boot a kernel older than 5.18 (bullseye's linux-source-5.10,
# Debian 11's kernel) through the scenarios of programs stamped after
# linking, to show that they start where the kernel computes AT_PHDR as the
# load address plus e_phoff (docs/note-format.md, "After linking").  Not in
# make check: a kernel tree of its own, built cold (make check-old-kernel).
#
# linux-source-5.10 comes from the bullseye suites as data
# (deps/linux-source.sh, deps/kernel-sources.txt), never installed; its
# tarball is built as
# SERIES=5.10, stock, with the guest config and series-5.10.config, by
# kernel/build.sh, and again with the AT_PHDR of kernels before 5.18
# (kernel/old-kernel-at-phdr.patch: bullseye's 5.10 has the fix
# backported).  Expects the 6.1 i386 initramfs of make check
# ($BUILD/guest-6.1-i386.cpio, and the Debian boot's for the Debian
# programs), which its boots get.
# TAP on stdout, through i386-guest/run.sh with GUEST_ONLY.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
# The rows of programs stamped after linking, and Debian's own i386
# programs stamped the same way (their boot has guest.debian).
GUEST_ONLY=${GUEST_ONLY:-after-link/*,debian/*}
export GUEST_ONLY

die() { echo "kernel/old-kernel.sh: $*" >&2; exit 1; }
export INITRAMFS=$BUILD/guest-6.1-i386.cpio INITRAMFS_DEBIAN=$BUILD/guest-6.1-i386-debian.cpio
[ -f "$INITRAMFS" ] || die "no $INITRAMFS: run make check (or make initramfs) first"

tarball=$("$top/deps/linux-source.sh" 5.10)
SERIES=5.10 TARBALL=$tarball "$top/kernel/build.sh" stock i386 >&2

# The same kernel with AT_PHDR computed as before 5.18
# (kernel/old-kernel-at-phdr.patch), from a copy of the pristine tree, with
# the stock kernel's config: "stock-pre518" is a stock kernel to the
# scenarios (uname -r ends in -stock).
. "$top/kernel/ccache.sh"
pristine=$BUILD/src/linux-5.10-pristine
pre=$BUILD/src/linux-5.10-pre518
out=$BUILD/out/linux-5.10-i386-stock-pre518
stamp=$(sha256sum < "$top/kernel/old-kernel-at-phdr.patch" | cut -c1-16)-$(cut -c1-16 "$pristine/.tarball-id")
if [ "$(cat "$pre/.pre518-id" 2>/dev/null)" != "$stamp" ]; then
	rm -rf "$pre" && cp -a "$(readlink -f "$pristine")" "$pre.tmp"
	patch -s -d "$pre.tmp" -p1 < "$top/kernel/old-kernel-at-phdr.patch"
	echo "$stamp" > "$pre.tmp/.pre518-id" && mv "$pre.tmp" "$pre"
fi
mkdir -p "$out" && cp "$BUILD/out/linux-5.10-i386-stock/.config" "$out/.config"
echo "  BUILD   linux 5.10 with the AT_PHDR of kernels before 5.18 in $out" >&2
make -s -C "$pre" O="$out" ARCH=i386 LOCALVERSION= "${KCC[@]}" olddefconfig >&2
make -s -C "$pre" O="$out" ARCH=i386 LOCALVERSION= "${KCC[@]}" -j"${JOBS:-2}" bzImage >&2

"$top/i386-guest/run.sh" 5.10/i386/stock 5.10/i386/stock-pre518
