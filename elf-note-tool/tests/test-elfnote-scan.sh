#!/bin/bash
# Host tests of elfnote scan (the ASan/UBSan build) on a tree built here:
# it must list setuid, setgid (marked when Linux ignores it) and
# file-capability ELF executables with exact owner, mode, capabilities,
# note status and requested size; list every ELF executable with --all;
# skip scripts, follow no symlink inside the tree, stay on the
# filesystem of each DIR; report unreadable directories by name and go
# on, exiting 4; print valid JSON, one object per line.  Needs root
# (setuid files, setcap, setpriv).  TAP.
set -uo pipefail

. "$(dirname "$0")/elfnote-env.sh"
TAP_PREFIX="elfnote scan: "
. "$top/tests/lib/tap.sh"

if [ "$(id -u)" != 0 ]; then
	tap_plan 1
	tap_skip "tree tests" "need root (setuid files, setcap, setpriv)"
	exit 0
fi

# The sections' results: 1. what is listed (7), 2. --all (3), 3. JSON (5),
# 4. names (3), 5. as nobody (4), 6. arguments (5), 7. mounts (3, or 3
# skipped), 8. depth (2), 9. reads (1, or skipped), the guard gap (2), a
# truncated copy (2), the text layout (2).
tap_plan $(( 7 + 3 + 5 + 3 + 4 + 5 + 3 + 2 + 1 + 2 + 2 + 2 ))

work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'
# The scan also runs as nobody, who must reach everything but locked/.
chmod 755 "$work"
t=$work/tree
mkdir -p "$t/bin" "$t/sub/deep/er" "$t/locked" "$t/noexec" "$t/mnt"

put() {	# put SOURCE NAME MODE
	cp "$1" "$t/$2" && chown root:root "$t/$2" && chmod "$3" "$t/$2"
}
put "$bin/probe-n32" bin/suid-n32 4755
put "$bin/probe" bin/suid-none 4755
put "$corpus/bad-stack-twice" bin/suid-malformed 4750
put "$bin/probe" bin/sgid 2755
put "$bin/probe" bin/sgid-noexec 2705
put "$bin/probe" bin/caps 0755
setcap cap_net_raw+ep "$t/bin/caps"
put "$bin/probe" bin/plain 0755
put /bin/true bin/plain64 0755
put "$bin/probe" bin/no-exec-bit 0644
put "$bin/probe" bin/suid-no-exec-bit 4644
put "$bin/probe-n32" sub/deep/er/suid-deep 6755
printf '#!/bin/sh\necho hi\n' > "$t/bin/suid-script" && chmod 4755 "$t/bin/suid-script"
: > "$t/bin/suid-empty" && chmod 4755 "$t/bin/suid-empty"
# A setuid program outside the tree, reached only through a symlink.
put "$bin/probe-n32" ../outside-suid 4755
ln -s "$work/outside-suid" "$t/bin/link-to-suid"
ln -s "../../outside-suid" "$t/sub/link-relative"
# Unreadable to nobody: locked/ (0700), and noexec/ (readable, not searchable).
put "$bin/probe" locked/hidden-suid 4755
chmod 0700 "$t/locked"
put "$bin/probe" noexec/hidden-suid 4755
chmod 0744 "$t/noexec"
mkfifo "$t/sub/fifo"

# Listed lines, sorted, with paths relative to the tree.
lines() {
	sed "s|$t/||" | sort
}

