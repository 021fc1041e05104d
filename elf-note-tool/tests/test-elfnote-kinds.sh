#!/bin/bash
# elfnote show/check against readelf and eu-readelf on the ELF kinds matrix
# (elf-note-tool/tests/make-elf-kinds.sh): i386, x86_64, MIPS, PowerPC and PowerPC64
# programs from gcc, clang and the assembler, glibc and musl, static,
# static-pie and dynamic, with and without the note, and stripped.  For
# every file: elfnote's class, byte order and type are readelf -h's; the
# file is linked as the manifest says; readelf -n and eu-readelf -n see the
# note exactly when the manifest says it was stamped; elfnote shows the
# manifest's value, and the value readelf prints in the descriptor; check
# exits 0 for a stamped file and 1 for an unstamped one.  The matrix must
# keep covering both classes, byte orders, ELF types, linkings, compilers
# and libcs.  TAP.
set -uo pipefail

. "$(dirname "$0")/elfnote-env.sh"
TAP_PREFIX="elfnote kinds: "
. "$top/tests/lib/tap.sh"
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'
export LC_ALL=C

# Built afresh (a few seconds), so there is no cache to go stale.
kinds=$work/kinds
if ! "$top/elf-note-tool/tests/make-elf-kinds.sh" "$kinds" 2>"$work/build.err"; then
	tap_plan 1
	tap_check 1 "make-elf-kinds.sh builds every kind"
	sed 's/^/#   /' "$work/build.err"
	exit 1
fi
manifest=$kinds/kinds.tsv

# listed NAME NOTE EXTRA: the manifest line of NAME has its 11 columns
# and the file was built.
listed() {
	[ -f "$kinds/$1" ] && [ -n "$2" ] && [ -z "$3" ]
}

# The results, from the manifest: the build (1), the coverage (7 covers,
# 2 more), the file count (1); per file, 6 checks of what was read (1 for
# a line that is not listed), and 4 of its edit, one more for where the
# edit put things (the notes, or the bytes in place) and one more when
# the file runs here (x86_64).
planned_results() {
	local n=$((1 + 7 + 2 + 1)) name arch note extra
	while IFS=$'\t' read -r name _ _ _ _ _ _ arch _ _ note extra; do
		case "$name" in ''|'#'*) continue ;; esac
		if listed "$name" "$note" "${extra:-}"; then n=$((n + 6)); else n=$((n + 1)); fi
		n=$((n + 5))
		[ "$arch" != x86_64 ] || n=$((n + 1))
	done < "$manifest"
	echo "$n"
}
tap_plan "$(planned_results)"
tap_check 0 "make-elf-kinds.sh builds every kind"

# --- coverage: the matrix cannot silently shrink ---------------------------
# covers COLUMN NAME VALUE...: some file has each VALUE in that column.
covers() {
	local col=$1 what=$2 value missing=""
	shift 2
	for value in "$@"; do
		awk -F'\t' -v c="$col" -v v="$value" '!/^#/ && $c == v { found = 1 } END { exit !found }' \
			"$manifest" || missing="$missing $value"
	done
	[ -z "$missing" ]
	tap_check $? "the matrix covers $what: $*${missing:+ (missing:$missing)}"
}
covers 2 "ELF classes" 32 64
covers 3 "byte orders" little big
covers 4 "ELF types" EXEC DYN
covers 5 "linkings" static dynamic
covers 6 "compilers" gcc clang as
covers 7 "libcs" glibc musl none
covers 9 "programs the i386 guest could run" yes
awk -F'\t' '!/^#/ && $11 == "none" { n++ } !/^#/ && $11 ~ /^[0-9]+$/ { s++ }
	END { exit !(n > 0 && s > 0) }' "$manifest"
