#!/bin/bash
# demo.sh: boot the stock and the patched guest of $SERIES and $ARCH and
# print, for each, the table of scenarios (i386-guest/table.sh): name,
# expected outcome, observed outcome, verdict; then one closing line.
#
# demo.sh --results SERIES/ARCH/VARIANT...: the same tables and closing
# line for those kernels from the results of their last run, booting
# nothing: make check shows its own kernels' demo this way
# (tests/check.sh), so a table that cannot be printed fails there.
#
# Exits 1 when a table cannot be printed (a boot the kernel runs has no
# results), not when a scenario failed: the tables show that.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
export BUILD

if [ "${1:-}" = --results ]; then
	shift
	kernels=("$@")
else
	kernels=("$SERIES/$ARCH/stock" "$SERIES/$ARCH/patched")
	"$top/i386-guest/run.sh" "${kernels[@]}" > "$BUILD/demo.tap"
fi

. "$top/i386-guest/boots.sh"
taps=()
for kernel in "${kernels[@]}"; do
	IFS=/ read -r series arch variant <<< "$kernel"
	patches=
	[ "${variant%%-*}" = patched ] && patches=" + kernel/patches/$series"
	echo
	echo "== linux $(SERIES=$series "$top/kernel/tree.sh" version)-$variant ($arch)," \
		"Debian's linux-source-$series$patches =="
	SERIES=$series ARCH=$arch "$top/i386-guest/table.sh" "$variant" || exit 1
	for boot in $(kernel_boots "$series" "$arch" "$variant" | cut -f1); do
		taps+=("$BUILD/results/linux-$series-$arch-$variant/$boot.tap")
	done
done
echo
passed=$(cat "${taps[@]}" | grep -c '^ok')
failed=$(cat "${taps[@]}" | grep -c '^not ok')
echo "demo: $passed checks passed, $failed failed (KUnit and log checks included;" \
	"each boot's TAP in $BUILD/results)"
