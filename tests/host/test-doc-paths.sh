#!/bin/bash
# Every path of this repository that a document names exists: a file
# moved or renamed must take the docs with it.  A path is a word that
# starts with one of the project's top-level folders; a component in
# capitals is a placeholder (kernel/patches/SERIES/series), a patch is
# named by its number (kernel/patches/6.1/0004), and build products
# (*.o, build/...) are not the repository's.  One result per document.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. "$top/tests/lib/tap.sh"
TAP_PREFIX="docs: "

mapfile -t docs < <(ls README.md docs/*.md elf-note-tool/README.md kernel/patches/*/README.md 2>/dev/null)
tap_plan "${#docs[@]}"

# The repository path a named path stands for, as a glob.
as_glob() {
	local p=$1
	# Placeholders: SERIES, ARCH, ABI, NAME ...
	p=$(echo "$p" | sed -E 's#(^|/)[A-Z][A-Z0-9_]*(/|$)#\1*\2#g')
	# A patch by number, or a range of them (0008-0010: the first).
	p=$(echo "$p" | sed -E 's#^(kernel/patches/[^/]+/[0-9]{4})(-[0-9]{4})?$#\1-*.patch#')
	echo "$p"
}

missing_in() {
	local doc=$1 p
	grep -oP '(?<![A-Za-z0-9_./-])(\.ci|kernel|elf-note-tool|samples|i386-guest|tests|docs)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]' "$doc" |
	sort -u | while read -r p; do
		case $p in *.o) continue ;; esac
		compgen -G "$(as_glob "$p")" > /dev/null || echo "$p"
	done
}

for doc in "${docs[@]}"; do
	missing=$(missing_in "$doc")
	[ -z "$missing" ]
	tap_check $? "every repository path $doc names exists"
	[ -z "$missing" ] || tap_diag "$(echo "$missing" | sed 's/^/  missing: /')"
done
