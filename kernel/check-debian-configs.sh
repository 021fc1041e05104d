#!/bin/bash
# check-debian-configs.sh: compile the files the series touches under
# Debian's own kernel configs, with W=1, in the pristine and the patched
# tree, and report any warning the patched tree adds.  Distributions do not
# build the tiny guest config: this is what their builds would say.
#
#   kernel/check-debian-configs.sh [FLAVOUR...]
#
# FLAVOUR names a file of Debian's linux-config-$SERIES of the flavour's
# architecture (its first word), e.g. amd64_none_amd64 (default: that,
# armhf_none_armmp and arm64_none_arm64, and i386_none_686-pae for 6.1):
# the host's package for the host's architecture, the one deps/fetch.sh
# unpacked for another (deps/sysroot.sh).  The guests' ARM kernels are
# LPAE ones (kernel/config/arm.config); Debian's armmp flavour is the one
# without LPAE, so the two cover both.
# Each tree's output folder for a flavour lies beside the tree in the
# cache clones share (kernel/tree.sh), TREE.debian-FLAVOUR: what `make
# prepare` made there serves every later run on that tree, whose files
# never change, and kbuild remakes what a changed config or compiler
# needs.  The objects checked are compiled again on every run.  Safe to
# delete.  TAP on stdout.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
JOBS=${JOBS:-2}
. "$top/kernel/ccache.sh"
flavours=("$@")
# Debian 12 ships i386 configs for 6.1 only.
if [ ${#flavours[@]} = 0 ]; then
	flavours=(amd64_none_amd64 armhf_none_armmp arm64_none_arm64)
	[ "$SERIES" != 6.1 ] || flavours+=(i386_none_686-pae)
fi

# The objects built from the files the series changes (kernel/patches/$SERIES)
# under kernel ARCH: x86's own mmap.c, and binfmt_elf again as the compat
# loader of the 64-bit ones.
objects_for() {
	local arch=$1
	echo fs/exec.o fs/binfmt_elf.o fs/proc/array.o kernel/fork.o kernel/sys.o mm/mmap.o mm/util.o
	case $arch in
	i386) echo arch/x86/mm/mmap.o ;;
	x86_64) echo arch/x86/mm/mmap.o fs/compat_binfmt_elf.o ;;
	arm64) echo fs/compat_binfmt_elf.o ;;
	esac
}

"$top/kernel/tree.sh" patched >/dev/null || exit 1

# warnings TREE FLAVOUR ARCH: the W=1 warnings of the objects (compiler and
# kernel-doc), with the tree's path and line and column numbers dropped
# (the series moves lines), sorted.
warnings() {
	# The tree's real path: build/src holds links into the shared cache,
	# and make prints the real one.
	local tree out arch=$3 configs lock
	tree=$(readlink -f "$BUILD/src/linux-$SERIES-$1")
	out=$tree.debian-$2
	configs=$(configs_of "$2")
	mkdir -p "$out"
	# One clone at a time in a folder.
	exec {lock}> "$out.lock"
	flock "$lock"
	if [ ! -f "$out/.config" ] || ! cmp -s <(xzcat "$configs/config.$2.xz") "$out/.config.debian"; then
		xzcat "$configs/config.$2.xz" > "$out/.config.debian"
		cp "$out/.config.debian" "$out/.config"
		# Debian's signing keys are not in the source package.
		"$tree/scripts/config" --file "$out/.config" --set-str SYSTEM_TRUSTED_KEYS "" \
			--set-str SYSTEM_REVOCATION_KEYS "" --disable MODULE_SIG_ALL \
			--set-str MODULE_SIG_KEY "certs/signing_key.pem" >/dev/null
		make -s -C "$tree" O="$out" ARCH="$arch" "${KCC[@]}" olddefconfig >/dev/null || return 1
	fi
	make -s -C "$tree" O="$out" ARCH="$arch" "${KCC[@]}" -j"$JOBS" prepare >/dev/null 2>&1 || return 1
	# Rebuilt every time, for their warnings; the sources are not touched
	# (the guest kernels are built from the same trees).
	# shellcheck disable=SC2046 # one word per object
	(cd "$out" && rm -f $(objects_for "$arch"))
	# shellcheck disable=SC2046
	make -C "$tree" O="$out" ARCH="$arch" "${KCC[@]}" -j"$JOBS" W=1 $(objects_for "$arch") 2>&1 >/dev/null |
		grep -E 'warning:' | sed -E "s|$tree/||; s|$out/||; s/:[0-9]+(:[0-9]+)?:/:/" | sort -u
}

# The folder of FLAVOUR's config: linux-config-$SERIES of its architecture.
configs_of() { echo "$("$top/deps/sysroot.sh" "${1%%_*}")/usr/src/linux-config-$SERIES"; }

for flavour in "${flavours[@]}"; do
	configs=$(configs_of "$flavour")
	# The kernel ARCH of the flavour's Debian architecture, and the
	# compiler the guests' kernels of that ARCH are built with (abis.txt).
	arch=$("$top/i386-guest/abis.sh" kernel debarch="${flavour%%_*}")
	if [ -z "$arch" ]; then
		echo "not ok - $flavour: unknown flavour (no row of i386-guest/abis.txt has debarch ${flavour%%_*})"
		continue
	fi
	kcc_cross "$("$top/i386-guest/abis.sh" kcross abi="$arch")"
	if [ ! -f "$configs/config.$flavour.xz" ]; then
		echo "not ok - $flavour: no $configs/config.$flavour.xz (package linux-config-$SERIES, ${flavour%%_*})"
		continue
	fi
	start=$SECONDS
	base=$(warnings pristine "$flavour" "$arch") || { echo "not ok - $flavour: pristine tree does not build"; continue; }
	new=$(warnings patched "$flavour" "$arch") || { echo "not ok - $flavour: patched tree does not build"; continue; }
	added=$(comm -13 <(echo "$base") <(echo "$new") | grep . || true)
	if [ -z "$added" ]; then
		echo "ok - $SERIES $flavour ($arch): W=1 adds no warning to the touched objects ($(echo "$base" | grep -c .) in pristine, $((SECONDS - start)) s)"
	else
		echo "not ok - $SERIES $flavour ($arch): W=1 warnings the series adds:"
		echo "$added" | sed 's/^/#   /'
	fi
done
