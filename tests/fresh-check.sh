#!/bin/bash
# tests/fresh-check.sh: the README's first steps on a fresh Debian 12
# system, not on this machine's installed state.  mmdebstrap builds a
# clean bookworm (amd64, minbase, plus make and git, which every machine
# the project runs on has) with the host's Debian sources; a clean clone
# of this checkout's HEAD goes in; there, as root, `make deps` installs
# the host packages and `make check-host` builds and runs every host test
# (elfnote, its Debian package, the i386 data packages fetched with the
# project's own apt configuration, the kernel tree and UAPI headers).
# Then the system must still have no foreign dpkg architecture.  No guest
# kernel is built (that is make check's, on the real machine).
#
# Run as root (mmdebstrap's root mode: the hooks get /proc, /sys and
# /dev).  The system is made in $BUILD/fresh-root and removed when the
# check passes; the log is $BUILD/fresh-check.log.  Its time goes to
# docs/measurements.md by hand.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
root=$BUILD/fresh-root
log=$BUILD/fresh-check.log
DEPS_WHO=fresh-check
. "$top/deps/apt.sh"

[ "$(id -u)" = 0 ] || deps_die "run as root (mmdebstrap makes a chroot)"
command -v mmdebstrap >/dev/null || deps_die "mmdebstrap is missing: make deps"
rev=$(git -C "$top" rev-parse HEAD)
git -C "$top" diff --quiet HEAD || echo "fresh-check: the work tree has changes; the check runs HEAD ($rev)" >&2

rm -rf "$root"
mkdir -p "$BUILD"
sources=$(deps_host_sources)
[ -n "$sources" ] || deps_die "no bookworm main source on the host to give the fresh system"

# What runs inside, as root, from the clone: the README's deps step, the
# host tests, and the architectures check.
inside='set -e
cd /src/stackclamp
make deps
make check-host
foreign=$(dpkg --print-foreign-architectures)
[ -z "$foreign" ] || { echo "fresh-check: dpkg has foreign architectures: $foreign" >&2; exit 1; }
echo "fresh-check: no foreign dpkg architecture"'

start=$SECONDS
echo "  FRESH   bookworm (minbase, make, git) in $root, then make deps and make check-host inside; log: $log"
status=0
printf '%s\n' "$sources" | mmdebstrap --mode=root --variant=minbase --include=make,git,ca-certificates \
	--customize-hook="git clone -q '$top' \"\$1/src/stackclamp\" && git -C \"\$1/src/stackclamp\" checkout -q '$rev'" \
	--customize-hook="chroot \"\$1\" env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb LANG=C.UTF-8 bash -c '$inside'" \
	bookworm "$root" - > "$log" 2>&1 || status=$?
grep -E '^[0-9]+ passed, [0-9]+ failed$|^fresh-check: |^[^ ]+: warning: index|cannot install' "$log" || true
if [ "$status" != 0 ]; then
	tail -30 "$log" >&2
	deps_die "failed after $((SECONDS - start)) s (exit $status; log: $log; the system stays in $root)"
fi
rm -rf "$root"
echo "  FRESH   passed in $((SECONDS - start)) s ($rev)"
