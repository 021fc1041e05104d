#!/bin/bash
# Host tests of elfnote show/check (the ASan/UBSan build) on real binaries:
# it must reach the kernel's verdict on every malformed-note corpus entry,
# agree with readelf on which files carry the note, find the note in i386
# and x86_64, static and dynamic, stripped and unstripped binaries, refuse
# what is not an ELF executable with a reason naming the file, and print
# valid JSON for any file name.  TAP.
set -uo pipefail

. "$(dirname "$0")/elfnote-env.sh"
TAP_PREFIX="elfnote: "
. "$top/tests/lib/tap.sh"
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

# What the loops below go through, for the plan.
mapfile -t corpus_entries < <(awk '$1 != "" && $1 !~ /^#/' "$top/tests/malformed/corpus.txt")
abis=(i386 x86_64)
stamped=(x64-dyn x64-static i386-static)
strips=("" .strip .strip-all .eu-strip .objcopy)
# ARGS|the first line on stderr
usage_errors=(
	"|elfnote: a command is needed: show, check, set, clear, remove or scan"
	"frobnicate x|elfnote: unknown command 'frobnicate'"
	"show --bogus /bin/true|elfnote: show: unknown option '--bogus'"
	"show -x /bin/true|elfnote: show: unknown option '-x'"
	"show --json=yes /bin/true|elfnote: show: option '--json' takes no value"
	"check|elfnote: check: no FILE given"
	"check -qz /bin/true|elfnote: check: unknown option '-z'"
	"set /bin/true|elfnote: set: nothing to set: give --suid-stack SIZE, --stack-guard-gap SIZE or both"
	"set --suid-stack|elfnote: set: option '--suid-stack' needs a value"
	"set --suid-stack 32M|elfnote: set: no FILE given"
	"clear --suid-stack 32M /bin/true|elfnote: clear: unknown option '--suid-stack'"
	"scan --all=1|elfnote: scan: option '--all' takes no value"
)
refusals=(obj.o:relocatable lib.a:archive empty:"not an ELF" .:directory
	cut-4:"truncated: less than an ELF header"
	cut-63:"truncated: 63 bytes, less than the 64-byte ELF64 header"
	cut-64:"program headers end at byte" cut-100:"program headers end at byte"
	cut-load:"(PT_LOAD) ends at byte")
# corpus; check and show (7); the builds (1); each strip, two checks;
# /bin/ls (1); refusals; --elf-only (3); a cut at the loadable end (1); JSON (4);
# install (1); usage errors; --help of each command (6).
tap_plan $(( ${#abis[@]} * ${#corpus_entries[@]} + 7 + 1 + ${#stamped[@]} * ${#strips[@]} * 2 + 1 +
	${#refusals[@]} + 3 + 1 + 4 + 1 + ${#usage_errors[@]} + 6 ))

# The stack limit a setuid run gets with the default maximum (64 MiB), from
# elfnote's view of the file: what the corpus says the kernel gives.
effective() {
	local json status
	json=$("$elfnote" show --json "$1" 2>/dev/null)
	status=$?
	[ "$status" -le 1 ] || { echo "error: exit $status"; return; }
	case "$json" in
	*'"status":"malformed"'*) echo ENOEXEC ;;
	*'"status":"none"'*'"problem":"a policy note lies past what the kernel reads'*) echo cut ;;
	*'"status":"none"'*) echo ignored ;;
	*'"suid_stack":'*)
		local v=${json#*\"suid_stack\":}
		v=${v%%[,\}]*}
		if [ "$v" -le 8388608 ]; then echo ignored
		elif [ "$v" -ge 67108864 ]; then echo 67108864
		else echo "$v"; fi ;;
	*) echo "error: $json" ;;
	esac
}

# 1. The kernel's verdicts (tests/malformed/corpus.txt, asserted in the
# guest), for the ELF32 (i386) and the ELF64 (x86_64) corpus.
for abi in "${abis[@]}"; do
	for entry in "${corpus_entries[@]}"; do
		read -r name outcome _ <<< "$entry"
		got=$(effective "$GENERATED/$abi/bin/bad-$name")
		# "cut": not seen, as "ignored"; elfnote says where it lies.
		[ "$got" = "$outcome" ]
		tap_check $? "corpus $abi $name: kernel says $outcome, elfnote says $got"
	done
done

# 2. Stamped and unstamped samples; exit codes of check.
"$elfnote" check "$bin/probe-n32"; tap_check $? "check: annotated i386 static program exits 0"
"$elfnote" check "$bin/probe"; [ $? = 1 ]; tap_check $? "check: program without a note exits 1"
"$elfnote" check -q "$corpus/bad-stack-twice"; [ $? = 2 ]; tap_check $? "check: malformed note exits 2"
"$elfnote" check -q "$top/README.md"; [ $? = 3 ]; tap_check $? "check: a text file exits 3"
"$elfnote" check -q "$work/missing"; [ $? = 4 ]; tap_check $? "check: a missing file exits 4"
"$elfnote" check -q "$bin/probe-n32" "$corpus/bad-stack-twice" "$bin/probe"; [ $? = 2 ]
tap_check $? "check: several files exit with the worst code"
[ "$("$elfnote" show "$bin/probe-n32")" = "$bin/probe-n32: exec policy note: suid stack 33554432 bytes (32768 KiB)" ]
tap_check $? "show: the request in bytes"

