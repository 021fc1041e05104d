#!/bin/bash
# kernel/build-kernels.sh [--list]: every guest kernel make check boots,
# built one after the other; with --list, only named, one a line, as
# i386-guest/run.sh takes them (SERIES/ARCH/VARIANT).  The one place
# that reads the Makefile's two lists:
#
#   CHECK_COMBOS  SERIES/ARCH (its stock and patched kernels) or
#                 SERIES/ARCH/VARIANT (that one)
#   CHECK_DEBUG   SERIES: its patched x86_64 kernel built with KASAN and
#                 UBSAN, SERIES/x86_64/patched-debug (kernel/build.sh
#                 patched x86_64 debug)
#
# The Makefile runs the build beside the host-side build (check-run).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

kernels() {
	local combo series arch variant
	for combo in ${CHECK_COMBOS:-}; do
		IFS=/ read -r series arch variant <<< "$combo"
		for variant in ${variant:-stock patched}; do
			echo "$series/$arch/$variant"
		done
	done
	for series in ${CHECK_DEBUG:-}; do
		echo "$series/x86_64/patched-debug"
	done
}

if [ "${1:-}" = --list ]; then
	kernels
	exit
fi
for kernel in $(kernels); do
	IFS=/ read -r series arch variant <<< "$kernel"
	# A variant named VARIANT-PROFILE is VARIANT built with PROFILE.config.
	profile=
	[ "$variant" = "${variant%%-*}" ] || profile=${variant#*-}
	SERIES=$series "$top/kernel/build.sh" "${variant%%-*}" "$arch" ${profile:+"$profile"}
done
