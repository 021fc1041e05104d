#!/bin/bash
# Host tests of elfnote set and clear (the ASan/UBSan build, which can fail
# any step of a write on request): sizes, in-place rewrites, notes added
# after linking (which must still run, lint as clean as before and show in
# readelf), no write when nothing changes, and the safety rules for setuid
# files: owner, mode, capabilities and xattrs kept; symlinks and hard links
# refused; any failure leaves the original byte-identical and no temporary
# file.  TAP.
set -uo pipefail

. "$(dirname "$0")/elfnote-env.sh"
TAP_PREFIX="elfnote write: "
. "$top/tests/lib/tap.sh"
work=$(mktemp -d)
chmod 755 "$work"
tap_on_exit 'rm -rf "$work"'
# An unprivileged user: no capabilities left either.
nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all --bounding-set=-all)

# What the loops below go through, for the plan.
good_sizes=(33554432:33554432 32M:33554432 32m:33554432 32MiB:33554432 1G:1073741824 2G:2147483648 12K:none)
bad_sizes=(32X 32MB 32P '' -1 abc 8M 8388608 12345 0x1000 '32 M' 99999999999999999999 17179869184G)
gaps=(4K:4096 4096:4096 1M:1048576 64M:67108864 0:none 2K:none 64M+:none 65M:none 4097:none)
programs=(x64-dyn x64-static x64-static-pie)
modes=(4755:0:0 2755:0:0 6750:1234:5678 0700:1234:1234)
# MODE|CAPS|ARGS|outcome: none, gap or stack (a warning), gap+stack (both,
# in that order), strict-gap, strict-stack or strict-gap+stack (refused,
# naming each reason).
unhonoured=(
	"4755|-|--stack-guard-gap 4K|gap"
	"4755|-|--stack-guard-gap 1020K|gap"
	"4755|-|--stack-guard-gap 1M|none"
	"2755|-|--stack-guard-gap 4K|gap"
	"0755|cap_net_raw+ep|--stack-guard-gap 4K|gap"
	"0755|-|--stack-guard-gap 4K|none"
	"4755|-|--strict --stack-guard-gap 4K|strict-gap"
	"4755|-|--strict --stack-guard-gap 1M|none"
	"4755|-|--suid-stack 64M|none"
	"4755|-|--suid-stack 65540K|stack"
	"0755|-|--suid-stack 65540K|stack"
	"4755|-|--strict --suid-stack 65540K|strict-stack"
	"2755|-|--suid-stack 128M --stack-guard-gap 4K|gap+stack"
	"2755|-|--strict --suid-stack 128M --stack-guard-gap 4K|strict-gap+stack"
	"4755|-|--strict --suid-stack 64M|none"
)
fail_steps=(create write chown xattr chmod fsync verify rename)
fail_files=(f g)
refusals=("$corpus/bad-stack-twice:malformed exec policy note" "$top/README.md:not an ELF file"
	"$work/empty-note:cannot add a note: program header 7 (PT_NOTE) is empty")