# 3. x86_64 and i386 builds with the header, dynamic and static, then
#    stripped every usual way: the note is in an allocated section.
cat > "$work/p.c" <<'C'
#include <exec-policy-note.h>
EXEC_POLICY_SUID_STACK(48 << 20);
int main(void) { return 0; }
C
cc -I"$top/elf-note-tool/include" -O2 -o "$work/x64-dyn" "$work/p.c" &&
	cc -I"$top/elf-note-tool/include" -O2 -static -o "$work/x64-static" "$work/p.c" &&
	i686-linux-gnu-gcc -specs="$("$top/deps/sysroot.sh" --specs i386)" -static \
		-I"$top/elf-note-tool/include" -O2 -o "$work/i386-static" "$work/p.c"
tap_check $? "built x86_64 dynamic, x86_64 static and i386 static programs with the header"
for f in "${stamped[@]}"; do
	cp "$work/$f" "$work/$f.strip" && strip "$work/$f.strip"
	cp "$work/$f" "$work/$f.strip-all" && strip --strip-all "$work/$f.strip-all"
	eu-strip -o "$work/$f.eu-strip" "$work/$f"
	objcopy "$work/$f" "$work/$f.objcopy"
	for v in "${strips[@]}"; do
		[ "$(effective "$work/$f$v")" = 50331648 ]
		tap_check $? "$f${v:- (unstripped)}: note found, 48 MiB"
		readelf -n "$work/$f$v" | grep -q 'Unknown note type: (0x45584543)'
		tap_check $? "$f${v:- (unstripped)}: readelf -n shows the note"
	done
done
readelf -n /bin/ls | grep -q 0x45584543; [ $? != 0 ] && [ "$(effective /bin/ls)" = ignored ]
tap_check $? "/bin/ls: neither readelf nor elfnote sees a note"

# 4. What is not an ELF executable, with the reason and the file named.
cc -c -o "$work/obj.o" "$work/p.c" -I"$top/elf-note-tool/include"
ar rcs "$work/lib.a" "$work/obj.o"
# Cut short: inside the ELF header, right after it, inside the program
# header table, and one byte before the end of the last loadable segment
# (the kernel would map it and the program die of SIGBUS).
load_end=$(readelf -lW "$work/x64-dyn" | awk '$1 == "LOAD" { print $2, $5 }' |
	while read -r off size; do echo $((off + size)); done | sort -n | tail -1)
for n in 4 63 64 100 load; do
	bytes=$n; [ "$n" = load ] && bytes=$((load_end - 1))
	head -c "$bytes" "$work/x64-dyn" > "$work/cut-$n"
done
: > "$work/empty"
for f in "${refusals[@]}"; do
	file=${f%%:*} want=${f#*:}
	err=$("$elfnote" check "$work/$file" 2>&1)
	status=$?
	[ "$status" = 3 ] && case "$err" in "elfnote: $work/$file: "*"$want"*) true ;; *) false ;; esac
	tap_check $? "refuses $file with exit 3 and a reason naming it ($err)"
done
# check --elf-only skips what has no ELF magic (scripts, text, empty
# files), not damaged ELF files: what a directory like /usr/bin holds.
printf '#!/bin/sh\necho hi\n' > "$work/script"
printf 'some text\n' > "$work/text"
cp /bin/true "$work/plain"
"$elfnote" check -q "$work/script" "$work/text" "$work/empty" "$work/plain"; status=$?
[ "$status" = 3 ]; tap_check $? "check -q on scripts, text and a note-less program: 3, the worst (got $status)"
err=$("$elfnote" check --elf-only "$work/script" "$work/text" "$work/empty" "$work/plain" 2>&1); status=$?
[ "$status" = 1 ] && [ -z "$err" ]
tap_check $? "check --elf-only on the same: 1 (no note), nothing said of the others (got $status${err:+: $err})"
err=$("$elfnote" check --elf-only "$work/script" "$work/cut-63" "$work/plain" 2>&1); status=$?
[ "$status" = 3 ] && [ "$err" = "elfnote: $work/cut-63: truncated: 63 bytes, less than the 64-byte ELF64 header" ]
tap_check $? "check --elf-only still judges a damaged ELF file: 3, naming it (got $status: $err)"
head -c "$load_end" "$work/x64-dyn" > "$work/cut-at-end"
"$elfnote" check "$work/x64-dyn"; whole=$?
err=$("$elfnote" check "$work/cut-at-end" 2>&1); status=$?
[ "$status" = "$whole" ] && [ "$status" -le 1 ] && [ -z "$err" ]
tap_check $? "cut right after its last loadable byte ($load_end): the whole file's verdict, no complaint (exit $status, whole $whole)"

