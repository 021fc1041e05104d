#!/bin/bash
# mkinitramfs.sh OUT.cpio [ARCH]: the guest's initramfs for a kernel of ARCH
# (a kernel of i386-guest/abis.txt; i386 by default), packed by the kernel's own
# gen_init_cpio.
#
#   /init                the runner, built for ARCH
#   /abi/ABI/bin, /lib   for each ABI the kernel runs (i386; x86_64 and
#                        ia32; arm; arm64 and aarch32): initramfs.list's programs and loaders, the
#                        malformed-note corpus
#   /bin, /lib           links to the first ABI's folders; the runner
#                        re-points them for each ABI it runs
#   /etc/scenarios       every scenario file (scenario-files.sh)
#   /etc/selinux.policy  the policy of the "selinux" boot (selinux/policy.cil)
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
GEN_INIT_CPIO=${GEN_INIT_CPIO:-$BUILD/host/gen_init_cpio}
out=${1:?usage: mkinitramfs.sh OUT.cpio [ARCH]}
arch=${2:-i386}

die() { echo "mkinitramfs.sh: $*" >&2; exit 1; }

# The ABIs the kernel runs, as "ABI PROGRAMS" lines: the name in the guest
# and the folder its programs were built into (abis.txt).
abis=$("$top/i386-guest/abis.sh" abi,programs kernel="$arch")
[ -n "$abis" ] || die "unknown ARCH '$arch' ($(echo $("$top/i386-guest/abis.sh" kernel)))"

# Debian's static busybox for the kernel's own programs (deps/sysroot.sh
# --busybox), in every ABI's folder.  The scenarios do not run it; make
# shell does.
BUSYBOX=${BUSYBOX:-$("$top/deps/sysroot.sh" --busybox "$(echo "$abis" | awk 'NR == 1 { print $2 }')")}
[ -f "$BUSYBOX" ] || die "no $BUSYBOX (busybox-static, deps/data-packages.txt)"
file -L "$BUSYBOX" | grep -q 'statically linked' || die "$BUSYBOX is not a static busybox"

# The loaders of the dynamic samples of a programs folder: musl's (musl
# of the programs' architecture: the host's, or the one deps/fetch.sh
# unpacked) and glibc's (libc6-i386-cross for i386, the host's for
# x86_64): LOADER LIBC GLIBC_INTERP GLIBC_LIB.
loaders() {
	local musl_ld debarch triplet glibc_ld glibc_lib
	read -r musl_ld debarch triplet glibc_ld glibc_lib < <("$top/i386-guest/abis.sh" \
		musl_ld,debarch,triplet,glibc_ld,glibc_lib abi="$1")
	echo "$musl_ld $("$top/deps/sysroot.sh" "$debarch")/lib/$triplet/libc.so $glibc_ld $glibc_lib"
}

# initramfs.list for one ABI, its paths moved under /abi/ABI.
abi_list() {
	local abi=$1 bin=$BUILD/guest-bin/$2 musl_loader musl_libc glibc_interp glibc_lib
	read -r musl_loader musl_libc glibc_interp glibc_lib < <(loaders "$2")
	echo "dir /abi/$abi 0755 0 0"
	{ sed -e '/^#/d' -e '/^$/d' -e "s|\$BIN|$bin|g" -e "s|\$BUSYBOX|$BUSYBOX|g" \
		-e "s|\$MUSL_LOADER|$musl_loader|g" -e "s|\$MUSL_LIBC|$musl_libc|g" \
		-e "s|\$GLIBC_LOADER|${glibc_interp##*/}|g" -e "s|\$GLIBC_LIB|$glibc_lib|g" \
		"$top/i386-guest/initramfs.list"
	# The programs only some ABIs' toolchains build (samples/Makefile).
	sed "s|\$BIN|$bin|g" "$bin/optional.list"
	# The malformed-note corpus (tests/malformed/make-corpus.sh).
	cat "$BUILD/generated/$2/corpus.list"
	# The kernel's own selftests (i386-guest/kselftests.sh).
	cat "$BUILD/generated/$2/kselftest.list"
	# A Debian package's setuid helper, x86_64 only (the top Makefile).
	[ ! -f "$BUILD/generated/$2/deb.list" ] || cat "$BUILD/generated/$2/deb.list"
	} | sed -E "s#^(dir|file|slink)( +)/(bin|lib)#\1\2/abi/$abi/\3#"
}

list=$out.list
{
	cat <<-LIST
	dir   /abi              0755 0 0
	dir   /dev              0755 0 0
	dir   /etc              0755 0 0
	dir   /etc/scenarios    0755 0 0
	dir   /proc             0555 0 0
	dir   /tmp              1777 0 0
	nod   /dev/console      0600 0 0 c 5 1
	nod   /dev/ttyS0        0600 0 0 c 4 64
	nod   /dev/ttyAMA0      0600 0 0 c 204 64
	nod   /dev/null         0666 0 0 c 1 3
	nod   /dev/kmsg         0644 0 0 c 1 11
	nod   /dev/fuse         0666 0 0 c 10 229
	file  /init             $BUILD/guest-bin/$arch/init 0755 0 0
	file  /etc/selinux.policy $BUILD/generated/selinux.policy 0644 0 0
	slink /bin              abi/${abis%% *}/bin 0777 0 0
	slink /lib              abi/${abis%% *}/lib 0777 0 0
	LIST
	# A glibc loader asked for elsewhere than /lib (x86_64's, in /lib64)
	# is found through a link to its ABI's /lib: that folder is the
	# ABI's own, not re-pointed with /lib.
	while read -r abi programs; do
		read -r _ _ glibc_interp _ < <(loaders "$programs")
		[ "${glibc_interp%/*}" = /lib ] || echo "slink ${glibc_interp%/*} abi/$abi/lib 0777 0 0"
	done <<< "$abis"
	while read -r abi programs; do
		abi_list "$abi" "$programs"
	done <<< "$abis"
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