strips=(strip "strip --strip-all" "strip --strip-unneeded" objcopy "objcopy --remove-section=.comment" eu-strip)
# Per section: the build (1); 1. sizes, 3G, both, n32 (3); 2. five per
# program, the eu-elflint line (1); 2b. growth (8); 2c. remove, per
# program and 4; 3. (5); 4. (1); 5. modes, caps (2);
# 6. (3); 7. every step on each file; 8. (4); 8c. (3); 8b. (9); 8d. each
# request; 9. refusals, one
# among several (1); 10. every strip on each program; 11. (2).
tap_plan $(( 1 + ${#good_sizes[@]} + ${#bad_sizes[@]} + ${#gaps[@]} + 3 +
	${#programs[@]} * 5 + 1 + 8 + ${#programs[@]} + 4 + 5 + 1 + ${#modes[@]} + 2 + 3 +
	${#fail_steps[@]} * ${#fail_files[@]} + 4 + 3 + 9 + ${#unhonoured[@]} + ${#refusals[@]} + 1 +
	${#programs[@]} * ${#strips[@]} + 2 ))

# Everything a write could change: bytes, owner, mode, links, xattrs.
state() {
	sha256sum < "$1"
	stat -c '%u:%g %a %h %i' "$1"
	getfattr -d -m - --absolute-names "$1" 2>/dev/null | grep -v '^# file'
}

value() {
	local json
	json=$("$elfnote" show --json "$1") || return 1
	case "$json" in *'"status":"annotated"'*) v=${json#*\"suid_stack\":}; echo "${v%%[,\}]*}" ;; *) echo none ;; esac
}

leftovers() {
	find "$1" -maxdepth 1 -name '.*.elfnote-*' | grep -q .
}

cat > "$work/hello.c" <<'C'
#include <stdio.h>
static int big[100000];
int main(void) { big[99999] = 1; puts("hello"); return big[0]; }
C
cc -O2 -o "$work/x64-dyn" "$work/hello.c" && cc -O2 -static -o "$work/x64-static" "$work/hello.c" &&
	cc -O2 -static-pie -o "$work/x64-static-pie" "$work/hello.c"
tap_check $? "built x86_64 dynamic, static and static-pie programs"

# 1. Sizes: what is accepted, and every refusal names the argument.
cp "$bin/probe" "$work/p"
before=$(state "$work/p")
for good in "${good_sizes[@]}"; do
	arg=${good%%:*} want=${good#*:}
	if [ "$want" = none ]; then
		out=$("$elfnote" set -n --suid-stack "$arg" "$work/p" 2>&1); [ $? = 64 ]
	else
		out=$("$elfnote" set -n --suid-stack "$arg" "$work/p") &&
			[ "$out" = "$work/p: would set suid stack $want bytes (was none; note added)" ]
	fi
	tap_check $? "size $arg: ${want/none/refused (not above 8M)}"
done
for bad in "${bad_sizes[@]}"; do
	out=$("$elfnote" set --suid-stack "$bad" "$work/p" 2>&1)
	status=$?
	[ "$status" = 64 ] && case "$out" in "elfnote: set: invalid size '$bad': "*) true ;; *) false ;; esac &&
		[ "$(state "$work/p")" = "$before" ]
	tap_check $? "size '$bad' refused with exit 64, file untouched (${out%%$'\n'*})"
done
"$elfnote" set --suid-stack 3G "$work/p" 2>/dev/null; [ $? = 1 ] && [ "$(state "$work/p")" = "$before" ]
tap_check $? "3G refused for an ELF32 program (more than it can use)"
for g in "${gaps[@]}"; do
	arg=${g%%:*} want=${g#*:}
	[ "$arg" = 64M+ ] && arg=67112960
	if [ "$want" = none ]; then
		out=$("$elfnote" set -n --stack-guard-gap "$arg" "$work/p" 2>&1); [ $? = 64 ] &&
			case "$out" in "elfnote: set: invalid size '$arg': "*) true ;; *) false ;; esac
	else
		out=$("$elfnote" set -n --stack-guard-gap "$arg" "$work/p") &&
			[ "$out" = "$work/p: would set stack guard gap $want bytes (was none; note added)" ]
	fi
	tap_check $? "guard gap $arg: ${want/none/refused}"
done
cp "$bin/probe" "$work/both"
out=$("$elfnote" set --suid-stack 32M --stack-guard-gap 4K "$work/both") &&
	[ "$out" = "$work/both: suid stack 33554432 bytes, stack guard gap 4096 bytes (was none, none; note added)" ] &&
	"$elfnote" show --json "$work/both" | grep -q '"suid_stack":33554432,"stack_guard_gap":4096,' &&
	out=$("$elfnote" set --stack-guard-gap 8K "$work/both") &&
	[ "$out" = "$work/both: stack guard gap 8192 bytes (was 4096 bytes; rewritten in place)" ] &&
	"$elfnote" show --json "$work/both" | grep -q '"suid_stack":33554432,"stack_guard_gap":8192,'
tap_check $? "both requests at once; then the gap alone, in place, the stack kept"
cp "$bin/probe-n32" "$work/n32"
out=$("$elfnote" set --stack-guard-gap 4K "$work/n32" 2>&1); [ $? = 1 ] &&
	[ "$out" = "elfnote: $work/n32: its policy note has no stack guard gap property, which cannot be added in place" ]
tap_check $? "a link-time note without the gap property: refused, with the reason"

# 2. Adding after linking, then no write at all when nothing changes.
for f in "${programs[@]}"; do
	cp "$work/$f" "$work/$f.orig"
	out=$("$elfnote" set --suid-stack 32M "$work/$f") &&
		[ "$out" = "$work/$f: suid stack 33554432 bytes (was none; note added)" ] &&
		[ "$(value "$work/$f")" = 33554432 ] && [ "$("$work/$f")" = hello ]
	tap_check $? "$f: note added after linking; it still runs"
	# cmp -l: offset, old byte, new byte (octal); only zero padding changes.
	[ "$(cmp -l "$work/$f.orig" "$work/$f" 2>/dev/null | awk '$1 > 64 && $2 != 0' | wc -l)" = 0 ]
	tap_check $? "$f: the original bytes are kept after the ELF header, but for zero padding"
	readelf -n "$work/$f" | grep -q 'Unknown note type: (0x45584543)' &&
		eu-readelf -n "$work/$f" | grep -q 'Linux .*0x45584543\|Linux.*<unknown>\|Linux'
	tap_check $? "$f: readelf -n and eu-readelf -n show the note"
	# The only new lint lines are the ones any binary with this note gets.
	eu-elflint --gnu-ld "$work/$f.orig" > "$work/lint0" 2>&1
	eu-elflint --gnu-ld "$work/$f" > "$work/lint1" 2>&1
	! diff "$work/lint0" "$work/lint1" | grep '^>' | grep -v "unknown object file note type 1163412803 with owner name 'Linux'" | grep -q .
	tap_check $? "$f: eu-elflint --gnu-ld finds nothing new but the unknown note type"
	cp "$work/$f" "$work/$f.before"
	touch -d @1000000000 "$work/$f"
	before=$(stat -c '%i %Y %Z' "$work/$f")
	out=$("$elfnote" set --suid-stack 32M "$work/$f") &&
		[ "$out" = "$work/$f: suid stack 33554432 bytes: unchanged" ] &&
		[ "$(stat -c '%i %Y %Z' "$work/$f")" = "$before" ]
	tap_check $? "$f: set again: unchanged, not even rewritten (same inode, mtime, ctime)"
done
grep -q "unknown object file note type 1163412803 with owner name 'Linux'" < <(eu-elflint --gnu-ld "$bin/probe-n32" 2>&1)
tap_check $? "a link-time stamped program gets the same eu-elflint note-type line"

# 2b. How much a file grows.  A dynamically linked program: the section
#     headers, the table and the note where no page's tail takes them, at
#     most 4 KiB.  Every stamped program keeps the table at the ELF
#     header's address plus e_phoff: AT_PHDR on kernels before 5.18, and
#     where glibc's static start-up looks (__ehdr_start).
grown=$(( $(stat -c %s "$work/x64-dyn") - $(stat -c %s "$work/x64-dyn.orig") ))
[ "$grown" -gt 0 ] && [ "$grown" -le 4096 ]
tap_check $? "x64-dyn: grows by $grown bytes, at most 4096"
cp "$work/x64-dyn.orig" "$work/x64-dyn-old-kernels"
"$elfnote" set --old-kernels --suid-stack 32M "$work/x64-dyn-old-kernels" >/dev/null
for f in x64-dyn x64-static x64-static-pie x64-dyn-old-kernels; do
	ehdr_vaddr=$(readelf -lW "$work/$f" | awk '$1 == "LOAD" && $2 ~ /^0x0+$/ { print $3; exit }')
	phoff=$(readelf -hW "$work/$f" | awk '/Start of program headers/ { print $5 }')
	# The table's address: where the PT_LOAD that holds it maps it (what
	# kernels since 5.18 give as AT_PHDR); before 5.18, and glibc's static
	# start-up, take the ELF header's address plus e_phoff.
	phdr_vaddr=
	while read -r type off vaddr _ filesz _; do
		[ "$type" = LOAD ] && [ $((off)) -le "$phoff" ] && [ "$phoff" -lt $((off + filesz)) ] &&
			phdr_vaddr=$((vaddr + phoff - off))
	done < <(readelf -lW "$work/$f")
	[ -n "$ehdr_vaddr" ] && [ -n "$phdr_vaddr" ] && [ $((phdr_vaddr)) = $((ehdr_vaddr + phoff)) ]
	tap_check $? "$f: the new table at the ELF header's address + e_phoff ($phdr_vaddr = $ehdr_vaddr + $phoff)"
done
[ "$("$work/x64-dyn-old-kernels")" = hello ] && "$elfnote" remove "$work/x64-dyn-old-kernels" >/dev/null &&
	cmp -s "$work/x64-dyn.orig" "$work/x64-dyn-old-kernels"
tap_check $? "x64-dyn with --old-kernels: runs; remove gives back the original"
# QEMU's user-mode loader hands the program AT_PHDR as the load address
# plus e_phoff, as kernels before 5.18 did: a stamped program must start
# under it too (the appended layout without padding did not: ld.so's
# assertion in rtld_setup_main_map).
if command -v qemu-x86_64 >/dev/null; then
	[ "$(qemu-x86_64 "$work/x64-dyn")" = hello ] && [ "$(qemu-x86_64 "$work/x64-static")" = hello ]
	tap_check $? "x64-dyn and x64-static run under qemu-x86_64 (AT_PHDR = load address + e_phoff)"
else
	tap_skip "x64-dyn and x64-static under qemu-x86_64" "qemu-user is not installed (make deps)"
fi
# Debian's own setuid programs, where this host has them.
real=() sizes=()
for p in /usr/bin/passwd /usr/bin/chfn /usr/bin/chsh /usr/bin/chage /usr/bin/su /usr/bin/mount; do
	[ -f "$p" ] || continue
	cp "$p" "$work/real" && "$elfnote" set --suid-stack 32M "$work/real" >/dev/null || { real+=("$p:failed"); continue; }
	g=$(( $(stat -c %s "$work/real") - $(stat -c %s "$p") ))
	"$p" --help >/dev/null 2>&1; want=$?
	"$work/real" --help >/dev/null 2>&1; got=$?
	[ "$g" -le 4096 ] && [ "$got" = "$want" ] || real+=("$p:$g:$got/$want")
	sizes+=("${p##*/}+$g")
done
if [ ${#sizes[@]} = 0 ]; then
	tap_skip "Debian's setuid programs grow by at most 4 KiB" "none of passwd, chfn, chsh, chage, su, mount here"
else
	[ ${#real[@]} = 0 ]
	tap_check $? "Debian's setuid programs grow by at most 4 KiB and still run: ${sizes[*]}${real:+ (failed: ${real[*]})}"
fi

# 2c. remove gives back the original bytes of a note set added, after any
#     number of in-place rewrites, with the file's mode and owner; it
#     refuses a note linked in and a file changed since.
for f in "${programs[@]}"; do
	cp "$work/$f.orig" "$work/rm-$f" && chmod 4755 "$work/rm-$f"
	"$elfnote" set --suid-stack 32M --stack-guard-gap 2M "$work/rm-$f" >/dev/null &&
		"$elfnote" set --suid-stack 48M "$work/rm-$f" >/dev/null 2>&1 &&
		out=$("$elfnote" remove "$work/rm-$f") &&
		cmp -s "$work/$f.orig" "$work/rm-$f" && [ "$(stat -c %a:%u:%g "$work/rm-$f")" = 4755:0:0 ] &&
		case "$out" in "$work/rm-$f: note removed (was suid stack 50331648 bytes, stack guard gap 2097152 bytes; the original $(stat -c %s "$work/$f.orig") bytes, "*" fewer)") true ;; *) false ;; esac
	tap_check $? "$f: set, set again in place, remove: the original bytes (cmp), 4755 root kept"
done
cp "$bin/probe-n32" "$work/rm-linked"
out=$("$elfnote" remove "$work/rm-linked" 2>&1); status=$?
[ "$status" = 1 ] && cmp -s "$bin/probe-n32" "$work/rm-linked" &&
	[ "$out" = "elfnote: $work/rm-linked: cannot remove the note: no undo record where elfnote set puts one: the note was linked in, added by an older elfnote, or the file was stripped or edited since" ]
tap_check $? "remove on a note linked in: refused, untouched (exit $status)"
cp "$work/x64-dyn.orig" "$work/rm-changed" && "$elfnote" set --suid-stack 32M "$work/rm-changed" >/dev/null &&
	printf x >> "$work/rm-changed" && cp "$work/rm-changed" "$work/rm-changed.before"
out=$("$elfnote" remove "$work/rm-changed" 2>&1); status=$?
[ "$status" = 1 ] && cmp -s "$work/rm-changed.before" "$work/rm-changed" &&
	case "$out" in *"changed since elfnote set added its note"*) true ;; *) false ;; esac
tap_check $? "remove on a file changed since (a byte appended): refused, untouched (exit $status)"
cp "$work/x64-dyn.orig" "$work/rm-dry" && "$elfnote" set --suid-stack 32M "$work/rm-dry" >/dev/null &&
	cp "$work/rm-dry" "$work/rm-dry.before" && out=$("$elfnote" remove -n "$work/rm-dry") &&
	cmp -s "$work/rm-dry.before" "$work/rm-dry" &&
	case "$out" in "$work/rm-dry: would remove the note (was suid stack 33554432 bytes, stack guard gap none;"*) true ;; *) false ;; esac
tap_check $? "remove -n: says what it would give back, writes nothing"
cp "$work/x64-dyn.orig" "$work/rm-none"
out=$("$elfnote" remove "$work/rm-none") && [ "$out" = "$work/rm-none: no exec policy note: unchanged" ] &&
	cmp -s "$work/x64-dyn.orig" "$work/rm-none"
tap_check $? "remove on a program without a note: unchanged, exit 0"

# 3. In place: only the 8 value bytes change; clear; set after clear.
cp "$work/x64-dyn" "$work/ip"
"$elfnote" set --suid-stack 48M "$work/ip" | grep -q 'was 33554432 bytes; rewritten in place' &&
	[ "$(cmp -l "$work/x64-dyn" "$work/ip" | wc -l)" -le 8 ] && [ "$(value "$work/ip")" = 50331648 ]
tap_check $? "in place: 32M -> 48M changes at most the 8 value bytes"
out=$("$elfnote" clear "$work/ip") &&
	[ "$out" = "$work/ip: suid stack none, stack guard gap none (was 50331648 bytes, none; rewritten in place)" ] &&
	[ "$(value "$work/ip")" = 0 ] && "$elfnote" show "$work/ip" | grep -q 'no request'
tap_check $? "clear rewrites the requests to 0 (show: no request)"
out=$("$elfnote" clear "$work/ip") && [ "$out" = "$work/ip: suid stack none, stack guard gap none: unchanged" ]
tap_check $? "clear again: unchanged"
out=$("$elfnote" clear "$work/x64-dyn.orig") &&
	[ "$out" = "$work/x64-dyn.orig: suid stack none, stack guard gap none: unchanged" ] &&
	[ "$(value "$work/x64-dyn.orig")" = none ]
tap_check $? "clear on a program without a note: unchanged, no note added"
"$elfnote" set --suid-stack 64M "$work/ip" >/dev/null && [ "$(value "$work/ip")" = 67108864 ] &&
	[ "$(readelf -lW "$work/ip" | grep -c NOTE)" = "$(readelf -lW "$work/x64-dyn" | grep -c NOTE)" ]
tap_check $? "set after clear edits the same note (no second note)"

# 4. Dry run writes nothing.
cp "$bin/probe" "$work/dry"
before=$(state "$work/dry")
"$elfnote" set -n --suid-stack 32M "$work/dry" | grep -q 'would set suid stack 33554432 bytes' &&
	"$elfnote" clear --dry-run "$work/x64-dyn" | grep -q 'would set suid stack none, stack guard gap none' &&
	[ "$(state "$work/dry")" = "$before" ] && [ "$(value "$work/x64-dyn")" = 33554432 ]
tap_check $? "-n/--dry-run says what would change and writes nothing"

# 5. Owner, mode, capabilities and xattrs survive.
for m in "${modes[@]}"; do
	mode=${m%%:*} rest=${m#*:}
	cp "$bin/probe" "$work/m$mode" && chown "${rest%:*}:${rest#*:}" "$work/m$mode" && chmod "$mode" "$work/m$mode"
	"$elfnote" set --suid-stack 32M "$work/m$mode" >/dev/null &&
		[ "$(stat -c '%a %u:%g' "$work/m$mode")" = "${mode#0} ${rest%:*}:${rest#*:}" ] &&
		[ "$(value "$work/m$mode")" = 33554432 ]
	tap_check $? "mode $mode owned by ${rest%:*}:${rest#*:}: kept after a note is added"
done
cp "$work/x64-dyn.orig" "$work/cap" && setcap cap_net_raw,cap_sys_nice+ep "$work/cap" &&
	setfattr -n user.origin -v debian "$work/cap" && setfattr -n trusted.mark -v 1 "$work/cap" &&
	chmod 4711 "$work/cap"
"$elfnote" set --suid-stack 32M "$work/cap" >/dev/null &&
	[ "$(getcap "$work/cap")" = "$work/cap cap_net_raw,cap_sys_nice=ep" ] &&
	[ "$(getfattr --absolute-names --only-values -n user.origin "$work/cap")" = debian ] &&
	[ "$(getfattr --absolute-names --only-values -n trusted.mark "$work/cap")" = 1 ] &&
	[ "$(stat -c %a "$work/cap")" = 4711 ] && "$work/cap" | grep -q hello
tap_check $? "file capabilities, user.* and trusted.* xattrs and 4711 kept; it runs"
"$elfnote" set --suid-stack 48M "$work/cap" >/dev/null &&
	[ "$(getcap "$work/cap")" = "$work/cap cap_net_raw,cap_sys_nice=ep" ] && [ "$(stat -c %a "$work/cap")" = 4711 ]
tap_check $? "file capabilities and mode kept by an in-place rewrite too"

# 6. Symlinks and hard links.
cp "$bin/probe" "$work/target" && ln -s target "$work/link"
before=$(state "$work/target")
out=$("$elfnote" set --suid-stack 32M "$work/link" 2>&1); status=$?
[ "$status" = 1 ] && [ "$out" = "elfnote: $work/link: a symbolic link: not written through (--follow-symlinks edits its target)" ] &&
	[ "$(state "$work/target")" = "$before" ]
tap_check $? "a symlink is refused by default, its target untouched"
"$elfnote" set --follow-symlinks --suid-stack 32M "$work/link" >/dev/null && [ -L "$work/link" ] &&
	[ "$(value "$work/target")" = 33554432 ]
tap_check $? "--follow-symlinks edits the target and keeps the link"
cp "$bin/probe" "$work/hard1" && ln "$work/hard1" "$work/hard2"
before=$(state "$work/hard1")
out=$("$elfnote" set --suid-stack 32M "$work/hard2" 2>&1); status=$?
[ "$status" = 1 ] && case "$out" in "elfnote: $work/hard2: has 2 hard links"*) true ;; *) false ;; esac &&
	[ "$(state "$work/hard1")" = "$before" ]
tap_check $? "a file with hard links is refused, both names untouched"

# 7. Every step of a write made to fail: nothing lost, nothing left.
cp "$work/x64-dyn.orig" "$work/f" && setcap cap_net_raw+ep "$work/f" && chmod 4755 "$work/f"
cp "$work/x64-dyn" "$work/g" && setfattr -n user.origin -v debian "$work/g" && chmod 4755 "$work/g"
for step in "${fail_steps[@]}"; do
	for f in "${fail_files[@]}"; do
		how="adding a note"
		[ "$f" = g ] && how="in place"
		before=$(state "$work/$f")
		out=$(ELFNOTE_FAIL_AT=$step "$elfnote" set --suid-stack 40M "$work/$f" 2>&1); status=$?
		[ "$status" = 1 ] && case "$out" in "elfnote: $work/$f: "*) true ;; *) false ;; esac &&
			[ "$(state "$work/$f")" = "$before" ] && ! leftovers "$work"
		tap_check $? "failure at $step ($how): exit 1, original intact, no temporary file (${out#elfnote: $work/$f: })"
	done
