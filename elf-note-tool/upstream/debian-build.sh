#!/bin/bash
# elf-note-tool/upstream/debian-build.sh PACKAGE [--without-patch]:
# inside the bookworm system build-debian.sh makes, build Debian's
# PACKAGE (elfutils or binutils) with the project's patch as a build
# daemon would, test suite included.  Run as root; dpkg-buildpackage runs
# as the user "builder".  The built .debs and the test suite's results go
# to /build/results.  --without-patch builds Debian's package as it is
# and keeps only its test results (PACKAGE-stock-results.txt), for
# check-tools.sh to compare with.
set -euo pipefail

pkg=$1
stock_build=
[ "${2:-}" = --without-patch ] && stock_build=-stock
here=/upstream
results=/build/results
JOBS=${JOBS:-2}
work=/build/$pkg$stock_build
say() { printf '  %-6s  %-8s %s\n' "$1" "$pkg$stock_build" "$2"; }

# What differs between the two packages.  binutils: only the native
# build ("single"), without the all-targets, hppa64 and cross builds
# (nomult, nohppa, nocross) or the two-pass profiled LTO build (nopgo):
# the patch is to readelf, which every build shares, and each of those is
# as long as the native build again.  Its test suite then runs once, for
# the native build.  (Not nogold: Debian's rules then leave gprofng.rc
# out of binutils-common, whose conffiles still name it, and the build
# fails.)  The cross compilers in its
# Build-Depends are marked <!nocheck> and serve only the cross builds'
# tests, so the dependencies are installed without them (-P nocheck) and
# dpkg-buildpackage is told not to look for them (-d).
case $pkg in
elfutils)
	build_options="parallel=$JOBS"
	dep_profile=()
	dpkg_flags=()
	stock_debs="elfutils libelf1 libdw1"
	;;
binutils)
	build_options="parallel=$JOBS nomult nohppa nocross nopgo"
	dep_profile=(-P nocheck)
	dpkg_flags=(-d)
	stock_debs=
	;;
*)
	echo "debian-build.sh: no build recipe for $pkg" >&2
	exit 64
	;;
esac

id builder >/dev/null 2>&1 || useradd --create-home builder
install -d -o builder "$work" "$results"
cd "$work"

# The bookworm binaries as they are, for check-tools.sh's rows that show
# what the tools did before the patch.
if [ -n "$stock_debs" ] && [ -z "$stock_build" ]; then
	mkdir -p "/opt/stock/$pkg"
	# shellcheck disable=SC2086 # a list of package names
	runuser -u builder -- apt-get download -q $stock_debs
	for deb in ./*.deb; do dpkg-deb -x "$deb" "/opt/stock/$pkg"; done
	rm -f ./*.deb
fi

# bookworm's binutils ships the summary of its own test suite run;
# check-tools.sh compares this build's with it, as Debian's rules do.
if [ "$pkg" = binutils ] && [ -z "$stock_build" ]; then
	mkdir -p /opt/stock/binutils
	cp "/usr/share/doc/binutils/test-summary-$(dpkg --print-architecture).gz" /opt/stock/binutils/
fi

runuser -u builder -- apt-get source -q "$pkg" > source.log 2>&1 ||
	{ cat source.log >&2; exit 1; }
dir=$(find . -mindepth 1 -maxdepth 1 -type d -name "$pkg-*")
[ -n "$dir" ] || { echo "debian-build.sh: apt-get source $pkg made no tree" >&2; exit 1; }
version=$(dpkg-parsechangelog -l "$dir/debian/changelog" -SVersion)

# The project's patches go last in Debian's quilt series, unapplied:
# dpkg-buildpackage applies them (and fails if one does not apply).
names=()
[ -n "$stock_build" ] || for patch in "$here/$pkg"/*.patch; do
	name=stackclamp-$(basename "$patch")
	cp "$patch" "$dir/debian/patches/$name"
	echo "$name" >> "$dir/debian/patches/series"
	names+=("$name")
done
chown -R builder "$dir"
new_version=$version+stackclamp1
[ -z "$stock_build" ] || new_version=$version
[ -n "$stock_build" ] || {
	printf '%s (%s) UNRELEASED; urgency=medium\n\n' "$pkg" "$new_version"
	printf '  * Decode and check Linux exec policy notes: debian/patches/%s.\n' "${names[@]}"
	printf '\n -- Stackclamp Developers <dev@stackclamp.invalid>  %s\n\n' "$(date -R)"
	cat "$dir/debian/changelog"
} > changelog.new
[ -n "$stock_build" ] || runuser -u builder -- cp changelog.new "$dir/debian/changelog"
say BUILD "$new_version (Debian's $version${names[*]:+ and }${names[*]})"

apt-get build-dep -y -q "${dep_profile[@]}" "./$dir" > build-dep.log 2>&1 ||
	{ tail -20 build-dep.log >&2; exit 1; }

start=$SECONDS
status=0
(cd "$dir" && runuser -u builder -- env DEB_BUILD_OPTIONS="$build_options" \
	dpkg-buildpackage -B -us -uc "${dpkg_flags[@]}") > build.log 2>&1 || status=$?
say TIME "dpkg-buildpackage -B $((SECONDS - start)) s (DEB_BUILD_OPTIONS=\"$build_options\")"
cp build.log "$results/$pkg$stock_build-build.log"
if [ "$status" != 0 ]; then
	tail -40 build.log >&2
	echo "debian-build.sh: dpkg-buildpackage of $pkg failed (exit $status)" >&2
	exit 1
fi

# Each test's result, "NAME RESULT" a line, from automake's .trs files.
if [ "$pkg" = elfutils ]; then
	for trs in "$dir"/tests/*.trs; do
		printf '%s %s\n' "$(basename "$trs" .trs)" "$(sed -n 's/^:test-result: //p' "$trs")"
	done > "$results/elfutils$stock_build-results.txt"
	cp "$dir/tests/test-suite.log" "$results/elfutils$stock_build-test-suite.log"
fi
if [ -n "$stock_build" ]; then
	say TESTS "results in $results/elfutils$stock_build-results.txt"
	exit 0
fi

mkdir -p "$results/debs/$pkg"
mv ./*.deb "$results/debs/$pkg/"
case $pkg in
elfutils)
	;;
binutils)
	cp "$dir/test-summary" "$results/binutils-test-summary"
	;;
esac
say TESTS "results in $results"
