#!/bin/bash
# Host tests of the TAP library every host test uses (tests/lib/tap.sh,
# tap.h) and of how check.sh folds a stream into its report
# (tests/lib/report.sh): a test that stops early, prints no plan or fails
# a result must not pass, whichever of the three it goes through.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/tap.sh"
. "$top/tests/lib/report.sh"
TAP_PREFIX="tap: "
tap_plan 17
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

# A shell test with BODY after sourcing the library; prints its output,
# then "status N".
sh_test() {
	printf '. %q\n%s\n' "$top/tests/lib/tap.sh" "$1" > "$work/t.sh"
	bash "$work/t.sh" 2>&1
	echo "status $?"
}

out=$(sh_test 'tap_plan 2; tap_check 0 one; tap_check 0 two')
[ "$out" = $'1..2\nok 1 - one\nok 2 - two\nstatus 0' ]
tap_check $? "sh: a full plan of passes prints 1..2, ok 1, ok 2 and exits 0"

out=$(sh_test 'TAP_PREFIX="p: "; tap_plan 3; tap_check 0 one; tap_check 0 two')
[ "$out" = $'1..3\nok 1 - p: one\nok 2 - p: two\nnot ok - p: planned 3 results, printed 2\nstatus 1' ]
tap_check $? "sh: two results of three planned: 'planned 3 results, printed 2', exit 1"

out=$(sh_test 'tap_plan 2; tap_check 0 one; exit 0')
[ "${out##*$'\n'}" = "status 1" ]
tap_check $? "sh: exit 0 before the plan is done still exits 1"

out=$(sh_test 'tap_check 0 one')
[ "$out" = $'ok 1 - one\nnot ok - the test printed no plan\nstatus 1' ]
tap_check $? "sh: results without a plan: 'the test printed no plan', exit 1"

out=$(sh_test 'tap_plan 2; tap_check 1 one; tap_check 0 two')
[ "$out" = $'1..2\nnot ok 1 - one\nok 2 - two\nstatus 1' ]
tap_check $? "sh: a failed result is 'not ok 1' and the test exits 1"

out=$(sh_test 'tap_plan 1; tap_skip one "no frobnicator"')
[ "$out" = $'1..1\nok 1 - one # SKIP no frobnicator\nstatus 0' ]
tap_check $? "sh: a skip is 'ok 1 - one # SKIP reason' and counts toward the plan"

out=$(sh_test "tap_plan 1; touch '$work/c'; tap_on_exit 'rm $work/c'; tap_check 1 one")
[ ! -e "$work/c" ] && [ "${out##*$'\n'}" = "status 1" ]
tap_check $? "sh: tap_on_exit runs its cleanup on a failing exit"

out=$(sh_test 'tap_check 0 one; tap_plan 1')
[ "${out##*$'\n'}" = "status 2" ]
tap_check $? "sh: a plan after the first result is refused (exit 2)"

# tap.h, compiled as the C host tests are.
c_test() {
	printf '#define TAP_PREFIX "c: "\n#include "tap.h"\nint main(void)\n{\n%s\n}\n' "$1" > "$work/t.c"
	cc -std=gnu11 -Wall -Wextra -Werror -I"$top/tests/lib" -o "$work/t" "$work/t.c" || return
	"$work/t"
	echo "status $?"
}

out=$(c_test 'tap_plan(2); tap_check(1, "one %d", 1); tap_check(1, "two"); return tap_done();')
[ "$out" = $'1..2\nok 1 - c: one 1\nok 2 - c: two\nstatus 0' ]
tap_check $? "c: a full plan of passes prints 1..2, ok 1, ok 2 and exits 0"

out=$(c_test 'tap_plan(3); tap_check(1, "one"); return tap_done();')
[ "$out" = $'1..3\nok 1 - c: one\nnot ok - c: planned 3 results, printed 1\nstatus 1' ]
tap_check $? "c: one result of three planned: 'planned 3 results, printed 1', exit 1"

out=$(c_test 'tap_plan(1); tap_check(0, "one"); return tap_done();')
[ "$out" = $'1..1\nnot ok 1 - c: one\nstatus 1' ]
tap_check $? "c: a failed result is 'not ok 1' and tap_done() returns 1"

out=$(c_test 'tap_plan(1); tap_skip("no frobnicator", "one"); return tap_done();')
[ "$out" = $'1..1\nok 1 - c: one # SKIP no frobnicator\nstatus 0' ]
tap_check $? "c: a skip is 'ok 1 - c: one # SKIP reason'"

out=$(c_test 'tap_check(1, "one"); return tap_done();')
[ "$out" = $'ok 1 - c: one\nnot ok - c: the test printed no plan\nstatus 1' ]
tap_check $? "c: results without a plan: 'the test printed no plan', tap_done() returns 1"

# report.sh's run_host: the fold check.sh applies to every host test,
# also to one that dies before its own library can complain.
out=$(run_host t printf '1..2\nok 1 - a\nok 2 - b\n')
[ "$out" = $'# host t: plan 2\nok 1 - a\nok 2 - b' ]
tap_check $? "run_host: a complete stream passes through, its plan as a comment"

out=$(run_host t printf '1..2\nok 1 - a\n')
[ "$out" = $'# host t: plan 2\nok 1 - a\nnot ok - host t planned 2 results, printed 1' ]
tap_check $? "run_host: a stream that stops early gets 'planned 2 results, printed 1'"

out=$(run_host t printf 'ok 1 - a\n')
[ "$out" = $'ok 1 - a\nnot ok - host t printed no plan' ]
tap_check $? "run_host: a stream without a plan gets 'printed no plan'"

out=$(run_host t sh -c 'echo 1..1; echo ok 1 - a; exit 3')
[ "$out" = $'# host t: plan 1\nok 1 - a\nnot ok - host t exited with status 3' ]
tap_check $? "run_host: a test that exits 3 after a full plan gets 'exited with status 3'"