done

# 8. Real failures: a full filesystem, a file size limit, a read-only
#    directory, an unprivileged user.
if unshare -Urm true 2>/dev/null; then
	mkdir -p "$work/full"
	out=$(unshare -Urm bash -c '
		mount -t tmpfs -o size=1m none "$1" && cp "$2" "$1/x" &&
		head -c $((1024 * 1024 - $(stat -c %s "$2") - 8192)) /dev/zero > "$1/fill" 2>/dev/null
		sum=$(sha256sum < "$1/x")
		"$3" set --suid-stack 32M "$1/x" 2>&1; echo "status=$?"
		[ "$(sha256sum < "$1/x")" = "$sum" ] && echo intact
		echo "files:" $(ls -A "$1")' _ "$work/full" "$work/x64-dyn.orig" "$elfnote")
	case "$out" in *"No space left on device"*"status=1"*intact*"files: fill x") true ;; *) false ;; esac
	tap_check $? "a full filesystem: ENOSPC reported, original intact, no temporary file"
else
	tap_skip "a full filesystem" "unshare -Urm not permitted here"
fi
cp "$work/x64-dyn.orig" "$work/fsz"
before=$(state "$work/fsz")
out=$(trap '' XFSZ; ulimit -f 8; "$elfnote" set --suid-stack 32M "$work/fsz" 2>&1); status=$?
[ "$status" = 1 ] && case "$out" in *"File too large"*) true ;; *) false ;; esac &&
	[ "$(state "$work/fsz")" = "$before" ] && ! leftovers "$work"
