#!/bin/bash
# elf-note-tool/upstream/check-tools.sh: inside the bookworm system
# build-debian.sh makes, after debian-build.sh built elfutils and
# binutils: install the built packages and check them on Debian's own
# setuid, setgid and capability programs (amd64 from this system, i386
# from the guest's Debian root), stamped by elfnote after linking, on a
# program stamped at link time, and on stamped programs whose note was
# then broken.  Also: both test suites passed, the bookworm tools
# failed where the patched ones pass, and the patches define the note
# as elf-note-tool/include/exec-policy-note.h does.  TAP on stdout.
set -uo pipefail

here=/upstream
results=/build/results
TAP_PREFIX="upstream: "
. "$here/tap.sh"

work=/tmp/check
rm -rf "$work" && mkdir -p "$work"
elfnote=$here/bin/elfnote
stock=/opt/stock/elfutils

# The tools and the libraries they run with (-B builds no Architecture:
# all package, so libdebuginfod1, which needs one, stays bookworm's).
debs=()
for name in elfutils libelf1 libdw1 libasm1 binutils binutils-common \
	binutils-x86-64-linux-gnu libbinutils libctf0 libctf-nobfd0 libgprofng0; do
	debs+=("$(find "$results/debs" -name "${name}_*.deb")")
done
apt-get install -y -q "${debs[@]}" > "$work/install.log" 2>&1 ||
	{ cat "$work/install.log" >&2; exit 1; }

