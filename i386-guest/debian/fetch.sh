#!/bin/bash
# fetch.sh [DEBARCH]: download Debian bookworm's DEBARCH packages (i386,
# armhf: abis.txt's debroot column) of the guests' /debian root
# (packages.txt and their dependencies, without Recommends) into the
# shared .deb cache, with the project's own apt configuration for DEBARCH
# (deps/apt.sh, shared with deps/fetch.sh: the host's sources restricted
# to bookworm, bookworm-updates and bookworm-security, main; its own
# state and an empty dpkg status; no lock; none of the host's hooks);
# writes $BUILD/debian/DEBARCH/debs.txt, the .deb files of the closure,
# one a line.  The host's package state and dpkg architectures are not
# touched.
#
# A warm run (same packages.txt, same source list, every .deb of debs.txt
# present) uses no network.  FETCH_REFRESH=1 fetches again anyway.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
DEPS_WHO=fetch.sh
. "$top/deps/apt.sh"
debarch=${1:-i386}
dir=$BUILD/debian/$debarch
aptdir=$CACHE/apt-$debarch
archives=$DEPS_DEBS
manifest=$dir/debs.txt
stamp=$dir/fetch.stamp

die() { echo "fetch.sh: $*" >&2; exit 1; }
if [ "$debarch" = - ] || ! "$top/i386-guest/abis.sh" debroot | grep -qxF -- "$debarch"; then
	die "'$debarch' is no kernel's debroot in i386-guest/abis.txt"
fi

# The packages asked for: packages.txt without comments.
packages() { sed -e 's/#.*//' -e 's/[[:space:]]//g' -e '/^$/d' "$here/packages.txt"; }

mkdir -p "$dir"
deps_private_apt "$aptdir" "$debarch"

mapfile -t wanted < <(packages)
[ "${#wanted[@]}" -gt 0 ] || die "$here/packages.txt names no package"

want_stamp=$({ echo "$debarch"; cat "$0" "$top/deps/apt.sh" "$here/packages.txt" "$aptdir/sources.list.d/debian.sources"; } | sha256sum | cut -d' ' -f1)
complete() {
	[ -s "$manifest" ] || return 1
	local deb
	while read -r deb; do [ -f "$archives/$deb" ] || return 1; done < "$manifest"
}
if [ "${FETCH_REFRESH:-0}" != 1 ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want_stamp" ] && complete; then
	echo "  DEBIAN  $debarch: $(wc -l < "$manifest") packages cached in $archives"
	exit 0
fi

apt() { "${APT[@]}" "$@"; }

# Every index, or a warning naming the suites that could not be read (a
# package proxy was seen serving a stale bookworm-security index for
# days); a package of the closure that cannot be had without them fails
# the install step below, which names it.
echo "  DEBIAN  apt-get update (bookworm $debarch, $aptdir)"
deps_private_update "$aptdir"

exec 9> "$archives/.lock"
flock 9
# The closure, as apt would install it on an empty system: one .deb per
# "Inst NAME (VERSION ...)" line, named as apt names its downloads
# (NAME_VERSION_ARCH.deb, the epoch's colon as %3a).
if ! apt install -s -y --no-install-recommends "${wanted[@]}" > "$aptdir/log/simulate.log" 2>&1; then
	deps_explain_install "$aptdir/log/simulate.log" "${wanted[@]}" | sed "s/^/fetch.sh: cannot fetch $debarch /" >&2
	die "step 'apt-get install -s' (the closure) failed (log: $aptdir/log/simulate.log)"
fi
echo "  DEBIAN  apt-get install --download-only ($debarch): ${wanted[*]}"
apt install --download-only -y --no-install-recommends "${wanted[@]}" > "$aptdir/log/install.log" 2>&1 ||
	{ tail -20 "$aptdir/log/install.log" >&2; die "step 'apt-get install --download-only' failed (log: $aptdir/log/install.log)"; }

sed -nE 's/^Inst ([^ ]+) \(([^ ]+) .* \[([a-z0-9]+)\]\).*$/\1_\2_\3.deb/p' "$aptdir/log/simulate.log" |
	sed 's/:/%3a/g' | LC_ALL=C sort > "$manifest.new"
[ -s "$manifest.new" ] || die "step 'apt-get install -s' listed no package (log: $aptdir/log/simulate.log)"
while read -r deb; do
	[ -f "$archives/$deb" ] || die "step 'apt-get install --download-only' left out $deb"
done < "$manifest.new"
# Rewritten only when the closure changed: the Makefile rebuilds the root
# when this file is newer than the archive.
if cmp -s "$manifest.new" "$manifest"; then rm "$manifest.new"; else mv "$manifest.new" "$manifest"; fi
echo "$want_stamp" > "$stamp"
flock -u 9
echo "  DEBIAN  $debarch: $(wc -l < "$manifest") packages, $(cd "$archives" && xargs -d '\n' du -ch < "$manifest" | tail -1 | cut -f1) in $archives"