tap_check $? "a file size limit hit mid-write: reported, original intact, no temporary file"
mkdir "$work/ro" && cp "$bin/probe" "$work/ro/p" && chown -R 65534:65534 "$work/ro" && chmod 555 "$work/ro"
before=$(state "$work/ro/p")
out=$("${nobody[@]}" "$elfnote" set --suid-stack 32M "$work/ro/p" 2>&1); status=$?
[ "$status" = 1 ] && [ "$out" = "elfnote: $work/ro/p: cannot create a temporary file in $work/ro: Permission denied" ] &&
	[ "$(state "$work/ro/p")" = "$before" ]
tap_check $? "a read-only directory: a clear error, original intact"
cp "$bin/probe" "$work/rootsuid" && chmod 4755 "$work/rootsuid"
before=$(state "$work/rootsuid")
out=$("${nobody[@]}" "$elfnote" set --suid-stack 32M "$work/rootsuid" 2>&1); status=$?
[ "$status" = 1 ] && [ "$out" = "elfnote: $work/rootsuid: cannot be written by you: Permission denied" ] &&
	[ "$(state "$work/rootsuid")" = "$before" ]
tap_check $? "an unprivileged user on a root-owned 4755 file: permission error, untouched"

# 8c. A dry run reads only: for someone else's file and on a read-only
#     mount it reports the change, and names what would stop a real run.
before=$(state "$work/rootsuid")
out=$("${nobody[@]}" "$elfnote" set -n --suid-stack 32M "$work/rootsuid" 2>"$work/dry.err"); status=$?
[ "$status" = 0 ] && [ "$out" = "$work/rootsuid: would set suid stack 33554432 bytes (was none; note added)" ] &&
	[ "$(cat "$work/dry.err")" = "elfnote: $work/rootsuid: a real run would fail: cannot be written by you: Permission denied" ] &&
	[ "$(state "$work/rootsuid")" = "$before" ]