tap_check $? "the matrix has stamped and unstamped files"
# Both notes of each combination that matters to the kernel's reader.
missing=$(awk -F'\t' '!/^#/ { k = $2 "-" $3 "-" $4; if ($11 == "none") u[k] = 1; else s[k] = 1; all[k] = 1 }
	END { for (k in all) if (!u[k] || !s[k]) printf " %s", k }' "$manifest")
[ -z "$missing" ]
tap_check $? "every class/byte order/type combination in the matrix is there stamped and unstamped${missing:+ (not:$missing)}"

# --- what readelf and eu-readelf say ---------------------------------------
# readelf_notes FILE: one line per policy note readelf -n shows:
# "DESCSZ BYTE..." (the description data, as printed: on the next line,
# or on the same one with -W).
readelf_notes() {
	readelf -n "$1" 2>/dev/null | awk '
		$1 == "Linux" && /Unknown note type: \(0x45584543\)/ { sz = $2; want = 1 }
		want && /description data:/ { sub(/.*description data: */, ""); print sz, $0; want = 0 }'
}

# desc_value DATA DESCSZ BYTE...: the stack value of a descriptor, a list
# of (u32 type, u32 size, data) properties in DATA's order of which type 1
# (8 bytes) is the stack, 0 when absent; or "malformed (...)".
desc_value() {
	local data=$1 descsz=$2
	shift 2
	local b=("$@") off=0 stack=0 type size
	field() {	# field OFFSET LENGTH: hex of the bytes, most significant first
		local h="" j
		for ((j = 0; j < $2; j++)); do
			if [ "$data" = little ]; then h=${b[$1 + j]}$h; else h=$h${b[$1 + j]}; fi
		done
		echo "$h"
	}
	if [ "${#b[@]}" != "$((descsz))" ] || [ $((descsz % 4)) != 0 ]; then
		echo "malformed (descsz $descsz, ${#b[@]} bytes shown)"
		return
	fi
	while [ "$off" -lt "$((descsz))" ]; do
		type=$((16#$(field "$off" 4))) size=$((16#$(field $((off + 4)) 4)))
		if [ "$type" = 1 ]; then
			[ "$size" = 8 ] || { echo "malformed (stack pr_datasz $size)"; return; }
			stack=$((16#$(field $((off + 8)) 8)))
		fi
		off=$((off + 8 + (size + 3) / 4 * 4))
	done
	printf '%u\n' "$stack"
}

# host_interp PATH: the file on this host that is the i386 interpreter PATH.
host_interp() {
	case "$1" in
	/lib/ld-linux.so.2) echo /usr/i686-linux-gnu/lib/ld-linux.so.2 ;;
	/lib/ld-musl-i386.so.1) echo "$("$top/deps/sysroot.sh" i386)/lib/i386-linux-musl/libc.so" ;;
	esac
}

# json_field JSON KEY: a string or number member of elfnote's one-line JSON.
json_field() {
	local v=${1#*\""$2"\":}
	[ "$v" = "$1" ] && return
	v=${v%%[,\}]*}
	v=${v#\"}
	echo "${v%\"}"
}

files=0
while IFS=$'\t' read -r name class data type link _compiler _libc arch runs interp note extra; do
	case "$name" in ''|'#'*) continue ;; esac
	files=$((files + 1))
	f=$kinds/$name
	if ! listed "$name" "$note" "${extra:-}"; then
		tap_check 1 "$name: listed with 11 columns and built"
		continue
	fi

	# ELF header: readelf -h, elfnote show --json and the manifest.
	hdr=$(readelf -hW "$f" 2>/dev/null)
	r_class=$(awk '$1 == "Class:" { sub(/ELF/, "", $2); print $2 }' <<<"$hdr")
	r_data=$(awk -F': *' '$1 ~ /^ *Data$/ { print ($2 ~ /big endian/) ? "big" : ($2 ~ /little endian/) ? "little" : $2 }' <<<"$hdr")
	r_type=$(awk '$1 == "Type:" { print $2 }' <<<"$hdr")
	json=$("$elfnote" show --json "$f" 2>"$work/show.err")
	show_status=$?
	e_class=$(json_field "$json" class)
	e_data=$(json_field "$json" byte_order)
	e_type=$(json_field "$json" type)
	case "$r_type" in
	EXEC) r_type_name=executable ;;
	DYN) r_type_name=pie ;;	# every ET_DYN of the matrix is a program
	*) r_type_name="?" ;;
	esac
	[ "$e_class" = "$r_class" ] && [ "$e_data" = "$r_data" ] && [ "$e_type" = "$r_type_name" ] &&
		[ "$class" = "$r_class" ] && [ "$data" = "$r_data" ] && [ "$type" = "$r_type" ]
	tap_check $? "$name: header: readelf ELF$r_class $r_data $r_type, elfnote $e_class $e_data $e_type, manifest $class $data $type"

	# Linking: the interpreter readelf -l shows is the manifest's; one the
	# i386 guest could use is an i386 file on this host.
	r_interp=$(readelf -lW "$f" 2>/dev/null | sed -n 's/.*\[Requesting program interpreter: \(.*\)\]$/\1/p')
	r_link=static
	[ -n "$r_interp" ] && r_link=dynamic
	ok=0
	[ "$link" = "$r_link" ] && [ "$interp" = "${r_interp:--}" ] || ok=1
	if [ "$runs" = yes ]; then
		[ "$arch" = i386 ] && [ "$r_class" = 32 ] && [ "$r_data" = little ] || ok=1
		if [ -n "$r_interp" ]; then
			host=$(host_interp "$r_interp")
			[ -n "$host" ] && readelf -hW "$host" 2>/dev/null | grep -q 'Machine: *Intel 80386' || ok=1
		fi
	fi
	m_interp=""
	[ "$interp" = - ] || m_interp=" ($interp)"
	[ "$runs" = yes ] && m_interp="$m_interp, runs on the i386 guest"
	tap_check $ok "$name: readelf -l: $r_link${r_interp:+ ($r_interp)}; manifest: $link$m_interp"

	# Presence: readelf -n and eu-readelf -n, against the manifest.
	mapfile -t notes < <(readelf_notes "$f")
	eu_count=$(eu-readelf -n "$f" 2>/dev/null | awk '$1 == "Linux" && /<unknown>: 1163412803$/ { n++ } END { print n + 0 }')
	want=1
	[ "$note" = none ] && want=0
	[ "${#notes[@]}" = "$want" ] && [ "$eu_count" = "$want" ]
	tap_check $? "$name: readelf -n shows ${#notes[@]} policy note(s), eu-readelf -n $eu_count, manifest $want"

	# Value: elfnote's, the manifest's and readelf's descriptor bytes.
	status=$(json_field "$json" status)
	case "$status" in
	annotated) e_value=$(json_field "$json" suid_stack) ;;
	none) e_value=none ;;
	malformed) e_value="malformed ($(json_field "$json" problem))" ;;
	*) e_value="error (${json:-no output}; $(head -c 200 "$work/show.err"))" ;;
	esac
	r_value=none
	if [ "${#notes[@]}" -gt 0 ]; then
		# shellcheck disable=SC2086 # the bytes as words
		r_value=$(desc_value "$r_data" ${notes[0]})
	fi
	[ "$show_status" = 0 ] && [ "$e_value" = "$note" ]
	tap_check $? "$name: elfnote show says $e_value (exit $show_status), manifest $note"
	[ "${e_value%% *}" = "${r_value%% *}" ]
	tap_check $? "$name: elfnote says ${e_value%% *}, readelf's descriptor says $r_value"

	# check: 0 with the note, 1 without.
	"$elfnote" check -q "$f" 2>/dev/null
	got=$?
	want_check=0
	[ "$note" = none ] && want_check=1
	[ "$got" = "$want_check" ]
	tap_check $? "$name: elfnote check exits $got, want $want_check"
