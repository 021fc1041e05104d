#!/bin/bash
# mkroot.sh [DEBARCH]: the guests' /debian root of Debian architecture
# DEBARCH (i386, armhf: abis.txt's debroot column; i386 when not given)
# from the .debs fetch.sh DEBARCH downloaded (docs/debian-root.md):
#
#   $BUILD/debian/DEBARCH/root/            the packages unpacked (dpkg-deb -x),
#                                          /usr merged, docs dropped, configured
#   $BUILD/generated/debian-DEBARCH.list   gen_init_cpio's list, all under
#                                          /debian, modes and owners from the
#                                          packages' own tar headers, not from
#                                          the disk
#   $BUILD/guest-debian-DEBARCH.cpio       the archive (byte-reproducible)
#
# No maintainer script can run here (they are DEBARCH programs): what the
# guests need of them is done below by hand.  Unpacking is redone only
# when the .debs (or this script, or the names under etc/) change; the
# rest only when an input changed: the packages, etc/, effect,
# tests/debian/java, elfnote, gen_init_cpio, javac, this script.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
ELFNOTE=${ELFNOTE:-$BUILD/elfnote/elfnote}
GEN_INIT_CPIO=${GEN_INIT_CPIO:-$BUILD/host/gen_init_cpio}
JAVAC=${JAVAC:-javac}
debarch=${1:-i386}
dir=$BUILD/debian/$debarch
# The .debs fetch.sh downloaded: the cache every clone shares.
archives=$(. "$top/deps/apt.sh" && echo "$DEPS_DEBS")
manifest=$dir/debs.txt
root=$dir/root
listing=$dir/listing.tsv
overlay=$dir/overlay.tsv
list=$BUILD/generated/debian-$debarch.list
out=$BUILD/guest-debian-$debarch.cpio
etc=$here/etc
java_src=$top/tests/debian/java
JRE=usr/lib/jvm/java-17-openjdk-$debarch

die() { echo "mkroot.sh: $*" >&2; exit 1; }

# What readelf -h says of the machine of DEBARCH's programs: every program
# stamped is checked to be one (a stamp on the wrong file would test
# nothing).
case $debarch in
i386) machine='Intel 80386' ;;
armhf) machine='ARM' ;;
*) die "no Debian root is made for '$debarch' (i386-guest/abis.txt's debroot: i386, armhf)" ;;
esac

[ -s "$manifest" ] || die "$manifest is missing: run i386-guest/debian/fetch.sh $debarch first"
[ -x "$ELFNOTE" ] || die "$ELFNOTE is missing: make elfnote"
[ -x "$GEN_INIT_CPIO" ] || die "$GEN_INIT_CPIO is missing: make $GEN_INIT_CPIO"
command -v "$JAVAC" > /dev/null || die "$JAVAC is missing (package openjdk-17-jdk-headless)"

# The Python half (reading the packages' tar headers, writing the list).
cpio_list=$here/cpio-list.py