tap_check $? "set -n as an unprivileged user on a root-owned 4755 file: the change, exit 0, the obstacle on stderr"
if unshare -Urm true 2>/dev/null; then
	mkdir "$work/romount" && cp "$bin/probe" "$work/romount/p"
	before=$(state "$work/romount/p")
	out=$(unshare -Urm bash -c '
		mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" || exit 99
		"$2" set -n --suid-stack 32M "$1/p" 2>&1; echo "dry=$?"
		"$2" set --suid-stack 32M "$1/p" 2>&1; echo "real=$?"' _ "$work/romount" "$elfnote")
	want="$work/romount/p: would set suid stack 33554432 bytes (was none; note added)
elfnote: $work/romount/p: a real run would fail: cannot be written by you: Read-only file system
dry=0"
	[ "${out%%$'\n'real=*}" != "$out" ] && [ "$(printf '%s\n' "$out" | head -3)" = "$want" ] &&
		[ "$(state "$work/romount/p")" = "$before" ]
	tap_check $? "set -n on a read-only bind mount: the change, exit 0, the obstacle on stderr"
	[ "$(printf '%s\n' "$out" | tail -2)" = "elfnote: $work/romount/p: cannot be written by you: Read-only file system
real=1" ]
	tap_check $? "set on a read-only bind mount: exit 1 naming the mount's refusal, untouched"
else
	tap_skip "set -n on a read-only bind mount" "unshare -Urm not permitted here"
	tap_skip "set on a read-only bind mount" "unshare -Urm not permitted here"
fi

# 8b. What a review found: inherited ACLs, directories others may change,
#     a crash before the rename, signatures, inode flags, hostile names.
# The program runs to show who may exec it: an x86_64 one, which any
# x86_64 host runs (an i386 one would need qemu-i386, which opens the file
# instead of executing it and so checks no exec permission).
mkdir "$work/acl" && setfacl -d -m u:nobody:rwx "$work/acl" &&
	cp "$GUEST_BIN/x86_64/probe" "$work/acl/p" && chmod 4750 "$work/acl/p" && setfacl -b "$work/acl/p"
"$elfnote" set --suid-stack 32M "$work/acl/p" >/dev/null &&
	[ "$(stat -c %a "$work/acl/p")" = 4750 ] &&
	! getfattr --absolute-names -n system.posix_acl_access "$work/acl/p" >/dev/null 2>&1 &&
	denied=$("${nobody[@]}" sh -c '"$1"' _ "$work/acl/p" 2>&1 >/dev/null; echo "exit $?") &&
	case "$denied" in *": Permission denied"$'\n'"exit 126") true ;; *) false ;; esac &&
	chmod 4755 "$work/acl/p" && "${nobody[@]}" sh -c '"$1"' _ "$work/acl/p" >/dev/null
