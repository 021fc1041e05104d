#!/bin/bash
# Host tests of deps/install.sh (make deps) against a local file:
# repository, without the network and without touching the host's
# packages (DEPS_ROOT): one suite's index does not match its Release file,
# as a stale mirror serves it, and another suite's index is missing.
# (An unsigned local suite cannot expire: the parser's reading of an
# expired or missing Release file is checked on apt's own words.)  The install goes through from the good suite with a warning that
# names each broken suite; a package that needs the broken suite is
# refused with its name and apt's reason in one line, and nothing is
# installed then.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="host deps: "
tap_plan 15
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'
# apt reads file: repositories as the _apt user when it can.
chmod 755 "$work"
arch=$(dpkg --print-architecture)

# deb SUITE NAME VERSION [DEPENDS]: a package of SUITE with one file,
# /usr/share/deps-test/NAME.
deb() {
	local d=$work/src/$1/$2-$3
	mkdir -p "$d/DEBIAN" "$d/usr/share/deps-test" "$work/repo/pool/$1"
	printf 'Package: %s\nVersion: %s\nArchitecture: all\nMaintainer: t <t@localhost>\n%sDescription: deps test\n' \
		"$2" "$3" "${4:+Depends: $4
}" > "$d/DEBIAN/control"
	echo "$2 $3" > "$d/usr/share/deps-test/$2"
	dpkg-deb -b --root-owner-group "$d" "$work/repo/pool/$1/$2_$3_all.deb" >/dev/null
}