# 1. What is listed, exactly, in text.
out=$("$elfnote" scan "$t")
status=$?
[ "$status" = 0 ]; tap_check $? "a readable tree exits 0 (got $status)"
[ "$(printf '%s\n' "$out" | head -1)" = "MODE OWNER    GROUP    PRIVILEGE      STATUS         STACK      GUARD-GAP  CAPABILITIES    FILE" ]
tap_check $? "the first line names the columns"
expect=$(cat <<EOF
0755 root     root     -              none           -          -          cap_net_raw=ep  bin/caps
2705 root     root     setgid-ignored none           -          -          -               bin/sgid-noexec
2755 root     root     setgid         none           -          -          -               bin/sgid
4750 root     root     setuid         malformed      -          -          -               bin/suid-malformed
4755 root     root     setuid         annotated      33554432   -          -               bin/suid-n32
4755 root     root     setuid         none           -          -          -               bin/suid-none
4755 root     root     setuid         none           -          -          -               locked/hidden-suid
4755 root     root     setuid         none           -          -          -               noexec/hidden-suid
6755 root     root     setuid,setgid  annotated      33554432   -          -               sub/deep/er/suid-deep
EOF
)
got=$(printf '%s\n' "$out" | tail -n +2 | lines)
[ "$got" = "$expect" ]
tap_check $? "lists exactly the setuid, setgid and capability ELF executables, with mode, owner, privilege, note, size and capabilities"
[ "$got" != "$expect" ] && diff <(echo "$expect") <(echo "$got") | sed 's/^/#   /'
case "$out" in *suid-script*|*suid-empty*) false ;; *) true ;; esac
tap_check $? "a setuid script and a setuid empty file are skipped silently"
case "$out" in *suid-no-exec-bit*) false ;; *) true ;; esac
tap_check $? "a setuid ELF file no one can execute (4644) is not listed"
case "$out" in *outside-suid*|*link-to-suid*|*link-relative*) false ;; *) true ;; esac
tap_check $? "a symlink to a setuid program outside the tree is neither followed nor listed"
[ "$(getcap "$t/bin/caps")" = "$t/bin/caps cap_net_raw=ep" ]
tap_check $? "the capabilities text is getcap's"

# 2. --all: every ELF executable (a file with an execute bit: no one can
#    execute one without), still no script.
out=$("$elfnote" scan --all "$t")
status=$?
got=$(printf '%s\n' "$out" | tail -n +2 | lines)
[ "$status" = 0 ] && [ "$(printf '%s\n' "$got" | wc -l)" = 11 ] &&
	printf '%s\n' "$got" | grep -qx '0755 root     root     -              none           -          -          -               bin/plain' &&
	printf '%s\n' "$got" | grep -qx '0755 root     root     -              none           -          -          -               bin/plain64'
tap_check $? "--all adds the plain i386 and x86_64 executables: 11 files"
case "$out" in *suid-script*|*suid-empty*|*fifo*|*link-to*) false ;; *) true ;; esac
tap_check $? "--all still skips scripts, empty files, FIFOs and symlinks"
case "$out" in *no-exec-bit*) false ;; *) true ;; esac
tap_check $? "--all skips ELF files no one can execute (0644, 4644)"

