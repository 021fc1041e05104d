#!/bin/bash
# scenario-lint on rows with series=: a name may repeat only across two
# series, and --count counts a series' rows only when --series names it,
# as i386-guest/run.sh asks (a count short of the guest's would fail a
# boot that ran fine, one over it a boot that did not); --only counts the
# rows whose names match its globs, as guest.only= runs them.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
LINT=${LINT:-$BUILD/host/scenario-lint}
. "$top/tests/lib/tap.sh"
TAP_PREFIX="lint: "
tap_plan 8
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

printf 'name=a run=/x series=6.1\nname=a run=/x series=6.12 abi=x86_64\nname=b run=/x\n' > "$work/two.scn"
printf 'name=a run=/x series=6.1\nname=a run=/x\n' > "$work/any.scn"
printf 'name=a run=/x series=6.1\nname=a run=/x series=6.1 kernel=stock\n' > "$work/same.scn"

"$LINT" "$work/two.scn" > /dev/null
tap_check $? "one name for two series"
! "$LINT" "$work/any.scn" > "$work/out" && grep -q "any.scn:2: scenario name a used twice" "$work/out"
tap_check $? "a name of one series and of every series is used twice"
! "$LINT" "$work/same.scn" > "$work/out" && grep -q "same.scn:2: scenario name a used twice" "$work/out"
tap_check $? "a name used twice in one series"
[ "$("$LINT" --abi x86_64 --series 6.12 --count default "$work/two.scn" | tr '\n' ' ')" = "stock 2 patched 2 " ]
tap_check $? "--series counts that series' rows and the rows of every series"
[ "$("$LINT" --abi i386 --count default "$work/two.scn" | tr '\n' ' ')" = "stock 1 patched 1 " ]
tap_check $? "without --series only the rows of every series count"
printf 'name=lsm/a run=/x\nname=lsm/b/c run=/x kernel=patched\nname=gap/a run=/x\nname=gap/ab run=/x\n' > "$work/only.scn"
[ "$("$LINT" --only 'lsm/*' --count default "$work/only.scn" | tr '\n' ' ')" = "stock 1 patched 2 " ]
tap_check $? "--only 'lsm/*': a glob's * takes slashes too (fnmatch without FNM_PATHNAME)"
[ "$("$LINT" --only 'gap/a,lsm/a' --count default "$work/only.scn" | tr '\n' ' ')" = "stock 2 patched 2 " ]
tap_check $? "--only with two names: each matched exactly, gap/ab not"
[ "$("$LINT" --only 'none/*' --count default "$work/only.scn" | tr '\n' ' ')" = "stock 0 patched 0 " ]
tap_check $? "--only matching nothing counts nothing"