# 5. JSON for hostile file names: quote, backslash, newline, invalid UTF-8.
name=$(printf 'we"ird\\na\nme\xff\xc3\xa9')
cp "$bin/probe-n32" "$work/$name"
json=$("$elfnote" show --json "$work/$name")
expect="{\"format\":1,\"file\":\"$work/we\\\"ird\\\\na\\nme\\u00ffé\",\"status\":\"annotated\""
case "$json" in "$expect"*) true ;; *) false ;; esac
tap_check $? "JSON escapes quotes, backslashes, newlines and invalid UTF-8"
[ "$(printf '%s' "$json" | wc -l)" = 0 ]
tap_check $? "JSON: one line per file"
# One set of members for show and check, whatever the file: format 1, the
# ELF fields null where there is no ELF executable, 0 for no request.
cc -shared -fPIC -o "$work/lib.so" "$work/p.c" -I"$top/elf-note-tool/include"
json_files=("$bin/probe-n32" "$bin/probe-s32" "$work/x64-dyn" "$work/x64-static" "$work/lib.so" "$bin/probe"
	"$corpus/bad-stack-twice" "$work/cut-63" "$top/README.md" "$work/missing")
for c in show check; do
	# Both exit non-zero for these files (pipefail): the output alone is judged here.
	out=$("$elfnote" "$c" --json "${json_files[@]}" 2>/dev/null)
	printf '%s\n' "$out" | python3 -c '
import json, sys
keys = ["format", "file", "status", "class", "byte_order", "type", "suid_stack",
	"stack_guard_gap", "notes", "problem", "elfnote_sections"]
got = []
for line in sys.stdin:
	o = json.loads(line)
	if list(o) != keys or o["format"] != 1:
		sys.exit("members %s" % list(o))
	got.append((o["file"].rsplit("/", 1)[1], o["status"], o["class"], o["type"], o["suid_stack"],
		o["notes"], o["problem"] is None, o["elfnote_sections"]))
want = [("probe-n32", "annotated", 32, "executable", 33554432, 1, True, False),
	("probe-s32", "annotated", 32, "executable", 33554432, 1, True, True),
	("x64-dyn", "annotated", 64, "pie", 50331648, 1, True, False),
	("x64-static", "annotated", 64, "executable", 50331648, 1, True, False),
	("lib.so", "annotated", 64, "shared-object", 50331648, 1, True, False),
	("probe", "none", 32, "executable", 0, 0, True, False),
	("bad-stack-twice", "malformed", 32, "executable", 0, 0, False, False),
	("cut-63", "not-executable", None, None, 0, 0, False, False),
	("README.md", "not-executable", None, None, 0, 0, False, False),
	("missing", "error", None, None, 0, 0, False, False)]
if got != want:
	sys.exit("got %s" % got)'
	tap_check $? "$c --json: one object per file, the same members in order, format 1, PIE and shared object told apart, elfnote_sections only where set added them"
done

# 6. make install puts the tool, its man page and the header in place.
make -s -C "$top/elf-note-tool" OUT="$ELFNOTE_OUT" install PREFIX=/usr DESTDIR="$work/root" >/dev/null &&
	[ -x "$work/root/usr/bin/elfnote" ] && [ -f "$work/root/usr/share/man/man1/elfnote.1" ] &&
	[ -f "$work/root/usr/include/exec-policy-note.h" ] &&
	"$work/root/usr/bin/elfnote" check "$bin/probe-n32" &&
	[ -x "$work/root/usr/bin/dh_elfnote" ] && [ -s "$work/root/usr/share/man/man1/dh_elfnote.1" ] &&
	[ -f "$work/root/usr/share/perl5/Debian/Debhelper/Sequence/elfnote.pm" ]
tap_check $? "make install DESTDIR=... PREFIX=/usr installs a working elfnote, man page and header, dh_elfnote and its addon"

# 7. Usage errors, the getopt way: exit 64, one line naming the problem
#    (prefixed elfnote:), one pointing at --help, nothing on stdout.
for u in "${usage_errors[@]}"; do
	IFS='|' read -r args want <<< "$u"
	cmd=${args%% *}
	try="Try 'elfnote --help' for more information."
	case "$want" in "elfnote: $cmd: "*) try="Try 'elfnote $cmd --help' for more information." ;; esac
	# shellcheck disable=SC2086
	err=$("$elfnote" $args 2>&1 >"$work/usage.out"); status=$?
	[ "$status" = 64 ] && [ "$err" = "$want"$'\n'"$try" ] && [ ! -s "$work/usage.out" ]
	tap_check $? "elfnote $args: exit 64, '$want' and the --help line (got $status: ${err//$'\n'/ | })"
done
for c in show check set clear remove scan; do
	out=$("$elfnote" "$c" --help 2>"$work/help.err"); status=$?
	[ "$status" = 0 ] && [ ! -s "$work/help.err" ] &&
		case "$out" in "usage: elfnote $c "*) true ;; *) false ;; esac
	tap_check $? "elfnote $c --help: its usage on stdout, nothing on stderr, exit 0"
done
