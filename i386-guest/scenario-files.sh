#!/bin/bash
# Prints every scenario file, one per line, in the order the guest reads
# them (by file name): the hand-written ones in tests/scenarios and the
# generated ones in $BUILD/generated/scenarios (tests/malformed).
top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
shopt -s nullglob
for f in "$top"/tests/scenarios/*.scn "$BUILD"/generated/scenarios/*.scn; do
	printf '%s\t%s\n' "${f##*/}" "$f"
done | sort | cut -f2
