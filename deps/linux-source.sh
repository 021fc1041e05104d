#!/bin/bash
# deps/linux-source.sh SERIES: prints the path of Debian's
# linux-source-SERIES tarball for a series the host's suites do not carry
# (deps/kernel-sources.txt: 7.2, 5.10), fetched as data with an apt
# configuration of the project's own (deps/apt.sh), never installed.
#
# The .deb goes to the shared cache of Debian packages; its tarball is unpacked beside it, under
# the package's version, and kernel/tree.sh keys the trees it makes from
# it by the tarball's checksum.  A warm run (the tarball of the wanted
# version already unpacked) reads no index and uses no network.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
DEPS_WHO="deps/linux-source.sh"
. "$here/apt.sh"

series=${1:?usage: deps/linux-source.sh SERIES}
read -r _ package version suites < <(awk -v s="$series" '!/^#/ && $1 == s' "$here/kernel-sources.txt") ||
	deps_die "deps/kernel-sources.txt names no series $series"
store=$CACHE/linux-source
tarball_of() { echo "$store/$package-$1/linux-source-$series.tar.xz"; }

if [ "$version" != - ] && [ -f "$(tarball_of "$version")" ]; then
	tarball_of "$version"
	exit 0
fi

aptdir=$CACHE/apt-source-$series
# shellcheck disable=SC2086 # suites: words
deps_private_apt "$aptdir" amd64 $suites
echo "  FETCH   $package ($version) from $suites" >&2
deps_private_update "$aptdir"

# The version to take: the pinned one if a suite still has it, else the
# newest there is, with a warning (the series may then not apply, and
# kernel/tree.sh says so).
have=$(apt-cache -c "$aptdir/apt.conf" madison "$package" | awk -F' *[|] *' '{ print $2 }')
[ -n "$have" ] || deps_die "no suite of $suites has $package (log: $aptdir/log/update.log)"
if [ "$version" = - ]; then
	version=$(head -1 <<< "$have")
elif ! grep -qxF -- "$version" <<< "$have"; then
	deps_warn "$package $version is in none of $suites any more; taking $(head -1 <<< "$have") (kernel-sources.txt pins $version)"
	version=$(head -1 <<< "$have")
fi
tarball=$(tarball_of "$version")
if [ -f "$tarball" ]; then
	echo "$tarball"
	exit 0
fi

# apt-get download fetches the one package, checked against the index's
# hash, and none of its dependencies: install --download-only would
# resolve binutils and the rest in sid too (19 packages), and fail when
# any of them is not installable there that day.
exec 9> "$DEPS_DEBS/.lock"
flock 9
(cd "$DEPS_DEBS" && "${APT[@]}" download "$package=$version") > "$aptdir/log/download.log" 2>&1 ||
	{ tail -20 "$aptdir/log/download.log" >&2; deps_die "cannot download $package $version (log: $aptdir/log/download.log)"; }
deb=$DEPS_DEBS/${package}_${version//:/%3a}_all.deb
[ -f "$deb" ] || deps_die "$package $version was not downloaded (log: $aptdir/log/download.log)"
flock -u 9

dir=$(dirname "$tarball")
rm -rf "$dir" "$dir.tmp"
mkdir -p "$dir.tmp"
dpkg-deb --fsys-tarfile "$deb" | tar -x -O "./usr/src/linux-source-$series.tar.xz" > "$dir.tmp/linux-source-$series.tar.xz" ||
	deps_die "$deb holds no usr/src/linux-source-$series.tar.xz"
mv "$dir.tmp" "$dir"
echo "  SOURCE  $tarball ($package $version)" >&2
echo "$tarball"