tap_check $? "a directory's default ACL is not inherited: 4750 stays closed to others (4755 opens it)"
mkdir "$work/userdir" && chown 1234:1234 "$work/userdir" && cp "$bin/probe" "$work/userdir/p"
before=$(state "$work/userdir/p")
out=$("$elfnote" set --suid-stack 32M "$work/userdir/p" 2>&1); status=$?
[ "$status" = 1 ] && case "$out" in *"may be changed by others than root: not replacing files there as root") true ;; *) false ;; esac &&
	[ "$(state "$work/userdir/p")" = "$before" ]
tap_check $? "as root, a directory another user owns is refused ($out)"
mkdir "$work/sticky" && chmod 1777 "$work/sticky" && cp "$bin/probe" "$work/sticky/p"
"$elfnote" set --suid-stack 32M "$work/sticky/p" >/dev/null && [ "$(value "$work/sticky/p")" = 33554432 ]
tap_check $? "as root, a sticky world-writable directory is accepted"
cp "$work/x64-dyn.orig" "$work/k" && chmod 4755 "$work/k"
before=$(state "$work/k")
# The braces take the shell's own "Killed" notice, which would otherwise
# land inside another result line of the TAP stream.
{ (ELFNOTE_FAIL_AT=kill exec "$elfnote" set --suid-stack 32M "$work/k" >/dev/null 2>&1); } 2>/dev/null; status=$?
[ "$status" = 137 ] && [ "$(state "$work/k")" = "$before" ] && ! leftovers "$work"
tap_check $? "killed with the new setuid file complete: original intact, nothing left (exit $status)"
cp "$bin/probe" "$work/ima" && setfattr -n security.ima -v 0x0404 "$work/ima"
before=$(state "$work/ima")
out=$("$elfnote" set --suid-stack 32M "$work/ima" 2>&1); status=$?
[ "$status" = 1 ] && case "$out" in *"signed (security.ima)"*) true ;; *) false ;; esac &&
	[ "$(state "$work/ima")" = "$before" ]
