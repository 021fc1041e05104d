#!/bin/bash
# Host tests of i386-guest/parse-log.awk, which turns a guest's console log
# into the boot's TAP lines: the completeness check, and the log check
# that fails a boot on any oops, BUG, WARNING or sanitizer report except a
# warning i386-guest/known-warnings.txt lists for the series, which is
# shown and not counted, and only up to its "end trace" line.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
TAP_PREFIX="parse-log: "
tap_plan 9
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

# parse SERIES LOG: the TAP lines for a log of a guest that must report 1
# scenario.
parse() {
	awk -v tag="t" -v want=1 -v suites="" -v sanitized="" -v series="$1" \
		-v known="$top/i386-guest/known-warnings.txt" \
		-f "$top/i386-guest/parse-log.awk" "$2"
}
runner() {
	printf 'TAP version 13\nok 1 - i386/x\n# row\ti386/x\texit=0\texit=0\tPASS\t1\n1..1\n'
}
# The 6.1 warning as a 6.1.192 i386 guest printed it, registers and trace.
mremap_warning() {
	cat <<-'LOG'
	------------[ cut here ]------------
	WARNING: CPU: 0 PID: 123 at mm/mremap.c:269 0xc108062e
	CPU: 0 PID: 123 Comm: argflood Tainted: G                 N 6.1.192-stock #2
	EIP: 0xc108062e
	Call Trace:
	 ? 0xc109163c
	---[ end trace 0000000000000000 ]---
	LOG
}
has() { grep -qxF -- "$2" <<< "$1"; }

runner > "$work/clean.log"
out=$(parse 6.1 "$work/clean.log")
has "$out" "ok - [t] all 1 scenarios reported"
tap_check $? "a complete run is reported complete"
has "$out" "ok - [t] kernel log has no oops, BUG, WARNING or sanitizer report"
tap_check $? "a clean log passes the log check"

{ runner; printf 'WARNING: CPU: 0 PID: 9 at mm/mmap.c:100 0xc1000000\nCall Trace:\n'; } > "$work/other.log"
out=$(parse 6.1 "$work/other.log")
grep -q '^not ok - \[t\] kernel log has no oops' <<< "$out"
tap_check $? "an unlisted WARNING fails the log check"

{ mremap_warning; runner; } > "$work/known.log"
out=$(parse 6.1 "$work/known.log")
has "$out" "ok - [t] kernel log has no oops, BUG, WARNING or sanitizer report # 1 known upstream warning(s), shown above"
tap_check $? "the listed 6.1 warning, trace and all, does not fail the check"
grep -q '^# \[t\] known upstream warning, not counted: WARNING: CPU: 0 PID: 123 at mm/mremap.c:269 .*(move_normal_pmd' <<< "$out"
tap_check $? "it is shown, with why it is known"
has "$out" "ok - [t] all 1 scenarios reported"
tap_check $? "the runner's lines after it are still read"

out=$(parse 6.12 "$work/known.log")
grep -q '^not ok - \[t\] kernel log has no oops' <<< "$out"
tap_check $? "the same warning fails a 6.12 boot: entries are per series"

{ mremap_warning; echo "BUG: KASAN: use-after-free in foo"; runner; } > "$work/after.log"
out=$(parse 6.1 "$work/after.log")
grep -q '^not ok - \[t\] kernel log has no oops' <<< "$out"
tap_check $? "a report after the known warning's end trace still fails"

{ runner; sed '/end trace/d' <(mremap_warning); for _ in $(seq 90); do echo " ? 0xc1000000"; done
  echo "Kernel panic - not syncing: oops"; } > "$work/unended.log"
out=$(parse 6.1 "$work/unended.log")
grep -q '^not ok - \[t\] kernel log has no oops' <<< "$out"
tap_check $? "a known warning without its end excuses at most 80 lines"