amd64_programs=(su passwd chfn chsh gpasswd newgrp mount umount ping)
i386_programs=()
for p in "$here"/data/i386/*; do i386_programs+=("$(basename "$p")"); done

tap_plan $((4 * (${#amd64_programs[@]} + ${#i386_programs[@]}) + 2 + 2 * 6 + 3 + 2 + 5))
tap_diag "$(dpkg-query -W elfutils libelf1 libdw1 binutils libbinutils)"

# Exactly what each tool prints for the note elfnote adds with
# --suid-stack 32M --stack-guard-gap 2M.
eu_readelf_note='  Linux                 32  LINUX_EXEC_POLICY
    SUID_STACK: 33554432
    STACK_GUARD_GAP: 2097152'
readelf_note='  Linux                0x00000020	NT_LINUX_EXEC_POLICY (exec policy)
    Stack limit when setuid: 0x2000000 (33554432 bytes)
    Stack guard gap: 0x200000 (2097152 bytes)'

# has_block FILE TEXT: TEXT's lines appear in FILE in a row.
has_block() {
	python3 - "$1" "$2" <<-'PY'
	import sys
	text = open(sys.argv[1]).read()
	sys.exit(0 if sys.argv[2] + "\n" in text else 1)
	PY
}

# elflint_like_before NAME ORIG STAMPED: eu-elflint says of the stamped
# program exactly what it says of the original, and that is "No errors".
elflint_like_before() {
	local name=$1 orig=$2 stamped=$3 s1=0 s2=0
	eu-elflint --gnu-ld "$orig" > "$work/$name.lint0" 2>&1 || s1=$?
	eu-elflint --gnu-ld "$stamped" > "$work/$name.lint1" 2>&1 || s2=$?
	sed -i "s|$stamped|FILE|g" "$work/$name.lint1"
	sed -i "s|$orig|FILE|g" "$work/$name.lint0"
	cmp -s "$work/$name.lint0" "$work/$name.lint1" && [ "$s1" = 0 ] && [ "$s2" = 0 ] &&
		[ "$(cat "$work/$name.lint1")" = "No errors" ]
}

check_program() {
	local arch=$1 orig=$2 name
	name=$arch-$(basename "$orig")
	local f=$work/$name
	cp "$orig" "$f"
	"$elfnote" set --suid-stack 32M --stack-guard-gap 2M "$f" > "$work/$name.set" 2>&1
	tap_check $? "$name: elfnote set --suid-stack 32M --stack-guard-gap 2M"
	eu-readelf -n "$f" > "$work/$name.eu" 2>&1 && has_block "$work/$name.eu" "$eu_readelf_note"
	tap_check $? "$name: eu-readelf -n decodes SUID_STACK 33554432 and STACK_GUARD_GAP 2097152"
	readelf -n "$f" > "$work/$name.re" 2>&1 && has_block "$work/$name.re" "$readelf_note"
	tap_check $? "$name: readelf -n decodes NT_LINUX_EXEC_POLICY, 0x2000000 and 0x200000 bytes"
	elflint_like_before "$name" "$orig" "$f"
	tap_check $? "$name: eu-elflint --gnu-ld: No errors, as before stamping"
}

for p in "${amd64_programs[@]}"; do check_program amd64 "/usr/bin/$p"; done
for p in "${i386_programs[@]}"; do check_program i386 "$here/data/i386/$p"; done

# Before the patch: what bookworm's elfutils says of the same program.
status=0
LD_LIBRARY_PATH=$stock/usr/lib/x86_64-linux-gnu "$stock/usr/bin/eu-elflint" --gnu-ld "$work/amd64-su" \
	> "$work/stock.lint" 2>&1 || status=$?
[ "$status" = 1 ] && grep -Eq "^phdr\[[0-9]+\]: unknown object file note type 1163412803 with owner name 'Linux' at offset [0-9]+$" "$work/stock.lint"
tap_check $? "bookworm's eu-elflint (0.188-2.1) fails on stamped su: unknown object file note type 1163412803"
LD_LIBRARY_PATH=$stock/usr/lib/x86_64-linux-gnu "$stock/usr/bin/eu-readelf" -n "$work/amd64-su" \
	> "$work/stock.eu" 2>&1 && grep -qx '  Linux                 32  <unknown>: 1163412803' "$work/stock.eu" &&
	! grep -q SUID_STACK "$work/stock.eu"
tap_check $? "bookworm's eu-readelf -n shows the note as <unknown>: 1163412803"

# A stamped program whose note is then broken: the first property's value
# (28 bytes into the note: header 12, name 8, property header 8) becomes
# 4097.  Every tool must call it malformed, giving the reason.
note_offset() {
	readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] \.note\.linux\.exec-policy  *NOTE  *[0-9a-f]*  *\([0-9a-f]*\) .*/\1/p'
}
check_broken() {
	local name=$1 src=$2
	local f=$work/$name-broken off status
	cp "$src" "$f"
	off=$((16#$(note_offset "$f")))
	printf '\001\020\000\000\000\000\000\000' | dd of="$f" bs=1 seek=$((off + 28)) conv=notrunc status=none
	status=0
	"$elfnote" check "$f" > "$work/$name.check" 2>&1 || status=$?
	[ "$status" = 2 ]
	tap_check $? "$name, value 4097: elfnote check exits 2 (malformed)"
	status=0
	eu-elflint --gnu-ld "$f" > "$work/$name.blint" 2>&1 || status=$?
	[ "$status" = 1 ] &&
		grep -Eqx "phdr\[[0-9]+\]: malformed Linux exec policy note at offset $off: property 1 value 4097 is not a multiple of 4096" "$work/$name.blint" &&
		grep -Eqx "section \[ *[0-9]+\] '.note.linux.exec-policy': malformed Linux exec policy note at offset 0: property 1 value 4097 is not a multiple of 4096" "$work/$name.blint"
	tap_check $? "$name, value 4097: eu-elflint exits 1 naming the segment, the section, offset $off and the reason"
	eu-readelf -n "$f" > "$work/$name.beu" 2>&1 &&
		grep -qx '    <corrupt: property 1 value 4097 is not a multiple of 4096>' "$work/$name.beu"
	tap_check $? "$name, value 4097: eu-readelf -n shows <corrupt: property 1 value 4097 ...>"
	readelf -n "$f" > "$work/$name.bre" 2>&1 &&
		grep -qx '    <corrupt: property 0x1 value 0x1001 is not a multiple of 0x1000>' "$work/$name.bre"
	tap_check $? "$name, value 4097: readelf -n shows <corrupt: property 0x1 value 0x1001 ...>"
	# The second property, and the descriptor size: 30 is not a multiple of 4.
	cp "$src" "$f"
	printf '\036\000\000\000' | dd of="$f" bs=1 seek=$((off + 4)) conv=notrunc status=none
	status=0
	eu-elflint --gnu-ld "$f" > "$work/$name.dlint" 2>&1 || status=$?
	[ "$status" = 1 ] && grep -Eqx "phdr\[[0-9]+\]: malformed Linux exec policy note at offset $off: descriptor size 30 is not a multiple of 4" "$work/$name.dlint"
	tap_check $? "$name, descriptor size 30: eu-elflint exits 1 with the reason"
	readelf -n "$f" > "$work/$name.dre" 2>&1 &&
		grep -qx '    <corrupt: descriptor size 0x1e is not a multiple of 4>' "$work/$name.dre"
	tap_check $? "$name, descriptor size 30: readelf -n shows <corrupt: descriptor size 0x1e ...>"
}
check_broken amd64-su "$work/amd64-su"
check_broken i386-passwd "$work/i386-passwd"

# Stamped at link time, with the project's header.
cat > "$work/linked.c" <<-'C'
	#include <exec-policy-note.h>
	EXEC_POLICY(33554432, 2097152);
	int main(void) { return 0; }
C
gcc -O2 -I"$here/include" -o "$work/linked" "$work/linked.c" &&
	eu-readelf -n "$work/linked" > "$work/linked.eu" 2>&1 && has_block "$work/linked.eu" "$eu_readelf_note"
tap_check $? "linked with EXEC_POLICY(33554432, 2097152): eu-readelf -n decodes it"
readelf -n "$work/linked" > "$work/linked.re" 2>&1 && has_block "$work/linked.re" "$readelf_note"
tap_check $? "linked with EXEC_POLICY(33554432, 2097152): readelf -n decodes it"
[ "$(eu-elflint --gnu-ld "$work/linked" 2>&1)" = "No errors" ]
tap_check $? "linked with EXEC_POLICY(33554432, 2097152): eu-elflint --gnu-ld: No errors"

# One definition of the note for programs, and each patch agrees with it.
elfutils_src=$(find /build/elfutils -mindepth 1 -maxdepth 1 -type d -name 'elfutils-*')
binutils_src=$(find /build/binutils -mindepth 1 -maxdepth 1 -type d -name 'binutils-*')
# dpkg-buildpackage unapplied Debian's patches when it was done.
for src in "$elfutils_src" "$binutils_src"; do
	(cd "$src" && dpkg-source --before-build . > /dev/null)
done
gcc -fsyntax-only -I"$here/include" -I"$elfutils_src/libelf" -include elf.h "$here/agree.c"
tap_check $? "elfutils' elf.h defines the note as exec-policy-note.h does"
gcc -fsyntax-only -I"$here/include" -I"$binutils_src/include" -include elf/common.h "$here/agree.c"
tap_check $? "binutils' include/elf/common.h defines the note as exec-policy-note.h does"

# The packages' own test suites, as the builds ran them.  elfutils':
# compared test by test with the same build of Debian's package without
# the patch, in this same system (a few tests may fail in any build
# here, e.g. where the sandbox refuses ptrace; they must fail in both).
res=$results/elfutils-results.txt
stock_res=$results/elfutils-stock-results.txt
regressed=$(awk 'NR == FNR { if ($2 == "PASS") pass[$1] = 1; next } ($1 in pass) && $2 != "PASS"' "$stock_res" "$res")
new_tests=$(awk 'NR == FNR { seen[$1] = 1; next } !($1 in seen) { print $1 }' "$stock_res" "$res" | tr '\n' ' ')
[ -s "$res" ] && [ -z "$regressed" ] && [ "$new_tests" = "run-linux-exec-policy.sh " ]
tap_check $? "elfutils' test suite: every test that passes without the patch passes with it ($(awk '{ n[$2]++ } END { for (r in n) printf "%s %d ", r, n[r] }' "$res"))"
tap_diag "not passing with the patch: $(awk '$2 != "PASS"' "$res" | tr '\n' ' ')"
tap_diag "not passing without it: $(awk '$2 != "PASS"' "$stock_res" | tr '\n' ' ')"
grep -qx 'run-linux-exec-policy.sh PASS' "$res"
tap_check $? "elfutils' test suite: run-linux-exec-policy.sh passed"
sum=$results/binutils-test-summary
grep -qx 'PASS: readelf -n Linux exec policy notes' "$sum"
tap_check $? "binutils' test suite: readelf -n Linux exec policy notes passed"
zcat /opt/stock/binutils/test-summary-*.gz > "$work/stock-summary"
python3 "$binutils_src/debian/test-suite-compare.py" "$work/stock-summary" "$sum" > "$work/compare.txt" 2>&1
tap_check $? "binutils' test suite: no regression from bookworm's binutils (Debian's test-suite-compare.py)"
tap_diag "$(cat "$work/compare.txt")"
! grep -E '^(FAIL|XPASS|UNRESOLVED|ERROR):' "$sum" | grep -q .
tap_check $? "binutils' test suite: no FAIL, XPASS, UNRESOLVED or ERROR line"