done < "$manifest"

[ "$files" -ge 40 ]
tap_check $? "the manifest lists $files files (at least 40)"

# --- editing every kind ------------------------------------------------------
# set adds a note to each unstamped file and rewrites each stamped one in
# place; the result reads back in elfnote, readelf and eu-readelf, lints as
# clean as the input, a note added brings copies of the old notes next to
# it (notes-moved.py), and x86_64 programs still run here (i386 ones run in
# the guest: tests/scenarios/55-note-after-link.scn).  clear then set again
# never adds a second note.
notes_of() { readelf -lW "$1" | grep -c '^ *NOTE '; }
while IFS=$'\t' read -r name _class _data _type _link _compiler _libc arch _runs _interp note _extra; do
	case "$name" in ''|'#'*) continue ;; esac
	f=$work/edit-$name
	cp "$kinds/$name" "$f"
	if [ "$note" = none ]; then want="note added" new=33554432 size=32M; else want="rewritten in place" new=67108864 size=64M; fi
	out=$("$elfnote" set --suid-stack "$size" "$f" 2>&1)
	case "$out" in *"($want)"*|*"; $want)") true ;; *) false ;; esac &&
		[ "$("$elfnote" show --json "$f" | grep -o '"suid_stack":[0-9]*')" = "\"suid_stack\":$new" ]
	tap_check $? "$name: set $size: $want, reads back ($out)"
	readelf -nW "$f" | grep -q '0x45584543' && eu-readelf -n "$f" | grep -q 'Linux.*1163412803\|Linux.*0x45584543'
	tap_check $? "$name: readelf -n and eu-readelf -n show the note after set"
	eu-elflint --gnu-ld "$kinds/$name" > "$work/lint0" 2>&1
	eu-elflint --gnu-ld "$f" > "$work/lint1" 2>&1
	! diff "$work/lint0" "$work/lint1" | grep '^>' | grep -v "unknown object file note type 1163412803 with owner name 'Linux'" | grep -q .
	tap_check $? "$name: eu-elflint --gnu-ld: nothing new but the unknown note type"
	if [ "$note" != none ]; then
		[ "$(cmp -l "$kinds/$name" "$f" | wc -l)" -le 8 ] && [ "$(stat -c %s "$f")" = "$(stat -c %s "$kinds/$name")" ]
		tap_check $? "$name: in place: same size, at most 8 bytes differ"
	else
		out=$("$top/elf-note-tool/tests/notes-moved.py" "$kinds/$name" "$f" 2>&1)
		tap_check $? "$name: the old notes copied after the new table, all within 256 bytes of it ($out)"
	fi
	if [ "$arch" = x86_64 ]; then
		"$f"; status=$?
		"$kinds/$name"; [ "$status" = $? ]
		tap_check $? "$name: still runs, with the same exit status as before ($status)"
	fi
	n=$(notes_of "$f")
	"$elfnote" clear "$f" >/dev/null && "$elfnote" set --suid-stack 48M "$f" >/dev/null &&
		[ "$(notes_of "$f")" = "$n" ] && "$elfnote" check "$f"
	tap_check $? "$name: clear then set: the same note edited, no second one"
done < "$manifest"
