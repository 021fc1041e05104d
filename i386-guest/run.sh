#!/bin/bash
# run.sh KERNEL...: boot each guest kernel once per boot of the scenario
# files and turn each console log into TAP lines for the host (names are
# ABI/SCENARIO: an x86_64 guest runs every scenario as x86_64 and as ia32):
#
#   ok - [6.1 i386 stock/default] i386/argcap/8M/last-fit
#   ok - [6.1 i386 stock/default] kunit binfmt_elf.total_mapping_size_test
#   ok - [6.1 i386 stock/default] all 59 scenarios reported
#   ok - [6.1 i386 stock/default] kernel log has no oops, BUG, WARNING or sanitizer report
#   ok - [6.1 i386 stock/default] kunit suite binfmt_elf ran
#
# A KERNEL is SERIES/ARCH/VARIANT (6.1/x86_64/patched-debug) or a VARIANT
# alone (stock, patched, or a profile build such as patched-debug:
# kernel/build.sh patched ARCH debug) of $SERIES and $ARCH.
#
# GUEST_ONLY=GLOB,... runs only the scenarios whose names match (a kernel
# built from a prefix of the series: kernel/check-series.sh), in the boots
# that have any, without KUnit.
#
# The boots run $GUEST_JOBS at a time (default: one per CPU; a guest under
# software emulation keeps one CPU busy), the longest first by the last
# run's times; their TAP lines come out in the order of the arguments and
# boots whatever order they finish in.
#
# Each boot's results are written once, to
# $BUILD/results/linux-SERIES-ARCH-VARIANT/BOOT.tsv (the scenario rows:
# name, expected, observed, verdict, milliseconds in the guest), BOOT.tap
# (these TAP lines) and BOOT.secs (the boot's wall time), which
# i386-guest/table.sh reads.  Expects the kernels, the initramfs and
# build/host/scenario-lint to be built (the Makefile does that).  Logs
# stay in $BUILD/logs.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
GUEST_JOBS=${GUEST_JOBS:-$(nproc)}
DEBIAN_MEM=${DEBIAN_MEM:-1G}
# QEMU options of a boot with guest.debian (run_boot says why; empty:
# none).
DEBIAN_ACCEL=${DEBIAN_ACCEL--accel tcg,thread=single}
. "$top/i386-guest/boots.sh"

# Console log -> TAP lines, prefixed with [variant/boot]
# (i386-guest/parse-log.awk).
parse_log() {
	local log=$1 tag=$2 want=$3 suites=$4 sanitized=$5 series=$6
	awk -v tag="$tag" -v want="$want" -v suites="$suites" -v sanitized="$sanitized" \
		-v series="$series" -v known="$top/i386-guest/known-warnings.txt" \
		-f "$top/i386-guest/parse-log.awk" "$log"
}

# The KUnit suites a variant's config promises ("# kunit-suite: NAME").
kunit_suites() {
	local config=$top/kernel/config series=$1 arch=$2 kind=$3
	cat "$config/guest.config" "$config/$arch.config" \
		$([ -f "$config/series-$series.config" ] && echo "$config/series-$series.config") \
		$([ -f "$config/guest-$kind.config" ] && echo "$config/guest-$kind.config") \
		$([ -f "$config/series-$series-$kind.config" ] && echo "$config/series-$series-$kind.config") |
		sed -n 's/^# kunit-suite: //p' | sort -u | tr '\n' ' '
}

