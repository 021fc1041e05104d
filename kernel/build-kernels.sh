#!/bin/bash
# kernel/build-kernels.sh: every guest kernel make check boots, one after
# the other: for each CHECK_COMBOS entry (SERIES/ARCH, stock and patched,
# or SERIES/ARCH/VARIANT) its kernels, and for each CHECK_DEBUG tree the
# patched x86_64 kernel with KASAN and UBSAN (kernel/build.sh ... debug).
# The Makefile runs it beside the host-side build (check-run).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

for combo in ${CHECK_COMBOS:-}; do
	IFS=/ read -r series arch variant <<< "$combo"
	for variant in ${variant:-stock patched}; do
		SERIES=$series "$top/kernel/build.sh" "$variant" "$arch"
	done
done
for series in ${CHECK_DEBUG:-}; do
	SERIES=$series "$top/kernel/build.sh" patched x86_64 debug
done
