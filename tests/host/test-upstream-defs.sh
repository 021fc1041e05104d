#!/bin/bash
# The elfutils and binutils patches (elf-note-tool/upstream) define the
# exec policy note as elf-note-tool/include/exec-policy-note.h does: the
# #define lines each patch adds are compiled ahead of
# elf-note-tool/upstream/agree.c, whose static assertions compare them.
# (make check-upstream-tools compiles agree.c against the patched trees
# themselves.)  One result per patch.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="upstream patches: "
up=$top/elf-note-tool/upstream
tmp=$(mktemp -d)
tap_on_exit "rm -rf '$tmp'"

mapfile -t patches < <(ls "$up"/elfutils/*.patch "$up"/binutils/*.patch)
tap_plan "${#patches[@]}"

for patch in "${patches[@]}"; do
	name=${patch#"$up"/}
	sed -n -E 's/^\+(#define[[:space:]]+(NT_LINUX_EXEC_POLICY|LINUX_EXEC_POLICY_[A-Z_]+|ELF_NOTE_LINUX)[[:space:]].*)$/\1/p' \
		"$patch" > "$tmp/defs.h"
	count=$(grep -c . "$tmp/defs.h")
	gcc -std=c11 -Wall -Werror -fsyntax-only -I"$top/elf-note-tool/include" \
		-include "$tmp/defs.h" "$up/agree.c" 2> "$tmp/err"
	status=$?
	# The note type, both properties and the unit: four at least.
	[ "$status" = 0 ] && [ "$count" -ge 4 ]
	tap_check $? "$name: its $count definitions agree with exec-policy-note.h"
	[ "$status" = 0 ] || tap_diag "$(cat "$tmp/err")"
done
