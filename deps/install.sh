#!/bin/bash
# deps/install.sh [PACKAGE...]: install the host packages the project
# needs (default: those deps/packages.txt names) that are not installed
# yet; `make deps` runs it.  Nothing happens when every one is installed.
#
# Only packages of the host's own architecture: the host's dpkg
# architectures are never changed (deps/fetch.sh brings packages of other
# architectures as data).  An index apt-get update cannot fetch is a
# warning naming its suite (deps/apt.sh); a package that cannot be
# installed is fatal, one line per package with apt's reason.
#
# DEPS_ROOT=DIR installs under DIR instead of / (its own dpkg database in
# DIR/var/lib/dpkg): tests/host/test-deps.sh runs this script that way,
# with APT_CONFIG naming a configuration of a local repository.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
DEPS_WHO="make deps"
. "$here/apt.sh"

# NAME and NAME--no-install-recommends words, from the arguments or the list.
if [ $# -gt 0 ]; then
	wanted=("$@")
else
	mapfile -t wanted < <(sed -e 's/#.*//' -e 's/[[:space:]]\{1,\}--/--/' -e 's/[[:space:]]//g' -e '/^$/d' "$here/packages.txt")
fi

APT=(apt-get -q)
query=(dpkg-query)
if [ -n "${DEPS_ROOT:-}" ]; then
	admin=$DEPS_ROOT/var/lib/dpkg
	APT+=(-o "Dir::State::status=$admin/status"
		-o "DPkg::Options::=--root=$DEPS_ROOT" -o "DPkg::Options::=--admindir=$admin"
		-o "DPkg::Options::=--force-script-chrootless" -o "DPkg::Options::=--force-bad-path"
		-o "DPkg::Options::=--log=$DEPS_ROOT/dpkg.log")
	[ "$(id -u)" = 0 ] || APT+=(-o "DPkg::Options::=--force-not-root" -o Debug::NoLocking=true)
	query+=(--admindir="$admin")
fi

installed() { "${query[@]}" -W -f='${Status}\n' "$1" 2>/dev/null | grep -q '^install ok installed$'; }

missing=() bare=()
for word in "${wanted[@]}"; do
	case "$word" in
	*--no-install-recommends) installed "${word%--*}" || bare+=("${word%--*}") ;;
	*) installed "$word" || missing+=("$word") ;;
	esac
done
[ $(( ${#missing[@]} + ${#bare[@]} )) -gt 0 ] || exit 0

echo "  DEPS    installing: ${missing[*]} ${bare[*]}"
if [ -z "${DEPS_ROOT:-}" ] && [ "$(id -u)" != 0 ]; then
	deps_die "run as root to install: ${missing[*]} ${bare[*]}"
fi

logs=$(mktemp -d "${TMPDIR:-/tmp}/deps.XXXXXX")
deps_update "$logs/update.log"

# install_set FLAGS PACKAGE...: simulated first, so that a package apt
# cannot install is named with its reason before anything changes.
install_set() {
	local flags=$1
	shift
	[ $# -gt 0 ] || return 0
	# shellcheck disable=SC2086 # flags: none or one word
	if ! "${APT[@]}" install -s -y $flags "$@" > "$logs/simulate.log" 2>&1; then
		deps_explain_install "$logs/simulate.log" "$@" | sed "s/^/$DEPS_WHO: cannot install /" >&2
		deps_die "nothing installed (apt-get's output: $logs/simulate.log)"
	fi
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive "${APT[@]}" install -y $flags "$@" > "$logs/install.log" 2>&1 ||
		{ tail -20 "$logs/install.log" >&2; deps_die "apt-get install failed (log: $logs/install.log)"; }
}
install_set "" "${missing[@]}"
install_set --no-install-recommends "${bare[@]}"
rm -rf "$logs"
echo "  DEPS    installed ${#missing[@]} package(s) and ${#bare[@]} without recommends"