# 3. JSON: valid, one object per line, the fields.
json=$("$elfnote" scan --json "$t")
status=$?
[ "$status" = 0 ]; tap_check $? "--json exits 0"
fields=$(printf '%s\n' "$json" | python3 -c '
import json, sys
# The members every object of show, check and scan begins with, in
# order, then the file members of a scan.
keys = ["format", "file", "status", "class", "byte_order", "type", "suid_stack",
	"stack_guard_gap", "notes", "problem", "elfnote_sections", "owner", "group", "uid", "gid", "mode",
	"setuid", "setgid", "setgid_ignored", "capabilities"]
for line in sys.stdin:
	o = json.loads(line)
	if list(o) != keys or o["format"] != 1:
		sys.exit("members %s in %s" % (list(o), line))
	print(o["file"].split("/tree/", 1)[1], o["owner"], o["group"], o["uid"], o["gid"],
	      o["mode"], o["setuid"], o["setgid"], o["setgid_ignored"],
	      repr(o["capabilities"]), o["status"], o["suid_stack"])
' | sort)
tap_check $? "every --json line is a JSON object with the documented members, in order, format 1"
expect=$(cat <<EOF
bin/caps root root 0 0 0755 False False False 'cap_net_raw=ep' none 0
bin/sgid root root 0 0 2755 False True False '' none 0
bin/sgid-noexec root root 0 0 2705 False True True '' none 0
bin/suid-malformed root root 0 0 4750 True False False '' malformed 0
bin/suid-n32 root root 0 0 4755 True False False '' annotated 33554432
bin/suid-none root root 0 0 4755 True False False '' none 0
locked/hidden-suid root root 0 0 4755 True False False '' none 0
noexec/hidden-suid root root 0 0 4755 True False False '' none 0
sub/deep/er/suid-deep root root 0 0 6755 True True False '' annotated 33554432
EOF
)
[ "$fields" = "$expect" ]
tap_check $? "--json fields: owner, ids, mode, setuid/setgid, capabilities, status, suid_stack"
[ "$fields" != "$expect" ] && diff <(echo "$expect") <(echo "$fields") | sed 's/^/#   /'
printf '%s\n' "$json" | grep -q '"file":"[^"]*suid-malformed",.*"problem":"stack property given twice"'
tap_check $? "--json: a malformed note comes with the kernel's reason"
"$elfnote" scan --all --json "$t" | python3 -c '
import json, sys
n = sum(1 for l in sys.stdin if json.loads(l)["status"] in ("annotated", "none", "malformed"))
sys.exit(n != 11)'
tap_check $? "--all --json: 11 valid objects"

# 4. Numeric owner and group when they have no name; hostile names.
uid=$(( $(date +%s) % 20000 + 40000 ))
while getent passwd "$uid" >/dev/null || getent group "$uid" >/dev/null; do uid=$((uid + 1)); done
mkdir "$work/odd"
cp "$bin/probe" "$work/odd/nameless" && chown "$uid:$uid" "$work/odd/nameless" && chmod 4755 "$work/odd/nameless"
name=$(printf 'we"ird\\na\nme\xff')
cp "$bin/probe-n32" "$work/odd/$name" && chmod 4755 "$work/odd/$name"
out=$("$elfnote" scan "$work/odd")
printf '%s\n' "$out" | grep -qx "4755 $(printf '%-8s %-8s' "$uid" "$uid") setuid         none           -          -          -               $work/odd/nameless"
tap_check $? "an owner and group without a name are shown as numbers"
printf '%s\n' "$out" | grep -qxF "4755 root     root     setuid         annotated      33554432   -          -               $work/odd/we\"ird\\134na\\012me$(printf '\xff')"
tap_check $? "text: control characters and backslashes in names are escaped, one line per file"
json=$("$elfnote" scan --json "$work/odd")
printf '%s\n' "$json" | python3 -c '
import json, sys
objs = [json.loads(l) for l in sys.stdin]
names = sorted(o["file"].rsplit("/", 1)[1] for o in objs)
sys.exit(names != ["nameless", "we\"ird\\na\nme\xff"])' &&
	printf '%s\n' "$json" | python3 -c '
import json, sys
uid = int(sys.argv[1])
o = [o for o in map(json.loads, sys.stdin) if o["file"].endswith("/nameless")][0]
sys.exit((o["owner"], o["group"], o["uid"], o["gid"]) != (str(uid), str(uid), uid, uid))' "$uid"
tap_check $? "--json: hostile names stay valid JSON, numeric owner as a string"

# 5. As nobody: locked/ cannot be read, noexec/ cannot be searched,
#    bin/suid-malformed (4750) cannot be opened; each named once, the rest
#    listed, exit 4.
nobody() {
	setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}
out=$(nobody "$elfnote" scan "$t" 2>"$work/err")
status=$?
err=$(cat "$work/err")
[ "$status" = 4 ]; tap_check $? "as nobody: an unreadable directory makes the exit status 4 (got $status)"
[ "$(sort "$work/err")" = "$(printf 'elfnote: %s: Permission denied\n' "$t/bin/suid-malformed" "$t/locked" "$t/noexec" | sort)" ]
tap_check $? "as nobody: each unreadable directory or file is reported once, by path ($(printf %s "$err" | tr "\n" " "))"
got=$(printf '%s\n' "$out" | tail -n +2 | awk '{print $NF}' | lines | tr '\n' ' ')
[ "$got" = "bin/caps bin/sgid bin/sgid-noexec bin/suid-n32 bin/suid-none sub/deep/er/suid-deep " ]
tap_check $? "as nobody: the scan goes on and lists the others ($got)"
json=$(nobody "$elfnote" scan --json "$t" 2>/dev/null)
printf '%s\n' "$json" | python3 -c '
import json, sys
errs = sorted(o["file"] for o in map(json.loads, sys.stdin) if o["status"] == "error" and o["problem"] == "Permission denied")
sys.exit(errs != [sys.argv[1] + d for d in ("/bin/suid-malformed", "/locked", "/noexec")])' "$t"
tap_check $? "as nobody, --json: an error object per unreadable directory or file"

# 6. Arguments: several DIRs, a DIR that is not one, a symlink to a DIR,
#    usage errors.
out=$("$elfnote" scan "$t/bin/suid-n32" "$work/missing" "$t/sub" 2>"$work/err")
status=$?
[ "$status" = 4 ] &&
	[ "$(cat "$work/err")" = "elfnote: $t/bin/suid-n32: Not a directory
elfnote: $work/missing: No such file or directory" ] &&
	printf '%s\n' "$out" | grep -q "sub/deep/er/suid-deep$"
tap_check $? "a file and a missing DIR are reported (exit 4), the next DIR is scanned"
ln -s "$t/sub" "$work/sub-link"
"$elfnote" scan "$work/sub-link" | grep -q " $work/sub-link/deep/er/suid-deep$"
tap_check $? "a symlink given as DIR is followed, like find -H"
"$elfnote" scan --bogus "$t" 2>/dev/null; [ $? = 64 ]; tap_check $? "unknown option: exit 64"
"$elfnote" scan --help | grep -q '^usage: elfnote scan'; tap_check $? "--help prints the usage"
"$elfnote" scan "" 2>/dev/null; [ $? = 4 ]; tap_check $? "an empty DIR name is an error, exit 4"

# 7. Mount points are not crossed, bind mounts of the same filesystem
#    included (find -xdev would enter those: same device; one of the tree
#    inside itself would be a loop); a DIR on another filesystem is scanned.
if unshare -Urm true 2>/dev/null; then
	out=$(unshare -Urm bash -c '
		mkdir "$1/sub/bound" "$1/sub/loop" || exit 1
		mount -t tmpfs tmpfs "$1/mnt" || exit 1
		cp "$2" "$1/mnt/suid-on-tmpfs" && chmod 4755 "$1/mnt/suid-on-tmpfs" || exit 1
		mount --bind "$1/bin" "$1/sub/bound" && mount --bind "$1" "$1/sub/loop" || exit 1
		echo "== tree"; "$3" scan "$1" || echo "exit $?"
		echo "== mnt then tree"; "$3" scan "$1/mnt" "$1" || echo "exit $?"' _ "$t" "$bin/probe" "$elfnote")
	status=$?
	tree=$(printf '%s\n' "$out" | sed -n '/^== tree/,/^== mnt/p')
	both=$(printf '%s\n' "$out" | sed -n '/^== mnt then tree/,$p')
	[ "$status" = 0 ] && ! printf '%s\n' "$tree" | grep -q suid-on-tmpfs &&
		printf '%s\n' "$tree" | grep -q 'bin/suid-n32$'
	tap_check $? "a tmpfs mounted inside the tree is not crossed"
	! printf '%s\n' "$tree" | grep -qE '/sub/(bound|loop)/|^exit' &&
		[ "$(printf '%s\n' "$tree" | grep -c /)" = 9 ]
	tap_check $? "bind mounts inside the tree (one of the tree itself) are not crossed: the same 9 files"
	printf '%s\n' "$both" | grep -q " $t/mnt/suid-on-tmpfs$" &&
		[ "$(printf '%s\n' "$both" | grep -c suid-on-tmpfs)" = 1 ] &&
		printf '%s\n' "$both" | grep -q 'bin/suid-n32$'
	tap_check $? "each DIR stays on its own filesystem: the mount given as DIR is scanned, once"
	rmdir "$t/sub/bound" "$t/sub/loop"
else
	for what in "a tmpfs mounted inside the tree is not crossed" "bind mounts are not crossed" \
		"each DIR stays on its own filesystem"; do
		tap_skip "$what" "unshare -Urm is not permitted here"
	done
fi

# 8. Deeper than the descriptor budget, with paths longer than PATH_MAX:
#    two chains of 150 directories with 40-character names and a setuid
#    program every 50 levels.  With 20 descriptors the walk keeps 4
#    directories open and climbs back through "..".
python3 - "$work/deep" "$bin/probe" <<'PY'
import os, shutil, sys
top, probe = sys.argv[1], sys.argv[2]
os.mkdir(top)
for chain in "ab":
	os.chdir(top)
	for i in range(1, 151):
		d = "%s-%03d-%s" % (chain, i, "x" * 34)
		os.mkdir(d)
		os.chdir(d)
		if i % 50 == 0:
			shutil.copy(probe, "suid")
			os.chmod("suid", 0o4755)
PY
out=$(ulimit -n 20; "$elfnote" scan "$work/deep")
status=$?
got=$(printf '%s\n' "$out" | tail -n +2 | awk '{ n = split($NF, p, "/"); print (length($NF) > 4096), n - 4 }' | sort | tr '\n' ' ')
[ "$status" = 0 ] && [ "$got" = "0 51 0 51 1 101 1 101 1 151 1 151 " ]
tap_check $? "with 20 descriptors: a tree 150 deep, paths past PATH_MAX, all 6 programs (exit $status; $got)"
[ "$("$elfnote" scan --json "$work/deep" | python3 -c 'import json,sys; print(sum(len(json.loads(l)["file"]) > 4096 for l in sys.stdin))')" = 4 ]
tap_check $? "--json: the 4 programs past PATH_MAX have their whole path"

# 9. Only headers and notes are read: a 256 MiB (sparse) setuid ELF costs
#    a few hundred bytes of reads.
if command -v strace >/dev/null; then
	mkdir "$work/big"
	cp "$bin/probe-n32" "$work/big/huge" && truncate -s 256M "$work/big/huge" && chmod 4755 "$work/big/huge"
	# -P: only the system calls on that file, through its descriptor too.
	trace=$(strace -f -qq -P "$work/big/huge" -e trace=read,pread64,readv,preadv,preadv2,mmap \
		"$elfnote" scan "$work/big" 2>&1 >/dev/null)
	bytes=$(printf '%s\n' "$trace" | awk '/^(\[pid +[0-9]+\] )?p?readv?2?(64)?\(/ { n += $NF } END { print n + 0 }')
	mapped=$(printf '%s\n' "$trace" | grep -c 'mmap(')
	[ "$bytes" -gt 0 ] && [ "$bytes" -lt 8192 ] && [ "$mapped" = 0 ]
	tap_check $? "a 256 MiB ELF file is not read whole: $bytes bytes of pread64"
else
	tap_skip "a 256 MiB ELF file is not read whole" "strace is not installed"
fi

# The stack guard gap request is reported too, in text and JSON.
mkdir "$work/gap" && cp "$bin/guardgap-g4k" "$work/gap/g4k" && chmod 4755 "$work/gap/g4k"
out=$("$elfnote" scan "$work/gap" | tail -n +2)
[ "$out" = "4755 root     root     setuid         annotated      -          4096       -               $work/gap/g4k" ]
tap_check $? "the GUARD-GAP column shows a one-page request"
"$elfnote" scan --json "$work/gap" | grep -q '"status":"annotated",.*"suid_stack":0,"stack_guard_gap":4096,'
tap_check $? "--json: stack_guard_gap 4096, suid_stack 0"

# A setuid copy cut short is listed as what it is, not as a program
# without a note: the kernel would map it and it would die of SIGBUS.
mkdir "$work/cut" && head -c 3000 "$bin/probe" > "$work/cut/p" && chmod 4755 "$work/cut/p"
out=$("$elfnote" scan "$work/cut" | tail -n +2)
[ "$out" = "4755 root     root     setuid         not-executable -          -          -               $work/cut/p" ]
tap_check $? "a truncated setuid copy is listed not-executable ($out)"
"$elfnote" scan --json "$work/cut" | grep -q '"status":"not-executable".*"problem":"truncated: program header [0-9]* (PT_LOAD) ends at byte [0-9]*, the file has 3000 bytes"'
tap_check $? "--json: its reason says where it was cut"

# The text listing: sorted by path (bytewise), every column lined up
# under its header however long an owner or a capability set is.
mkdir "$work/layout" && for n in zz b a10 a2 M; do
	cp "$bin/probe" "$work/layout/$n" && chmod 4755 "$work/layout/$n"
done
chown 4000000000:4000000001 "$work/layout/b" && chmod 4755 "$work/layout/b"	# chown clears setuid
setcap cap_net_raw,cap_net_admin,cap_sys_ptrace,cap_dac_read_search+ep "$work/layout/a2"
out=$("$elfnote" scan "$work/layout")
got=$(printf '%s\n' "$out" | tail -n +2 | awk '{print $NF}' | sed "s|$work/layout/||" | tr '\n' ' ')
[ "$got" = "M a10 a2 b zz " ]
tap_check $? "text: sorted by path, bytewise ($got)"
printf '%s\n' "$out" | python3 -c '
import sys
lines = sys.stdin.read().splitlines()
head = lines[0]
starts = [i for i, ch in enumerate(head) if ch != " " and (i == 0 or head[i - 1] == " ")]
for line in lines[1:]:
	for s in starts[1:]:
		if line[s - 1] != " " or line[s] == " ":
			sys.exit("column at %d not aligned: %r" % (s, line))
sys.exit(not any("4000000000" in l for l in lines) or not any("cap_dac_read_search" in l for l in lines))'
tap_check $? "text: every column starts where its header does, with a 10-digit owner and a long capability set"
