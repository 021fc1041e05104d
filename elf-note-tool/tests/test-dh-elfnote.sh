#!/bin/bash
# Host tests of the elfnote package, dh_elfnote and the elfnote sequence
# addon, the way a packager meets them: dpkg-buildpackage builds the
# project's package (debian/, elf-note-tool/), which lintian must pass
# without a tag; then, with that package's files, tests/dh-sample (a
# setuid helper that needs a 16 MiB stack, Build-Depends:
# dh-sequence-elfnote).  The .deb's helper must be
# stamped, setuid, runnable and in md5sums, the dbgsym must keep gdb
# quiet, two builds must be byte-identical; a listed file that is missing,
# a bad request, a damaged or malformed setuid ELF file and a request
# --strict refuses must each fail the build naming the file.  TAP.
set -uo pipefail

. "$(dirname "$0")/elfnote-env.sh"
TAP_PREFIX="dh_elfnote: "
. "$top/tests/lib/tap.sh"

for tool in dh dpkg-buildpackage lintian gdb; do
	if ! command -v "$tool" >/dev/null; then
		tap_plan 1
		tap_skip "package builds" "$tool is not installed (make deps installs it)"
		exit 0
	fi
done

# The failing builds: NAME|what to change in the copy|what the log must
# say after "dh_elfnote: error: " (a fixed string, or with ~ in front an
# extended regular expression; with ^^ in front, one for a whole line of
# any tool).
# What GNU strip or objcopy leaves of a stamped program: which header
# comes out wrong first depends on the layout set chose and the tool.
stripped_again='~debian/sample/usr/lib/sample/helper: (program header [0-9]+ \(PT_[A-Z_]+\) (is empty: the notes it held are lost|says address 0x[0-9a-f]+, but its bytes load at 0x[0-9a-f]+)|loadable segments overlap or are out of order) \(GNU strip or objcopy after elfnote set\? strip first, then stamp\)$'
# A program stamped before dh_strip: dh_strip's objcopy finds no room for
# the debug link in a page-tail layout and fails, naming the file; or
# strip damages it and dh_elfnote names the damage.  Either way no .deb.
stamped_before_strip="^^(dh_strip: error: objcopy --add-gnu-debuglink [^ ]+ debian/sample/usr/lib/sample/helper returned exit code 1|dh_elfnote: error: ${stripped_again#\~})"
failures=(
	"missing|echo 'usr/lib/sample/nothere suid-stack=32M' >> debian/sample.elfnote|debian/sample.elfnote:3: usr/lib/sample/nothere does not exist in debian/sample"
	"symlink|symlink|debian/sample.elfnote:3: usr/lib/sample/link is a symbolic link in debian/sample: list the file it points to"
	"bad-request|echo 'usr/lib/sample/helper stack=32M' > debian/sample.elfnote|debian/sample.elfnote:1: 'stack=32M' is not suid-stack=SIZE or stack-guard-gap=SIZE"
	"size-suffix|echo 'usr/lib/sample/helper suid-stack=32MB' > debian/sample.elfnote|debian/sample.elfnote:1: usr/lib/sample/helper: invalid size '32MB': unknown suffix (use bytes, or K, M, G or T, also written KiB, MiB, GiB or TiB)"
	"size-8M|echo 'usr/lib/sample/helper suid-stack=4M' > debian/sample.elfnote|debian/sample.elfnote:1: usr/lib/sample/helper: invalid size '4M': not above 8M, which every setuid program gets anyway: such a request does nothing"
	"stamped-early|stamped-early|$stamped_before_strip"
	"postinst-only|postinst-only|$stamped_before_strip"
	"strip-again|again strip|$stripped_again"
	"strip-unneeded-again|again strip --strip-unneeded|$stripped_again"
	"objcopy-again|again objcopy --remove-section=.comment|$stripped_again"
	"malformed|extra malformed|debian/sample/usr/lib/sample/extra: malformed exec policy note: stack property given twice"
	"fcap-malformed|extra fcap|debian/sample/usr/lib/sample/extra: malformed exec policy note: stack property given twice"
	"strict|strict|debian/sample/usr/lib/sample/helper: refused (--strict): the kernel never lowers the stack guard gap"
)
# Builds that succeed with a warning: NAME|change|the lines the log must
# have, separated by ^ (fixed strings).
warn_unprivileged="dh_elfnote: warning: debian/sample/usr/lib/sample/helper: asks for a secureexec stack but is neither setuid, setgid nor capable in the package: the request counts only once postinst or dpkg-statoverride makes it so"
warn_gap="elfnote: debian/sample/usr/lib/sample/helper: warning: the kernel never lowers the stack guard gap of a setuid, setgid or file-capability program (it keeps the system's, 1M by default)"
warn_stack="elfnote: debian/sample/usr/lib/sample/helper: warning: above 64M, the most kernels grant by default (fs.secureexec_stack_max), and less when the guard gap is raised too"
warnings=(
	"library|library|dh_elfnote: warning: debian/sample/usr/lib/sample/libextra.so: a shared library with an exec policy note: only a program's own note counts"
	"unprivileged|unprivileged|$warn_unprivileged"
	"no-package|echo 'usr/lib/sample/helper suid-stack=32M' > debian/other.elfnote|dh_elfnote: warning: debian/other.elfnote names no package of debian/control: it is not used"
	"two-warnings|two-warnings|$warn_gap^$warn_stack"
)
# The elfnote package (2); the good build (1), its order (1), the .deb
# (5), gdb (1), a second build (1), --no-act, -N, old-kernels (3); each
# failure; each warning.
tap_plan $(( 2 + 1 + 1 + 5 + 1 + 1 + 3 + ${#failures[@]} + ${#warnings[@]} ))

# A packager's shell (build-dh-sample.sh says why).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'
arch=$(dpkg --print-architecture)

# 0. The project's package, built from debian/ and elf-note-tool/ alone,
#    then the sample with what it installs (build-dh-sample.sh).
"$top/elf-note-tool/tests/build-dh-sample.sh" "$work"; built=$?
[ "$built" != 10 ]
tap_check $? "dpkg-buildpackage -b builds the elfnote and dh-elfnote packages"
[ "$built" = 10 ] && tail -20 "$work/pkg/build.log" | sed 's/^/#   /'
tags=$(lintian --info --pedantic "$work/pkg"/elfnote_*_"$arch".deb "$work/pkg"/elfnote-dbgsym_*_"$arch".deb \
	"$work/pkg"/dh-elfnote_*_all.deb 2>&1 |
	grep -E '^[EWIPX]: ')
[ "$built" != 10 ] && [ -z "$tags" ]
tap_check $? "lintian --info --pedantic: not one tag on elfnote, elfnote-dbgsym and dh-elfnote${tags:+ ($tags)}"

# The builds below use what that package installs, unpacked there.
export PATH="$work/root/usr/bin:$PATH"
export PERL5LIB="$work/root/usr/share/perl5${PERL5LIB:+:$PERL5LIB}"
elfnote=$work/root/usr/bin/elfnote

# unprivileged DIR: the sample's helper stays 0755 in the package.
unprivileged() {
	sed -i '/^override_dh_fixperms:/,$d' "$1/sample/debian/rules"
}
# build DIR: a fresh copy of the sample built in DIR; the log is DIR/build.log.
copy() {
	mkdir -p "$1" && cp -a "$top/elf-note-tool/tests/dh-sample" "$1/sample"
}
build() {
	(cd "$1/sample" && dpkg-buildpackage -b -uc -us -d) > "$1/build.log" 2>&1
}

# 1. The sample, built as a packager would.
[ "$built" = 0 ]
tap_check $? "dpkg-buildpackage -b builds the sample with dh-sequence-elfnote (exit $built)"
[ "$built" = 20 ] && tail -20 "$work/a/build.log" | sed 's/^/#   /'
order=$(grep -oE '^   dh_(dwz|strip|elfnote|makeshlibs|shlibdeps|md5sums)\b' "$work/a/build.log" | tr -d ' ' | tr '\n' ' ')
[ "$order" = "dh_dwz dh_strip dh_elfnote dh_makeshlibs dh_shlibdeps dh_md5sums " ]
tap_check $? "dh_elfnote runs after dh_dwz and dh_strip, before dh_makeshlibs, dh_shlibdeps and dh_md5sums ($order)"

deb=$work/a/sample_1.0-1_$arch.deb
dbgsym=$work/a/sample-dbgsym_1.0-1_$arch.deb
dpkg-deb -x "$dbgsym" "$work/d"
helper=$work/deb-root/usr/lib/sample/helper
# The listing whole first: grep -q would stop reading it (pipefail).
listing=$(dpkg-deb -c "$deb")
grep -q '^-rwsr-xr-x root/root .* \./usr/lib/sample/helper$' <<<"$listing"
tap_check $? "the .deb ships the helper setuid root (-rwsr-xr-x root/root)"
[ "$("$elfnote" show "$helper")" = "$helper: exec policy note: suid stack 33554432 bytes (32768 KiB)" ]
tap_check $? "the shipped helper carries the 32 MiB request"
"$elfnote" check "$helper" 2>/dev/null
tap_check $? "elfnote check: a well-formed note, an undamaged executable"
case "$("$helper" 8)" in "rlim_cur="*" depth=8") true ;; *) false ;; esac
tap_check $? "the shipped helper runs"
(cd "$work/deb-root" && md5sum --quiet -c DEBIAN/md5sums)
tap_check $? "DEBIAN/md5sums matches the stamped helper"
out=$(gdb -batch -ex "set debug-file-directory $work/d/usr/lib/debug" -ex "file $helper" -ex 'info line main' 2>&1)
! grep -q 'not found in' <<<"$out" && grep -q '^Line [0-9]* of "./helper.c"' <<<"$out"
tap_check $? "gdb with the dbgsym package: main in helper.c, no 'section not found' warning"

# 2. Reproducible: a second build from a fresh copy.
copy "$work/b" && build "$work/b" &&
	cmp "$deb" "$work/b/${deb##*/}" && cmp "$dbgsym" "$work/b/${dbgsym##*/}"
tap_check $? "a second build gives byte-identical .deb and dbgsym"

# 3. debhelper's options.
before=$(sha256sum < "$work/a/sample/debian/sample/usr/lib/sample/helper")
out=$(cd "$work/a/sample" && dh_elfnote --no-act -v 2>&1)
[ "$out" = "	elfnote set --suid-stack 32M debian/sample/usr/lib/sample/helper" ] &&
	[ "$(sha256sum < "$work/a/sample/debian/sample/usr/lib/sample/helper")" = "$before" ]
tap_check $? "--no-act -v: prints the command, changes nothing ($out)"
out=$(cd "$work/a/sample" && dh_elfnote --no-act -v -N sample 2>&1)
! grep -q 'elfnote set' <<<"$out" && out2=$(cd "$work/a/sample" && dh_elfnote --no-act -v -p sample 2>&1) &&
	grep -qx '	elfnote set --suid-stack 32M debian/sample/usr/lib/sample/helper' <<<"$out2"
tap_check $? "-N sample leaves the package out, -p sample takes it"
echo 'usr/lib/sample/helper suid-stack=32M old-kernels' > "$work/a/sample/debian/sample.elfnote"
out=$(cd "$work/a/sample" && dh_elfnote --no-act -v 2>&1)
[ "$out" = "	elfnote set --suid-stack 32M --old-kernels debian/sample/usr/lib/sample/helper" ]
tap_check $? "the word old-kernels becomes elfnote set --old-kernels ($out)"

# 4. What must fail the build, naming the file.
for f in "${failures[@]}"; do
	IFS='|' read -r name change want <<< "$f"
	dir=$work/fail-$name
	copy "$dir"
	case "$change" in
	"extra malformed")
		cp "$corpus/bad-stack-twice" "$dir/sample/extra"
		printf '\t%s\n' 'install -D -m 4755 extra debian/sample/usr/lib/sample/extra' >> "$dir/sample/debian/rules" ;;
	"extra fcap")
		# Not setuid: file capabilities alone make it privileged.
		if [ "$(id -u)" != 0 ]; then
			tap_skip "$name: the build fails" "setcap in the build needs root"
			continue
		fi
		# After dh_strip, which writes a new file and so drops xattrs.
		cp "$corpus/bad-stack-twice" "$dir/sample/extra"
		printf '\t%s\n' 'install -D -m 0755 extra debian/sample/usr/lib/sample/extra' >> "$dir/sample/debian/rules"
		printf 'override_dh_strip:\n\tdh_strip\n\tsetcap cap_net_raw+ep debian/sample/usr/lib/sample/extra\n' \
			>> "$dir/sample/debian/rules" ;;
	stamped-early)
		# What a packager without the addon does: stamp in the install
		# step, so that dwz (left out, it refuses stamped files) and
		# strip come after; GNU strip cannot keep the added table.
		rm "$dir/sample/debian/sample.elfnote"
		printf 'override_dh_auto_install:\n\tdh_auto_install\n\telfnote set --suid-stack 32M debian/sample/usr/lib/sample/helper\noverride_dh_dwz:\n' >> "$dir/sample/debian/rules" ;;
	strict)
		echo 'usr/lib/sample/helper stack-guard-gap=4K' > "$dir/sample/debian/sample.elfnote"
		printf 'override_dh_elfnote:\n\tdh_elfnote --strict\n' >> "$dir/sample/debian/rules" ;;
	symlink)
		echo 'usr/lib/sample/link suid-stack=32M' >> "$dir/sample/debian/sample.elfnote"
		printf '\t%s\n' 'ln -s helper debian/sample/usr/lib/sample/link' >> "$dir/sample/debian/rules" ;;
	postinst-only)
		# fuse3's way: the program is made setuid by postinst, so the
		# package's file is 0755; stamped in the install step, then
		# stripped by dh_strip.
		unprivileged "$dir"
		rm "$dir/sample/debian/sample.elfnote"
		printf 'override_dh_auto_install:\n\tdh_auto_install\n\telfnote set --suid-stack 32M debian/sample/usr/lib/sample/helper\noverride_dh_dwz:\n' >> "$dir/sample/debian/rules" ;;
	again*)
		# Stamped once stripped, then stripped again in dh_strip's place.
		rm "$dir/sample/debian/sample.elfnote"
		printf 'override_dh_auto_install:\n\tdh_auto_install\n\tstrip debian/sample/usr/lib/sample/helper\n\telfnote set --suid-stack 32M debian/sample/usr/lib/sample/helper\noverride_dh_dwz:\noverride_dh_strip:\n\t%s debian/sample/usr/lib/sample/helper\n' "${change#again }" >> "$dir/sample/debian/rules" ;;
	*)
		(cd "$dir/sample" && eval "$change") ;;
	esac
	build "$dir"; status=$?
	if [ "${want:0:2}" = "^^" ]; then
		grep -qE "${want:1}" "$dir/build.log"
	elif [ "${want:0:1}" = "~" ]; then
		grep -qE "^dh_elfnote: error: ${want:1}" "$dir/build.log"
	else
		grep -qF "dh_elfnote: error: $want" "$dir/build.log"
	fi
	found=$?
	[ "$status" != 0 ] && [ "$found" = 0 ] && ! ls "$dir"/*.deb >/dev/null 2>&1 &&
		! grep -q "Try 'elfnote set --help'" "$dir/build.log"
	tap_check $? "$name: the build fails, no .deb, and says '${want#\~}' (exit $status)"
	[ "$status" != 0 ] && grep -F 'dh_elfnote' "$dir/build.log" | grep -v '^   ' | head -3 | sed 's/^/#   /'
done

# 5. What builds, but with a warning the packager should read.
for w in "${warnings[@]}"; do
	IFS='|' read -r name change want <<< "$w"
	dir=$work/warn-$name
	copy "$dir"
	case "$change" in
	library)
		echo 'usr/lib/sample/libextra.so suid-stack=32M' >> "$dir/sample/debian/sample.elfnote"
		printf '\t%s\n' 'cc -shared -fPIC -o debian/sample/usr/lib/sample/libextra.so helper.c' >> "$dir/sample/debian/rules" ;;
	unprivileged)
		unprivileged "$dir" ;;
	two-warnings)
		echo 'usr/lib/sample/helper suid-stack=128M stack-guard-gap=4K' > "$dir/sample/debian/sample.elfnote"
		sed -i 's/chmod 4755/chmod 2755/' "$dir/sample/debian/rules" ;;
	*)
		(cd "$dir/sample" && eval "$change") ;;
	esac
	build "$dir"; status=$?
	missing=
	IFS='^' read -r -a lines <<< "$want"
	for line in "${lines[@]}"; do
		grep -qxF "$line" "$dir/build.log" || missing=${missing:-$line}
	done
	[ "$status" = 0 ] && [ -z "$missing" ]
	tap_check $? "$name: the build succeeds and warns '${want//^/' and '}' (exit $status${missing:+; missing: $missing})"
	if [ -n "$missing" ]; then
		grep -F 'elfnote' "$dir/build.log" | grep -v '^   ' | head -4 | sed 's/^/#   /'
	fi
done
