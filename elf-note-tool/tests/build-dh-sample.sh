#!/bin/bash
# build-dh-sample.sh OUT: what a packager's machine does, in OUT.  Builds
# the elfnote and dh-elfnote packages (debian/, elf-note-tool/) into
# OUT/pkg, unpacks them into OUT/root, then builds tests/dh-sample with that elfnote, dh_elfnote
# and addon into OUT/a and unpacks the sample's .deb into OUT/deb-root.
# Logs: OUT/pkg/build.log, OUT/a/build.log.  Exits 0, 10 when the elfnote
# package did not build, 20 when the sample did not.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
# A packager's shell, not the make this may run under: variables given to
# that make on its command line would reach debian/rules through MAKEFLAGS.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
out=$1
arch=$(dpkg --print-architecture)

mkdir -p "$out/pkg/elfnote" "$out/a" || exit 10
cp -a "$top/debian" "$top/elf-note-tool" "$out/pkg/elfnote/" || exit 10
(cd "$out/pkg/elfnote" && dpkg-buildpackage -b -uc -us) > "$out/pkg/build.log" 2>&1 &&
	dpkg-deb -x "$out/pkg"/elfnote_*_"$arch".deb "$out/root" &&
	dpkg-deb -x "$out/pkg"/dh-elfnote_*_all.deb "$out/root" || exit 10

export PATH="$out/root/usr/bin:$PATH"
export PERL5LIB="$out/root/usr/share/perl5${PERL5LIB:+:$PERL5LIB}"
cp -a "$top/elf-note-tool/tests/dh-sample" "$out/a/sample" || exit 20
(cd "$out/a/sample" && dpkg-buildpackage -b -uc -us -d) > "$out/a/build.log" 2>&1 &&
	dpkg-deb -R "$out/a/sample_1.0-1_$arch.deb" "$out/deb-root" || exit 20
