#!/bin/bash
# The guests' effect checker (i386-guest/debian/effect, run as root in the
# /debian chroot after a test program) on the host, with a folder standing
# for / (EFFECT_TEST_ROOT): each subcommand says effect=WORD and exits 0
# when the effect is there, and exits 1 with a reason on stderr, printing
# nothing on stdout, when it is not.  Run by dash, as the guest runs it.
# TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="effect: "
tap_plan 42
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'
root=$work/root
mkdir -p "$root/etc" "$root/proc/self" "$root/mnt/user" "$root/mnt/with space"
SH=$(command -v dash || echo sh)
# The stand-in for umount records what it was asked to unmount.
printf '#!/bin/sh\necho "$1" >> "%s/umounted"\n' "$work" > "$work/umount"
chmod +x "$work/umount"

# effect ARGS...: status, stdout and stderr as "STATUS|OUT|ERR".
effect() {
	local out err status
	out=$(EFFECT_TEST_ROOT=$root EFFECT_UMOUNT="$work/umount" \
		"$SH" "$top/i386-guest/debian/effect" "$@" 2> "$work/err")
	status=$?
	err=$(cat "$work/err")
	echo "$status|$out|$err"
}
# ok DESC ARGS...: exit 0, one word effect=WORD, nothing on stderr.
ok() {
	local desc=$1 word=$2 got
	shift 2
	got=$(effect "$@")
	[ "$got" = "0|effect=$word|" ]
	tap_check $? "$desc"
	[ "$got" = "0|effect=$word|" ] || tap_diag "effect $*: $got"
}
# no DESC PATTERN ARGS...: exit 1, nothing on stdout, stderr matches PATTERN.
no() {
	local desc=$1 pattern=$2 got
	shift 2
	got=$(effect "$@")
	[[ $got == "1||effect: "$pattern ]]
	tap_check $? "$desc"
	[[ $got == "1||effect: "$pattern ]] || tap_diag "effect $*: $got"
}

cat > "$root/etc/group" <<'EOF'
root:x:0:
staff:x:50:user
team:x:2000:other,user,third
users:x:100:
solo:x:3000:userx
EOF
cat > "$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/bash
username:x:1002:1002::/home/username:/bin/sh
user:x:1000:1000:Test User,,,:/home/user:/bin/bash
EOF

# save, changed and line: a check puts every kept copy back
cp "$root/etc/passwd" "$work/passwd.orig"
cp "$root/etc/group" "$work/group.orig"
ok "save keeps a copy" save save /etc/passwd
[ -f "$root/run/effect/%2Fetc%2Fpasswd" ]
tap_check $? "save keeps it in /run/effect under the escaped path"
no "changed: an unchanged file is not" "/etc/passwd: unchanged" changed /etc/passwd
ok "save keeps copies of two files" save save /etc/passwd /etc/group
sed -i 's|^user:x:1000:1000:Test User|user:x:1000:1000:New Name|' "$root/etc/passwd"
echo "team2:x:2001:" >> "$root/etc/group"
ok "changed: a rewritten file is" changed changed /etc/passwd
cmp -s "$root/etc/passwd" "$work/passwd.orig" && cmp -s "$root/etc/group" "$work/group.orig" &&
	[ -z "$(ls -A "$root/run/effect")" ]
tap_check $? "changed puts both kept copies back and forgets them"
no "changed without a save names the missing step" "/etc/group: no copy kept (effect save /etc/group first)" changed /etc/group
no "save of a missing file fails" "/etc/none: not a readable file" save /etc/none
ok "save again" save save /etc/passwd
touch -d @0 "$root/etc/passwd"
no "changed: a file only touched is not" "/etc/passwd: unchanged" changed /etc/passwd
[ -z "$(ls -A "$root/run/effect")" ]
tap_check $? "a failed check puts the kept copy back too"
ok "save before line" save save /etc/passwd
sed -i 's|^user:x:1000:1000:Test User,,,|user:x:1000:1000:Test User,4711,,|' "$root/etc/passwd"
ok "line: an extended regular expression matches a line" line line /etc/passwd '^user:[^:]*:1000:1000:[^:]*4711'
cmp -s "$root/etc/passwd" "$work/passwd.orig"
tap_check $? "line puts the kept copy back"
no "line: no line matches" "/etc/passwd: no line matches '^user:.*:/bin/zsh'" line /etc/passwd '^user:.*:/bin/zsh'
sed -i 's|^user:x:1000:1000:Test User|user:x:1000:1000:New Name|' "$root/etc/passwd"

# field
ok "field: the shell of user" field field /etc/passwd user 7 /bin/bash
ok "field: the GECOS of user, spaces and all" field field /etc/passwd user 5 "New Name,,,"
ok "field: field 1 is the name" field field /etc/passwd root 1 root
no "field: a different value names both" "/etc/passwd: field 7 of 'user' is '/bin/bash', not '/bin/sh'" \
	field /etc/passwd user 7 /bin/sh
ok "field: 'user' is not the line of 'username' before it" field field /etc/passwd user 3 1000
ok "field: an empty field equals ''" field field /etc/passwd username 5 ""
no "field: no line for a name" "/etc/passwd: no line for 'nobody'" field /etc/passwd nobody 7 x
no "field: an index past the last field" "/etc/passwd: the line for 'user' has 7 fields, not 8" field /etc/passwd user 8 x
no "field: index 0 is refused" "field index '0' is not a number from 1" field /etc/passwd user 0 x
no "field: a non-number index is refused" "field index 'x' is not a number from 1" field /etc/passwd user x x
printf 'last:x:1' > "$root/etc/nonl"
ok "field: a last line without a newline is read" field field /etc/nonl last 3 1

# member
ok "member: user is in staff" member member /etc/group staff user
ok "member: user is in team, last of three" member member /etc/group team user
ok "member: other is in team, first of three" member member /etc/group team other
no "member: root is not in staff" "/etc/group: 'root' is not a member of 'staff' (members: 'user')" member /etc/group staff root
no "member: user is not userx" "/etc/group: 'user' is not a member of 'solo' (members: 'userx')" member /etc/group solo user
no "member: an empty member list" "/etc/group: 'user' is not a member of 'users' (members: '')" member /etc/group users user
no "member: no such group" "/etc/group: no group 'nogroup'" member /etc/group nogroup user

# mounted and unmounted
cat > "$root/proc/self/mounts" <<'EOF'
rootfs / rootfs rw 0 0
proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0
none /mnt/user tmpfs rw,nosuid,nodev,noexec,relatime,size=1024k 0 0
none /mnt/with\040space tmpfs rw,relatime 0 0
EOF
ok "mounted: /mnt/user" mounted mounted /mnt/user
[ "$(cat "$work/umounted")" = "$root/mnt/user" ]
tap_check $? "mounted unmounts it again"
ok "mounted: /mnt/user/ with a trailing slash" mounted mounted /mnt/user/
ok "mounted: a path with a space, octal-escaped in mounts" mounted mounted "/mnt/with space"
ok "mounted: /" mounted mounted /
no "unmounted: /mnt/user is mounted" "/mnt/user: a mount point" unmounted /mnt/user
sed -i '/mnt\/user/d' "$root/proc/self/mounts"
ok "unmounted: /mnt/user once gone from mounts" unmounted unmounted /mnt/user
no "mounted: /mnt is not a mount point" "/mnt: not a mount point" mounted /mnt

got=$(effect frobnicate /x)
[[ $got == 2\|\|usage:* ]]
tap_check $? "an unknown subcommand is a usage error (exit 2)"