tap_check $? "an IMA-signed file is refused, untouched"
cp "$bin/probe" "$work/immutable"
if chattr +i "$work/immutable" 2>/dev/null; then
	out=$("$elfnote" set --suid-stack 32M "$work/immutable" 2>&1); status=$?
	chattr -i "$work/immutable"
	[ "$status" = 1 ] && case "$out" in *"immutable or append-only"*) true ;; *) false ;; esac &&
		[ "$(value "$work/immutable")" = none ]
	tap_check $? "an immutable file is refused"
	cp "$bin/probe" "$work/nodump" && chattr +d "$work/nodump" &&
		"$elfnote" set --suid-stack 32M "$work/nodump" >/dev/null &&
		lsattr "$work/nodump" | grep -q '^[^ ]*d'
	tap_check $? "the nodump inode flag is kept"
else
	tap_skip "an immutable file is refused" "no inode flags on this filesystem"
	tap_skip "the nodump inode flag is kept" "no inode flags on this filesystem"
fi
name=$(printf 'evil\nelfnote: forged')
cp "$top/README.md" "$work/$name"
out=$("$elfnote" set --suid-stack 32M "$work/$name" 2>&1)
[ "$out" = "elfnote: $work/evil\012elfnote: forged: not an ELF file" ]
tap_check $? "a newline in a file name is escaped in errors: one line ($out)"
python3 - "$work/x64-dyn.orig" "$work/manysections" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", data, 0x28)
shnum, shstrndx = struct.unpack_from("<HH", data, 0x3c)
table = data[shoff:shoff + 64 * shnum] + bytes(64 * (65535 - shnum))
struct.pack_into("<QHH", data, 0x28, len(data), 0, 0)
struct.pack_into("<H", data, 0x3c, 65535)
struct.pack_into("<H", data, 0x3e, shstrndx)
struct.pack_into("<Q", data, 0x28, len(data))
data += table
open(sys.argv[2], "wb").write(data)
PY
before=$(state "$work/manysections")
out=$("$elfnote" set --suid-stack 32M "$work/manysections" 2>&1); status=$?
[ "$status" = 1 ] && case "$out" in *"too many sections to add elfnote's"*) true ;; *) false ;; esac &&
	[ "$(state "$work/manysections")" = "$before" ]
tap_check $? "65535 section headers: refused, not wrapped around ($out)"

# 8d. Requests kernels do not honour by default: a warning naming why, the
#     file written; with --strict, refused and untouched.  At each bound:
#     the guard gap of a privileged program at 1M (the system's) and a page
#     below, the stack at 64M (fs.secureexec_stack_max) and a page above.
warn_gap="warning: the kernel never lowers the stack guard gap of a setuid, setgid or file-capability program (it keeps the system's, 1M by default)"
warn_stack="warning: above 64M, the most kernels grant by default (fs.secureexec_stack_max), and less when the guard gap is raised too"
for u in "${unhonoured[@]}"; do
	IFS='|' read -r mode caps args want <<< "$u"
	cp "$work/x64-dyn.orig" "$work/u" && chmod "$mode" "$work/u"
	[ "$caps" = - ] || setcap "$caps" "$work/u"
	before=$(state "$work/u")
	# shellcheck disable=SC2086
	"$elfnote" set $args "$work/u" >"$work/u.out" 2>"$work/u.err"; status=$?
	err=$(cat "$work/u.err")
	case "$want" in
	none) [ "$status" = 0 ] && [ -z "$err" ] && [ "$(state "$work/u")" != "$before" ] ;;
	gap|stack)
		w=warn_$want
		[ "$status" = 0 ] && [ "$err" = "elfnote: $work/u: ${!w}" ] && [ "$(state "$work/u")" != "$before" ] ;;
	gap+stack)
		[ "$status" = 0 ] && [ "$err" = "elfnote: $work/u: $warn_gap
elfnote: $work/u: $warn_stack" ] && [ "$(state "$work/u")" != "$before" ] ;;
	strict-gap|strict-stack)
		w=warn_${want#strict-}
		[ "$status" = 1 ] && [ "$err" = "elfnote: $work/u: refused (--strict): ${!w#warning: }" ] &&
			[ ! -s "$work/u.out" ] && [ "$(state "$work/u")" = "$before" ] ;;
	strict-gap+stack)
		[ "$status" = 1 ] &&
			[ "$err" = "elfnote: $work/u: refused (--strict): ${warn_gap#warning: }; and ${warn_stack#warning: }" ] &&
			[ ! -s "$work/u.out" ] && [ "$(state "$work/u")" = "$before" ] ;;
	esac
	with=; [ "$caps" = - ] || with=" with $caps"
	tap_check $? "set $args on a $mode file$with: $want (exit $status${err:+: $err})"