# --- inputs -------------------------------------------------------------------
# Contents only: the same inputs wherever they lie.
hash_files() { local f; for f; do sha256sum < "$f"; done | sha256sum | cut -d' ' -f1; }
etc_names=$(cd "$etc" && find . -mindepth 1 | LC_ALL=C sort)
unpack_id=$( { echo "$debarch"; hash_files "$0" "$cpio_list"; cat "$manifest"; echo "$etc_names"; } | sha256sum | cut -d' ' -f1)
build_id=$( { echo "$unpack_id"
	(cd "$etc" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
	hash_files "$here/effect" "$here/stack-limit" "$java_src"/*.java "$ELFNOTE" "$GEN_INIT_CPIO"
	"$JAVAC" -version 2>&1; echo "${SOURCE_DATE_EPOCH:-}"; } | sha256sum | cut -d' ' -f1)
if [ "$(cat "$dir/build.stamp" 2>/dev/null)" = "$build_id" ] && [ -f "$out" ] && [ -f "$list" ] && [ -d "$root" ]; then
	echo "  DEBIAN  $out is up to date"
	exit 0
fi
rm -f "$dir/build.stamp"

# --- unpack ---------------------------------------------------------------------
if [ "$(cat "$dir/unpack.stamp" 2>/dev/null)" != "$unpack_id" ] || [ ! -d "$root" ]; then
	echo "  DEBIAN  unpacking $(wc -l < "$manifest") packages into $root"
	rm -f "$dir/unpack.stamp"
	rm -rf "$root" "$root.new"
	mkdir -p "$root.new"
	python3 "$cpio_list" listing "$archives" "$manifest" > "$listing.new"
	while read -r deb; do
		dpkg-deb -x "$archives/$deb" "$root.new" || die "dpkg-deb -x $deb failed"
	done < "$manifest"
	# /usr merged as debootstrap makes bookworm: /bin, /sbin and /lib are
	# links into /usr (the listing already names their files there; it
	# refused any path two packages ship).
	for d in bin sbin lib lib32 libx32 lib64; do
		if [ ! -d "$root.new/$d" ] || [ -L "$root.new/$d" ]; then continue; fi
		mkdir -p "$root.new/usr/$d"
		cp -a "$root.new/$d/." "$root.new/usr/$d/"
		rm -rf "$root.new/$d"
	done
	# Documentation, manual pages, translations: not needed, 13% of the size.
	rm -rf "$root.new/usr/share/doc" "$root.new/usr/share/man" \
		"$root.new/usr/share/locale" "$root.new/usr/share/info"
	mv "$root.new" "$root"
	mv "$listing.new" "$listing"
	echo "$unpack_id" > "$dir/unpack.stamp"
fi

# Added files get the time of the newest package file: the archive is the
# same for the same inputs.
epoch=${SOURCE_DATE_EPOCH:-$(cut -f8 "$listing" | sort -n | tail -1)}

# --- configure -------------------------------------------------------------------
# What is added to the packages' entries, for the list: PATH TYPE MODE UID
# GID EXTRA, TYPE d (folder), f (file), l (link to EXTRA), n (device node
# EXTRA = c MAJOR MINOR), c (a copy of the file EXTRA, its mode and owner).
: > "$overlay.new"
ov() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >> "$overlay.new"; }
# Does a package ship PATH?
in_listing() { awk -F'\t' -v p="$1" '$1 == p { found = 1 } END { exit !found }' "$listing"; }
mkd() { # PATH MODE UID GID
	if [ ! -d "$root/$1" ] || [ -L "$root/$1" ]; then rm -f "$root/$1"; mkdir -p "$root/$1"; fi
	ov "$1" d "$2" "$3" "$4" ""
}
put() { # PATH MODE UID GID SOURCE
	rm -f "$root/$1"
	cp "$5" "$root/$1"
	touch -d "@$epoch" "$root/$1"
	ov "$1" f "$2" "$3" "$4" ""
}
empty() { put "$1" "$2" "$3" "$4" /dev/null; }
lnk() { # PATH TARGET
	if [ -d "$root/$1" ] && [ ! -L "$root/$1" ]; then rmdir "$root/$1"; else rm -f "$root/$1"; fi
	ln -s "$2" "$root/$1"
	ov "$1" l 0777 0 0 "$2"
}
nod() { ov "$1" n "$2" 0 0 "c $3 $4"; }

echo "  DEBIAN  configuring $root"
for d in bin sbin lib lib32 libx32 lib64; do
	[ ! -d "$root/usr/$d" ] || lnk "$d" "usr/$d"
done

# Accounts, PAM, fstab...: i386-guest/debian/etc, over the packages' files.
while read -r p; do
	p=${p#./}
	if [ -d "$etc/$p" ]; then
		in_listing "etc/$p" || mkd "etc/$p" 0755 0 0
	else
		case $p in
		shadow|gshadow) put "etc/$p" 0640 0 42 "$etc/$p" ;;
		*) put "etc/$p" 0644 0 0 "$etc/$p" ;;
		esac
	fi
done <<< "$etc_names"
lnk etc/mtab ../proc/self/mounts
printf 'debian-%s\n' "$debarch" > "$dir/hostname"
put etc/hostname 0644 0 0 "$dir/hostname"

# The guest's mount points and device nodes (a devtmpfs mounted on
# /debian/dev would hide these).
mkd proc 0555 0 0
mkd sys 0555 0 0
mkd tmp 1777 0 0
mkd run 0755 0 0
mkd run/lock 1777 0 0
mkd dev 0755 0 0
mkd dev/pts 0755 0 0
mkd dev/shm 1777 0 0
nod dev/null 0666 1 3
nod dev/zero 0666 1 5
nod dev/full 0666 1 7
nod dev/random 0666 1 8
nod dev/urandom 0666 1 9
nod dev/tty 0666 5 0
nod dev/console 0600 5 1
lnk dev/fd /proc/self/fd
lnk dev/stdin /proc/self/fd/0
lnk dev/stdout /proc/self/fd/1
lnk dev/stderr /proc/self/fd/2
mkd home 0755 0 0
mkd home/user 0755 1000 1000
mkd home/other 0755 1001 1001
mkd mnt 0755 0 0
mkd mnt/user 0755 0 0

# base-files' postinst.
for d in srv opt etc/opt var/opt media usr/local usr/local/bin usr/local/etc \
	usr/local/games usr/local/include usr/local/lib usr/local/sbin usr/local/share \
	usr/local/src usr/local/libexec; do
	mkd "$d" 0755 0 0
done
mkd var/mail 2775 0 8
lnk var/spool/mail ../mail
lnk var/run /run
lnk var/lock /run/lock
put root/.profile 0644 0 0 "$root/usr/share/base-files/dot.profile"
put root/.bashrc 0644 0 0 "$root/usr/share/base-files/dot.bashrc"
put etc/profile 0644 0 0 "$root/usr/share/base-files/profile"
put etc/motd 0644 0 0 "$root/usr/share/base-files/motd"
empty var/log/wtmp 0664 0 43
empty var/log/btmp 0660 0 43
empty var/log/lastlog 0664 0 43
# login's, libpam-modules', java-common's and openjdk's postinst.
empty var/log/faillog 0644 0 0
empty etc/subuid 0644 0 0
empty etc/subgid 0644 0 0
empty etc/security/opasswd 0600 0 0
mkd etc/.java 0755 0 0
mkd etc/.java/.systemPrefs 0755 0 0
empty etc/.java/.systemPrefs/.system.lock 0644 0 0
empty etc/.java/.systemPrefs/.systemRootModFile 0644 0 0
# update-alternatives, for the commands that have no other name.
lnk etc/alternatives/awk /usr/bin/mawk
lnk usr/bin/awk /etc/alternatives/awk
lnk etc/alternatives/which /usr/bin/which.debianutils
lnk usr/bin/which /etc/alternatives/which
lnk etc/alternatives/java "/$JRE/bin/java"
lnk usr/bin/java /etc/alternatives/java

# The effect checker, stack-limit and the Java probe.
put usr/local/libexec/effect 0755 0 0 "$here/effect"
put usr/local/bin/stack-limit 0755 0 0 "$here/stack-limit"
rm -rf "$dir/stackprobe" "$root/usr/local/share/stackprobe"
"$JAVAC" --release 17 -d "$dir/stackprobe" "$java_src"/*.java || die "javac failed"
mkd usr/local/share/stackprobe 0755 0 0
for class in "$dir"/stackprobe/*.class; do
	put "usr/local/share/stackprobe/${class##*/}" 0644 0 0 "$class"
done

# --- stamped copies -------------------------------------------------------------
# Beside every setuid and setgid program, and ping (a file capability,
# cap_net_raw+ep, which iputils-ping's postinst sets and a cpio archive
# cannot carry: the guest sets it), NAME.stamped asking for a 32 MiB
# secureexec stack; beside java, java.gap4k asking for a one-page guard
# gap.  Owner and mode: the original's.
stamp() { # PATH COPY ELFNOTE-OPTIONS...
	local path=$1 copy=$2 before after header
	shift 2
	header=$(LC_ALL=C readelf -h "$root/$path" 2> /dev/null) || die "$path is not an ELF file"
	if ! grep -qE "^ +Class: +ELF32\$" <<< "$header" || ! grep -qE "^ +Machine: +$machine\$" <<< "$header"; then
		die "$path is not a 32-bit $machine ELF program ($debarch)"
	fi
	rm -f "$root/$copy"
	cp -p "$root/$path" "$root/$copy"
	"$ELFNOTE" set "$@" "$root/$copy" > /dev/null || die "elfnote set $* $copy failed"
	"$ELFNOTE" check "$root/$copy" || die "elfnote check $copy: not a well-formed note"
	touch -d "@$epoch" "$root/$copy"
	before=$(stat -c %s "$root/$path") after=$(stat -c %s "$root/$copy")
	printf '/%s\t%s\t%s\t%s\t%s\n' "$copy" "$*" "$before" "$after" "$((after - before))" >> "$dir/stamped.tsv.new"
	ov "$copy" c - - - "$path"
}
: > "$dir/stamped.tsv.new"
mapfile -t privileged < <(awk -F'\t' '$2 == "f" && $3 ~ /^[2-7]/ { print $1 }' "$listing")
for p in "${privileged[@]}" usr/bin/ping; do
	stamp "$p" "$p.stamped" --suid-stack 32M
done
stamp "$JRE/bin/java" "$JRE/bin/java.gap4k" --stack-guard-gap 4K
mv "$dir/stamped.tsv.new" "$dir/stamped.tsv"
mv "$overlay.new" "$overlay"

# --- the list and the archive ---------------------------------------------------------
mkdir -p "$(dirname "$list")"
python3 "$cpio_list" list "$listing" "$overlay" "$etc" "$root" /debian > "$list.new"
awk '$1 == "file" { print $3 }' "$list.new" | while read -r src; do
	[ -f "$src" ] || die "$src (listed for the archive) does not exist"
done
mv "$list.new" "$list"
"$GEN_INIT_CPIO" -t "$epoch" "$list" > "$out.tmp" || die "gen_init_cpio failed"
mv "$out.tmp" "$out"
echo "$build_id" > "$dir/build.stamp"
echo "  DEBIAN  $out: $(du -m "$out" | cut -f1) MiB, $(wc -l < "$list") entries"