# suite NAME [FIELD...]: dists/NAME with the packages of pool/NAME, and a
# Release file giving the index's size and hash, and FIELDs.
suite() {
	local dir=$work/repo/dists/$1/main/binary-$arch
	mkdir -p "$dir"
	(cd "$work/repo" && dpkg-scanpackages -m "pool/$1" /dev/null 2>/dev/null) > "$dir/Packages"
	{
		echo "Suite: $1"
		echo "Codename: $1"
		echo "Date: $(LC_ALL=C date -u -R)"
		echo "Components: main"
		echo "Architectures: $arch"
		[ $# -lt 2 ] || printf '%s\n' "${@:2}"
		echo "SHA256:"
		echo " $(sha256sum < "$dir/Packages" | cut -d' ' -f1) $(stat -c %s "$dir/Packages") main/binary-$arch/Packages"
	} > "$work/repo/dists/$1/Release"
}

deb good deps-a 1.0
deb good deps-b 1.0 deps-a
deb good deps-c 1.0 deps-d
deb stale deps-a 1.1
deb stale deps-d 1.0
suite good
suite stale
# The stale mirror: the index changed after its Release file was written.
echo "" >> "$work/repo/dists/stale/main/binary-$arch/Packages"
mkdir -p "$work/repo/dists/gone"

mkdir -p "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/root/var/lib/dpkg/info" \
	"$work/root/var/lib/dpkg/updates" "$work/none"
: > "$work/root/var/lib/dpkg/status"
cat > "$work/apt.conf" <<CONF
Dir::State "$work/apt";
Dir::State::Lists "$work/apt/lists";
Dir::Cache "$work/apt/cache";
Dir::Etc::SourceList "$work/sources.list";
Dir::Etc::SourceParts "$work/none";
Dir::Etc::Preferences "$work/none";
Dir::Etc::PreferencesParts "$work/none";
Dir::Log "$work/apt";
APT::Architecture "$arch";
APT::Sandbox::User "root";
#clear DPkg::Pre-Invoke;
#clear DPkg::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
CONF
for s in good stale gone; do
	echo "deb [trusted=yes] file:$work/repo $s main"
done > "$work/sources.list"

deps() {
	APT_CONFIG=$work/apt.conf DEPS_ROOT=$work/root DEPS_RETRY_DELAYS="0 0" \
		"$top/deps/install.sh" "$@" > "$work/out" 2> "$work/err"
}
installed_version() {
	dpkg-query --admindir="$work/root/var/lib/dpkg" -W -f='${Status} ${Version}\n' "$1" 2>/dev/null
}

deps deps-b
status=$?
[ "$status" = 0 ]
tap_check $? "the install goes through with one suite's index stale and another suite gone (exit $status)"
grep -qE "^make deps: warning: index of suite stale \(main, $arch\) could not be fetched, going on without it: file:$work/repo/dists/stale/main/binary-$arch/Packages: (Hash Sum mismatch|File has unexpected size)" "$work/err"
tap_check $? "the warning names the stale suite, its component and architecture, and apt's reason"
grep -qxF "make deps: warning: index of suite gone (main, $arch) could not be fetched, going on without it: file:$work/repo/dists/gone/main/binary-$arch/Packages: File not found - $work/repo/dists/gone/main/binary-$arch/Packages (2: No such file or directory)" "$work/err"
tap_check $? "a suite whose index is missing is named too"

[ "$(grep -c 'warning:' "$work/err")" = 2 ]
tap_check $? "no other suite is warned about"
[ "$(grep -c 'apt-get update again in 0 s' "$work/err")" = 2 ]
tap_check $? "apt-get update is tried three times before giving up on an index"
[ "$(installed_version deps-b)" = "install ok installed 1.0" ] &&
	[ "$(installed_version deps-a)" = "install ok installed 1.0" ]
tap_check $? "the package and its dependency are installed, from the suite that could be read"
[ "$(cat "$work/root/usr/share/deps-test/deps-a")" = "deps-a 1.0" ]
tap_check $? "their files are in place"

deps deps-b
status=$?
[ "$status" = 0 ] && [ ! -s "$work/out" ] && [ ! -s "$work/err" ]
tap_check $? "nothing is done when every package is installed (exit $status, silent)"

deps deps-c
status=$?
[ "$status" = 1 ]
tap_check $? "a package that needs the stale suite fails the run (exit $status)"
grep -qxF "make deps: cannot install deps-c: Depends: deps-d but it is not installable" "$work/err"
tap_check $? "its name and apt's reason are one line"
[ -z "$(installed_version deps-c)" ]
tap_check $? "nothing is installed then"

deps deps-nosuch deps-c
status=$?
[ "$status" = 1 ] && grep -qxF "make deps: cannot install deps-nosuch: no such package in any fetched index" "$work/err"
tap_check $? "an unknown package is named as such (exit $status)"

# An apt-get update failure that is not a suite's index stays fatal.
echo "deb [trusted=yes file:$work/repo good main" > "$work/sources.list"
deps deps-d
status=$?
[ "$status" = 1 ] && grep -q "^make deps: apt-get update failed" "$work/err"
tap_check $? "a broken source list is fatal (exit $status)"

# apt's words for a suite whose Release file is expired or missing, as a
# mirror prints them (apt 2.6).
cat > "$work/update.log" <<'LOG'
E: Release file for http://mirror.example/debian/dists/bookworm-updates/InRelease is expired (invalid since 2d 3h 4min 5s). Updates for this repository will not be applied.
E: The repository 'http://mirror.example/debian bookworm-nosuch Release' does not have a Release file.
W: Failed to fetch http://mirror.example/debian-security/dists/bookworm-security/main/binary-i386/by-hash/SHA256/0123  File has unexpected size (371952 != 372316). Mirror sync in progress? [IP: 10.0.0.1 80]
LOG
cat > "$work/expected" <<'WANT'
bookworm-nosuch - - http://mirror.example/debian/dists/bookworm-nosuch/Release: does not have a Release file
bookworm-security main i386 http://mirror.example/debian-security/dists/bookworm-security/main/binary-i386/by-hash/SHA256/0123: File has unexpected size (371952 != 372316). Mirror sync in progress? [IP: 10.0.0.1 80]
bookworm-updates - - http://mirror.example/debian/dists/bookworm-updates/InRelease: is expired (invalid since 2d 3h 4min 5s). Updates for this repository will not be applied.
WANT
(. "$top/deps/apt.sh" && deps_failed_indexes "$work/update.log") | diff -u "$work/expected" - | sed 's/^/# /'
[ "${PIPESTATUS[1]}" = 0 ]
tap_check $? "an expired or missing Release file, and a by-hash index, are read as their suite's"

# Another release's suites from the host's own sources (deps_sources_for:
# deps/linux-source.sh), in both formats: security suites where the host
# reads bookworm-security, the others where it reads bookworm, keyring
# kept; suites the host has no archive for are left out.
mkdir -p "$work/parts"
cat > "$work/parts/debian.sources" <<'SRC'
Types: deb
URIs: http://mirror.example/debian
Suites: bookworm bookworm-updates
Components: main contrib
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://mirror.example/debian
Suites: bookworm
Components: main
SRC
echo "deb [signed-by=/k.gpg] http://security.example/debian-security bookworm-security main" > "$work/list"
cat > "$work/expected" <<'WANT'
Types: deb
URIs: http://mirror.example/debian
Suites: bullseye
Components: main
Check-Valid-Until: no
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://security.example/debian-security
Suites: bullseye-security
Components: main
Check-Valid-Until: no
Signed-By: /k.gpg

WANT
(SOURCES_PARTS=$work/parts SOURCES_LIST=$work/list; . "$top/deps/apt.sh" && deps_sources_for bullseye bullseye-security) |
	diff -u "$work/expected" - | sed 's/^/# /'
[ "${PIPESTATUS[1]}" = 0 ]
tap_check $? "another release's suites are read from the host's archives, security from its security archive"
