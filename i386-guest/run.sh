#!/bin/bash
# run.sh VARIANT...: boot each guest kernel (stock, patched, or a profile
# build such as patched-debug: kernel/build.sh patched ARCH debug) of $SERIES and
# $ARCH once per boot of the scenario files, and turn each console log into
# TAP lines for the host (names are ABI/SCENARIO: an x86_64 guest runs
# every scenario as x86_64 and as ia32):
#
#   ok - [6.1 i386 stock/default] i386/argcap/8M/last-fit
#   ok - [6.1 i386 stock/default] kunit binfmt_elf.total_mapping_size_test
#   ok - [6.1 i386 stock/default] all 59 scenarios reported
#   ok - [6.1 i386 stock/default] kernel log has no oops, BUG, WARNING or sanitizer report
#   ok - [6.1 i386 stock/default] kunit suite binfmt_elf ran
#
# Each boot's results are written once, to
# $BUILD/results/linux-$SERIES-$ARCH-VARIANT/BOOT.tsv (the scenario rows:
# name, expected, observed, verdict, milliseconds in the guest) and
# BOOT.tap (these TAP lines), which i386-guest/table.sh reads.  Expects the kernels, the initramfs and
# build/host/scenario-lint to be built (the Makefile does that).  Logs
# stay in $BUILD/logs.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
INITRAMFS=${INITRAMFS:-$BUILD/guest-$ARCH.cpio}
export ARCH
LINT=$BUILD/host/scenario-lint
mapfile -t scenarios < <("$top/i386-guest/scenario-files.sh")

boots=$("$LINT" --boots "${scenarios[@]}") || exit 1
# The ABIs the guest runs every scenario under (x86_64: x86_64 and ia32).
abis=$("$LINT" --abis "$ARCH")

# Console log -> TAP lines, prefixed with [variant/boot].
parse_log() {
	local log=$1 tag=$2 want=$3 suites=$4 sanitized=$5
	awk -v tag="$tag" -v want="$want" -v suites="$suites" -v sanitized="$sanitized" '
	function emit(ok, name, extra) {
		printf "%s - [%s] %s%s\n", ok ? "ok" : "not ok", tag, name, extra
	}
	{ sub(/\r$/, "") }
	/^TAP version 13/ { runner = 1; started = 1; next }
	!runner && /^    # Subtest: / { suite = $3; next }
	!runner && /^    (not )?ok [0-9]+ / {
		ok = $1 == "ok"
		name = $0
		sub(/^    (not )?ok [0-9]+ (- )?/, "", name)
		skip = name ~ /# SKIP/
		sub(/ *#.*/, "", name)
		seen[suite]++
		if (skip) { printf "ok - [%s] kunit %s.%s # SKIP\n", tag, suite, name; next }
		emit(ok, "kunit " suite "." name, "")
		next
	}
	!runner && /^        (not )?ok [0-9]+ / {
		ok = $1 == "ok"
		name = $0
		sub(/^        (not )?ok [0-9]+ (- )?/, "", name)
		emit(ok, "kunit " suite " param: " name, "")
		next
	}
	!runner && /^        # .*(Expected|expected|ASSERTION|EXPECTATION)/ { print "#   " $0; next }
	runner && /^(not )?ok [0-9]+ - / {
		ok = $1 == "ok"
		name = $0
		sub(/^(not )?ok [0-9]+ - /, "", name)
		emit(ok, name, "")
		ran++
		next
	}
	runner && /^#   (expected|observed|output):/ { print; next }
	runner && /^# guest: kernel / { print "# [" tag "] " substr($0, 10); next }
	runner && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
	/KernelAddressSanitizer initialized/ { kasan = 1 }
	/Oops|BUG:|WARNING:|Kernel panic|general protection fault|Call Trace:|UBSAN:|KASAN:/ {
		bad++
		if (bad <= 5) badlines = badlines "\n#   " $0
	}
	END {
		complete = started && plan == want && ran == want
		emit(complete, "all " want " scenarios reported",
		     complete ? "" : sprintf(" # %s, plan %d, ran %d (guest died or hung?)",
			     started ? "runner started" : "runner never started", plan, ran))
		emit(!bad, "kernel log has no oops, BUG, WARNING or sanitizer report", bad ? badlines : "")
		# A debug kernel whose KASAN is off would pass that check vacuously.
		if (sanitized)
			emit(kasan, "KASAN is active (kernel log)", "")
		n = split(suites, want_suites, " ")
		for (i = 1; i <= n; i++)
			emit(seen[want_suites[i]] > 0, "kunit suite " want_suites[i] " ran", "")
	}' "$log"
}

# The KUnit suites a variant's config promises ("# kunit-suite: NAME").
kunit_suites() {
	local config=$top/kernel/config
	cat "$config/guest.config" "$config/$ARCH.config" \
		$([ -f "$config/series-$SERIES.config" ] && echo "$config/series-$SERIES.config") \
		$([ -f "$config/guest-$1.config" ] && echo "$config/guest-$1.config") |
		sed -n 's/^# kunit-suite: //p' | sort -u | tr '\n' ' '
}

for variant in "$@"; do
	kernel=$BUILD/out/linux-$SERIES-$ARCH-$variant/arch/x86/boot/bzImage
	# A profile build (patched-debug) is its variant's kernel to the guest
	# (uname -r ends in -patched) and to the scenarios.
	kind=${variant%%-*}
	suites=$(kunit_suites "$kind")
	while IFS=$'\t' read -r boot params; do
		tag="$SERIES $ARCH $variant/$boot"
		want=0
		for abi in $abis; do
			n=$("$LINT" --abi "$abi" --count "$boot" "${scenarios[@]}" |
				awk -v v="$kind" '$1 == v { print $2 }')
			want=$((want + n))
		done
		log=$BUILD/logs/linux-$SERIES-$ARCH-$variant-$boot.log
		rm -f "$log"
		start=$(date +%s.%N)
		# KUnit runs in the default boot only: once per kernel is enough.
		kunit=""
		[ "$boot" = default ] || kunit=kunit.enable=0
		"$top/i386-guest/boot.sh" "$kernel" "$INITRAMFS" "$log" guest.boot="$boot" $kunit $params
		status=$?
		secs=$(echo "$(date +%s.%N) - $start" | bc)
		printf '# [%s] booted %s %s in %.1f s, log %s\n' "$tag" "$(basename "$kernel")" "$params" "$secs" "$log"
		if [ "$status" = 124 ]; then
			echo "not ok - [$tag] guest finished within ${GUEST_TIMEOUT:-600} s # timed out, see $log"
		elif [ "$status" != 0 ]; then
			echo "not ok - [$tag] QEMU ran # exit status $status, see $log"
		fi
		touch "$log"
		results=$BUILD/results/linux-$SERIES-$ARCH-$variant
		mkdir -p "$results"
		{
			printf '# %s: %s %s\n' "$tag" "$(basename "$kernel")" "$params"
			tr -d '\r' < "$log" | awk -F'\t' -v OFS='\t' '$1 == "# row" { print $2, $3, $4, $5, $6 }'
		} > "$results/$boot.tsv"
		parse_log "$log" "$tag" "$want" "$([ "$boot" = default ] && echo "$suites")" \
			"$(case "$variant" in *-debug) echo 1 ;; esac)" | tee "$results/$boot.tap"
	done <<< "$boots"
done