# run_boot SERIES ARCH VARIANT BOOT PARAMS: one boot, its TAP lines on
# stdout and its results files written.
run_boot() {
	local series=$1 arch=$2 variant=$3 boot=$4 params=$5
	local kernel
	kernel=$BUILD/out/linux-$series-$arch-$variant/$("$top/i386-guest/abis.sh" image abi="$arch")
	local initramfs=${INITRAMFS:-$BUILD/guest-$series-$arch.cpio} mem=512M accel=
	# A boot with guest.debian also unpacks Debian's 32-bit root
	# (i386-guest/debian/): its own archive, and room for the JVM.  Its
	# two CPUs are emulated by one host thread: the JVM patches code
	# another CPU may be running, and QEMU's multi-threaded emulation
	# can keep running the code from before the patch (docs/guest.md,
	# "Code patched by another CPU").
	case " $params " in
	*" guest.debian "*) initramfs=${INITRAMFS_DEBIAN:-$BUILD/guest-$series-$arch-debian.cpio} mem=$DEBIAN_MEM
		accel=$DEBIAN_ACCEL ;;
	esac
	# A profile build (patched-debug) is its variant's kernel to the guest
	# (uname -r ends in -patched) and to the scenarios.
	local kind=${variant%%-*}
	local tag="$series $arch $variant/$boot"
	local log=$BUILD/logs/linux-$series-$arch-$variant-$boot.log
	local results=$BUILD/results/linux-$series-$arch-$variant
	local want suites="" kunit="" start status secs
	want=$(boot_scenarios "$series" "$arch" "$kind" "$boot")
	# KUnit runs in the default boot only: once per kernel is enough.
	# GUEST_ONLY: a prefix of the series, whose KUnit suites are not the
	# ones the config promises; the scenarios named there alone.
	if [ -n "${GUEST_ONLY:-}" ]; then
		kunit=kunit.enable=0
		params="$params guest.only=$GUEST_ONLY"
	elif [ "$boot" = default ]; then
		suites=$(kunit_suites "$series" "$arch" "$kind")
	else
		kunit=kunit.enable=0
	fi
	rm -f "$log"
	mkdir -p "$results"
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	GUEST_MEM=$mem ARCH=$arch QEMU_EXTRA="${QEMU_EXTRA:-}${accel:+ $accel}" "$top/i386-guest/boot.sh" "$kernel" "$initramfs" "$log" guest.boot="$boot" $kunit $params
	status=$?
	secs=$(echo "$(date +%s.%N) - $start" | bc)
	printf '%.1f\n' "$secs" > "$results/$boot.secs"
	{
		printf '# [%s] booted %s %s in %.1f s, log %s\n' "$tag" "$(basename "$kernel")" "$params" "$secs" "$log"
		if [ "$status" = 124 ]; then
			echo "not ok - [$tag] guest finished within ${GUEST_TIMEOUT:-600} s # timed out, see $log"
		elif [ "$status" != 0 ]; then
			echo "not ok - [$tag] QEMU ran # exit status $status, see $log"
		fi
		touch "$log"
		parse_log "$log" "$tag" "$want" "$suites" "$(case "$variant" in *-debug) echo 1 ;; esac)" "$series"
	} | tee "$results/$boot.tap"
	{
		printf '# %s: %s %s\n' "$tag" "$(basename "$kernel")" "$params"
		tr -d '\r' < "$log" | awk -F'\t' -v OFS='\t' '$1 == "# row" { print $2, $3, $4, $5, $6 }'
	} > "$results/$boot.tsv"
}

# The jobs, one line each: index, last run's seconds, series, arch,
# variant, boot, params (tab-separated).  Unknown times sort first: a
# new boot may be long.
jobs=()
for kernel in "$@"; do
	case "$kernel" in
	*/*/*) series=${kernel%%/*} rest=${kernel#*/} arch=${rest%%/*} variant=${rest#*/} ;;
	*) series=$SERIES arch=$ARCH variant=$kernel ;;
	esac
	# A boot none of whose scenarios runs on this kernel (its kind, its
	# ABIs, GUEST_ONLY) is not booted (boots.sh).
	boots=$(kernel_boots "$series" "$arch" "$variant") || exit 1
	while IFS=$'\t' read -r boot params; do
		[ -n "$boot" ] || continue
		secs=$(cat "$BUILD/results/linux-$series-$arch-$variant/$boot.secs" 2>/dev/null || echo 99999)
		jobs+=("${#jobs[@]}"$'\t'"$secs"$'\t'"$series"$'\t'"$arch"$'\t'"$variant"$'\t'"$boot"$'\t'"$params")
	done <<< "$boots"
done

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Prints the finished jobs' TAP in job order, as far as they are done.
next=0
flush() {
	while [ "$next" -lt "${#jobs[@]}" ] && [ -f "$out/$next.done" ]; do
		cat "$out/$next"
		next=$((next + 1))
	done
}

mapfile -t order < <(printf '%s\n' "${jobs[@]}" | sort -t$'\t' -k2,2nr -k1,1n)
running=0
for job in "${order[@]}"; do
	IFS=$'\t' read -r i _ series arch variant boot params <<< "$job"
	while [ "$running" -ge "$GUEST_JOBS" ]; do
		wait -n
		running=$((running - 1))
		flush
	done
	{ run_boot "$series" "$arch" "$variant" "$boot" "$params" > "$out/$i"; touch "$out/$i.done"; } &
	running=$((running + 1))
done
wait
flush
