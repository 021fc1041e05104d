#!/bin/bash
# demo.sh: boot the stock and the patched guest and print, for each, the
# table of scenarios (i386-guest/table.sh): name, expected outcome,
# observed outcome, verdict.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
export BUILD SERIES ARCH

"$top/i386-guest/run.sh" stock patched > "$BUILD/demo.tap"

for variant in stock patched; do
	echo
	echo "== linux $("$top/kernel/tree.sh" version)-$variant ($ARCH), Debian's linux-source-$SERIES$([ "$variant" = patched ] && echo " + kernel/patches/$SERIES") =="
	"$top/i386-guest/table.sh" "$variant" || exit
done
echo
passed=$(grep -c '^ok' "$BUILD/demo.tap")
failed=$(grep -c '^not ok' "$BUILD/demo.tap")
echo "demo: $passed checks passed, $failed failed (KUnit and log checks included; full TAP in $BUILD/demo.tap)"
