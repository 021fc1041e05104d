#!/bin/bash
# elf-note-tool/upstream/build-debian.sh: build Debian's own elfutils and
# binutils source packages (bookworm) with the patches beside this
# script, run their test suites, and check the tools they install on
# Debian's programs stamped by elfnote (check-tools.sh).  make
# check-upstream-tools; not part of make check (about 16 minutes,
# docs/measurements.md).
#
# As a Debian build daemon would: mmdebstrap makes a clean bookworm
# (buildd variant) from the host's Debian sources plus their deb-src
# twins; inside it, debian-build.sh fetches each source package with
# apt-get source, adds the project's patch as the last of Debian's quilt
# patches under a +stackclamp1 version, installs the build dependencies
# and runs dpkg-buildpackage as an unprivileged user.  Then the built
# packages are installed and check-tools.sh prints TAP.  The host's own
# packages are neither read nor changed.
#
# Run as root (mmdebstrap's root mode gives the hooks /proc, /sys and
# /dev, which elfutils' tests read).  The system is made in
# $BUILD/upstream/root and removed when the run passes (KEEP_ROOT=1 keeps
# it); the logs, the built .debs and the test suites' summaries stay in
# $BUILD/upstream/results.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)

# build-debian.sh --in-root ROOT OUT: mmdebstrap's customize hook, on
# the host: the builds and checks in ROOT, whose results are copied to
# OUT whatever the outcome.  A devpts instance of the system's own, as
# sbuild gives its chroots: the test suites run expect, whose ptys the
# host's /dev/pts (mode 600, no tty group) does not let the build user
# open.
if [ "${1:-}" = --in-root ]; then
	r=$2 results_out=$3
	here=$top/elf-note-tool/upstream
	# These scripts and patches, the note's header for programs, elfnote,
	# and the i386 programs of the guest's Debian root.
	mkdir -p "$r/upstream/data/i386" "$r/upstream/bin" "$r/upstream/include"
	cp -r "$here/." "$r/upstream/"
	cp "$top/tests/lib/tap.sh" "$r/upstream/"
	cp "$top/elf-note-tool/include/exec-policy-note.h" "$r/upstream/include/"
	cp "${ELFNOTE:?}" "$r/upstream/bin/elfnote"
	for p in passwd chfn chsh gpasswd newgrp su mount umount ping; do
		if [ -f "${I386_ROOT:?}/usr/bin/$p" ]; then
			cp "$I386_ROOT/usr/bin/$p" "$r/upstream/data/i386/$p"
		fi
	done
	mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5 devpts "$r/dev/pts"
	mount --bind "$r/dev/pts/ptmx" "$r/dev/ptmx"
	trap 'umount "$r/dev/ptmx" "$r/dev/pts"; cp -r "$r/build/results/." "$results_out/"' EXIT
	run() { chroot "$r" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 JOBS="${JOBS:-2}" "$@"; }
	run /upstream/debian-build.sh elfutils --without-patch
	run /upstream/debian-build.sh elfutils
	run /upstream/debian-build.sh binutils
	run /upstream/check-tools.sh > "$r/build/results/check-tools.tap"
	exit
fi
here=$top/elf-note-tool/upstream
BUILD=${BUILD:-$top/build}
JOBS=${JOBS:-$(nproc)}
out=$BUILD/upstream
root=$out/root
export DEPS_WHO=check-upstream-tools
# shellcheck source=deps/apt.sh
. "$top/deps/apt.sh"

[ "$(id -u)" = 0 ] || deps_die "run as root (mmdebstrap makes a chroot)"
command -v mmdebstrap >/dev/null || deps_die "mmdebstrap is missing: make deps"
elfnote=$BUILD/elfnote/elfnote
[ -x "$elfnote" ] || deps_die "no $elfnote: make elfnote first"
i386_root=$BUILD/debian/i386/root
[ -x "$i386_root/usr/bin/passwd" ] || deps_die "no Debian i386 programs in $i386_root: make debian-root ARCH=i386 first"

# The host's bookworm sources, with deb-src beside each deb.
sources=$(deps_host_sources | sed 's/^Types: deb$/Types: deb deb-src/')
[ -n "$sources" ] || deps_die "no bookworm main source on the host to build from"

rm -rf "$root" "$out/results"
mkdir -p "$out/results"
log=$out/build.log

start=$SECONDS
echo "  UPSTREAM  Debian's elfutils and binutils with elf-note-tool/upstream's patches; log: $log"
status=0
printf '%s\n' "$sources" | mmdebstrap --mode=root --variant=buildd \
	--include=fakeroot,ca-certificates,passwd,login,mount,iputils-ping \
	--customize-hook="JOBS=$JOBS ELFNOTE='$elfnote' I386_ROOT='$i386_root' '$here/build-debian.sh' --in-root \"\$1\" '$out/results'" \
	bookworm "$root" - > "$log" 2>&1 || status=$?

grep -E '^  (BUILD|TESTS|TIME) ' "$log" || true
tap=$out/results/check-tools.tap
if [ -s "$tap" ]; then
	cat "$tap"
	echo "$(grep -c '^ok ' "$tap") passed, $(grep -c '^not ok ' "$tap") failed"
fi
if [ "$status" != 0 ]; then
	tail -30 "$log" >&2
	deps_die "failed after $((SECONDS - start)) s (exit $status; log: $log; the system stays in $root)"
fi
[ -n "${KEEP_ROOT:-}" ] || rm -rf "$root"
echo "  UPSTREAM  done in $((SECONDS - start)) s"