done

# 9. What cannot be edited is refused and left alone.
# No linker makes an empty note segment, and a stamped file with one
# reads as one strip damaged: found by fuzz-edit, which saw the tool's
# own check of its result refuse it as an internal error.
python3 - "$work/x64-dyn.orig" "$work/empty-note" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
phoff, = struct.unpack_from('<Q', d, 0x20)
entsize, phnum = struct.unpack_from('<HH', d, 0x36)
for i in range(phnum):
    at = phoff + i * entsize
    if struct.unpack_from('<I', d, at)[0] == 4:  # PT_NOTE
        struct.pack_into('<QQ', d, at + 0x20, 0, 0)  # p_filesz, p_memsz
        break
open(sys.argv[2], 'wb').write(d)
PY
for f in "${refusals[@]}"; do
	file=${f%%:*} want=${f#*:}
	cp "$file" "$work/refuse"
	before=$(state "$work/refuse")
	out=$("$elfnote" set --suid-stack 32M "$work/refuse" 2>&1); status=$?
	[ "$status" = 1 ] && case "$out" in "elfnote: $work/refuse: $want"*) true ;; *) false ;; esac &&
		[ "$(state "$work/refuse")" = "$before" ]
	tap_check $? "refused: $want ($out)"
done
out=$("$elfnote" set --suid-stack 32M "$work/missing" "$work/p" 2>&1); status=$?
[ "$status" = 1 ] && grep -q "^elfnote: $work/missing: No such file or directory$" <<< "$out" &&
	[ "$(value "$work/p")" = 33554432 ]
tap_check $? "one bad file among several: the others are done, exit 1"

# 10. GNU strip after a note was added: either the note and the program
#     survive, or check reports the damage (docs: stamp after strip).
for f in "${programs[@]}"; do
	for s in "${strips[@]}"; do
		cp "$work/$f.before" "$work/s"
		case "$s" in
		objcopy*) $s "$work/s" "$work/s2" 2>/dev/null && mv "$work/s2" "$work/s" ;;
		*) $s "$work/s" 2>/dev/null ;;
		esac
		if "$elfnote" check -q "$work/s"; then
			[ "$(value "$work/s")" = 33554432 ] && [ "$("$work/s")" = hello ]
			tap_check $? "$s after set on $f: note kept, program runs"
		else
			status=$?
			[ "$status" = 3 ] && [ "$s" != eu-strip ] &&
				case "$("$elfnote" check "$work/s" 2>&1)" in *"strip first, then stamp"*) true ;; *) false ;; esac
			tap_check $? "$s after set on $f: damage detected by check (exit $status, with the hint: strip first)"
		fi
	done
done

# 11. A stamped program finds its own build-id in memory, through the
#     PT_NOTE entries ld.so and dl_iterate_phdr() hand it (now pointing at
#     the copies set made after the new table), the same as readelf finds
#     in the file's .note.gnu.build-id.
cat > "$work/buildid.c" <<'C'
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <string.h>

static int main_program(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size, (void)data;
	for (int k = 0; k < info->dlpi_phnum; k++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[k];
		const unsigned char *n = (const void *)(info->dlpi_addr + ph->p_vaddr);
		const unsigned char *end = n + ph->p_memsz;

		while (ph->p_type == PT_NOTE && n + sizeof(ElfW(Nhdr)) <= end) {
			ElfW(Nhdr) h;
			const unsigned char *desc;

			memcpy(&h, n, sizeof(h));
			desc = n + sizeof(h) + ((h.n_namesz + 3) & ~3u);
			if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == 4 && !memcmp(n + sizeof(h), "GNU", 4)) {
				for (unsigned int j = 0; j < h.n_descsz; j++)
					printf("%02x", desc[j]);
				printf(" at %#lx\n", (unsigned long)ph->p_vaddr);
				return 1;
			}
			n = desc + ((h.n_descsz + 3) & ~3u);
		}
	}
	return 1;	/* the first object is the program */
}

int main(void)
{
	return dl_iterate_phdr(main_program, NULL) ? 0 : 1;
}
C
for link in dyn static; do
	flags=; [ "$link" = static ] && flags=-static
	# shellcheck disable=SC2086
	cc -O2 $flags -Wl,--build-id -o "$work/bid-$link" "$work/buildid.c" &&
		cp "$work/bid-$link" "$work/bid-$link.orig" &&
		"$elfnote" set --suid-stack 32M "$work/bid-$link" >/dev/null
	want=$(readelf -n "$work/bid-$link" | awk '/Build ID:/ { print $3 }')
	note_at=$(readelf -lW "$work/bid-$link" | awk '$1 == "NOTE" { print $3 }' | tr '\n' ' ')
	before=$("$work/bid-$link.orig") && after=$("$work/bid-$link")
	[ -n "$want" ] && [ "${before%% *}" = "$want" ] && [ "${after%% *}" = "$want" ] &&
		[ "${before#* at }" != "${after#* at }" ]
	tap_check $? "$link: the build-id in memory after set is the file's ($want), read from the copy (${before#* at } -> ${after#* at }; PT_NOTE at $note_at)"
done
