#!/bin/bash
# bench.sh: how much the series costs exec.  Boots the stock and the patched
# guest ROUNDS times each, alternating which goes first, with
# guest.boot=bench (tests/bench/bench.scn): every boot warms up, then times
# 500 execs of a static program without a note, with a note, and setuid
# root with a note, five times each in rotating order, as uid 1000.
# QEMU runs with -icount shift=0,sleep=off: the guest's clock advances one
# nanosecond per emulated instruction, so "time" is a count of executed
# instructions, repeatable from run to run, instead of the host's noisy
# wall time (about +-15% per boot under emulation).  Per case it reports the
# speed of patched relative to stock (stock time / patched time: 1.00 is
# equal, below 1 is slower) as the median over rounds, with the lowest and
# highest round, and writes the table to docs/benchmarks.md.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ROUNDS=${ROUNDS:-5}
# The two kernels compared (build/out/linux-$SERIES-i386-NAME): by default
# the "bench" profile of each, built without KUnit (kernel/build.sh), so
# that they differ by the series' code alone.
BASELINE=${BASELINE:-stock-bench}
CANDIDATE=${CANDIDATE:-patched-bench}
INITRAMFS=$BUILD/guest-i386.cpio
results=$BUILD/bench.tsv
: > "$results"

for round in $(seq 1 "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then order="$BASELINE $CANDIDATE"; else order="$CANDIDATE $BASELINE"; fi
	for variant in $order; do
		log=$BUILD/logs/bench-$variant-$round.log
		ARCH=i386 QEMU_EXTRA="-icount shift=0,sleep=off" "$top/i386-guest/boot.sh" "$BUILD/out/linux-$SERIES-i386-$variant/arch/x86/boot/bzImage" \
			"$INITRAMFS" "$log" guest.boot=bench kunit.enable=0 || exit 1
		# "ok N - bench/I/CASE" then "#   output: execs=500 ns_per_exec=T"
		role=base
		[ "$variant" = "$CANDIDATE" ] && role=new
		tr -d '\r' < "$log" | awk -v v="$role" -v r="$round" '
			/^not ok [0-9]+ - bench\// { bad = 1 }
			/^ok [0-9]+ - bench\// { split($4, p, "/"); c = p[2] == "0" ? "" : p[3]; next }
			c != "" && /^#   output: / { sub(/.*ns_per_exec=/, ""); print v "\t" r "\t" c "\t" $0; c = "" }
			END { exit bad }' >> "$results" || { echo "bench.sh: an exec failed in $log" >&2; exit 1; }
		echo "round $round: $variant done" >&2
	done
done

version=$("$top/kernel/tree.sh" version)
table=$(awk -F'\t' '
	# Per boot and case the least of its rows: extra kernel work that
	# lands in a row (timers, RCU, workqueues) only adds instructions, and
	# in some boots two of the five rows met it (up to 2.8 times the
	# others), more than a median absorbs.
	{ k = ++n[$1, $2, $3]; v[$1, $2, $3, k] = $4; cases[$3] = 1; rounds[$2] = 1 }
	function median(a, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	function boot_min(variant, r, c,   i, m) {
		m = v[variant, r, c, 1]
		for (i = 2; i <= n[variant, r, c]; i++) if (v[variant, r, c, i] < m) m = v[variant, r, c, i]
		return m
	}
	END {
		split("plain note suid", order, " ")
		for (o = 1; o <= 3; o++) {
			c = order[o]; k = 0; ss = 0; ps = 0
			for (r in rounds) {
				s = boot_min("base", r, c)
				p = boot_min("new", r, c)
				ratio[++k] = s / p; ss += s; ps += p
			}
			lo = hi = ratio[1]
			for (i = 2; i <= k; i++) { if (ratio[i] < lo) lo = ratio[i]; if (ratio[i] > hi) hi = ratio[i] }
			printf "| %s | %.1f | %.1f | %.3f | %.3f - %.3f |\n", c, ss / k / 1000, ps / k / 1000, median(ratio, k), lo, hi
		}
	}' "$results")

section=$(cat <<DOC
Command: \`make bench\` (i386-guest/bench.sh, ROUNDS=$ROUNDS), run on $(date -u +%Y-%m-%d),
linux $version, kernels $BASELINE and $CANDIDATE (the guest config without
KUnit, kernel/config/i386-bench.config), i386 guest under QEMU software
emulation on the project machine (2 cores). Each round boots both kernels, alternating which goes
first; each boot warms up, then times 5 x 500 vfork+execve+exit+wait of
a static musl program per case as uid 1000 (tests/bench/bench.scn); a
boot's figure for a case is the least of its 5 rows (kernel work that
lands in a row, such as timers, only adds to it).

QEMU runs with \`-icount shift=0,sleep=off\`: the guest clock advances 1 ns
per emulated instruction, so the times below count executed instructions
(in thousands per exec), not host time.  They still vary from boot to boot
(random seeds, memory state), as the spread shows, but far less than host
wall time, which varied by about +-15% between boots under emulation.
They measure the work the kernel does, not cache or TLB effects.

- plain: \`/bin/true\`, no note
- note: \`/bin/true-n32\`, a 32 MiB exec policy note, not setuid
- suid: \`/bin/true-n32-suid\`, the same, setuid root: the note is applied

| case | stock k-instructions/exec (mean of boots) | patched k-instructions/exec | speed patched/stock (median of rounds) | spread over rounds (min - max) |
|---|---|---|---|---|
$table

Speed is stock count / patched count per round: 1.000 means equal, below
1 means the patched kernel does more work per exec.
DOC
)
# Replace what lies between the markers in docs/benchmarks.md.
doc=$top/docs/benchmarks.md
awk -v section="$section" '
	/<!-- bench:begin -->/ { print; print section; skip = 1; next }
	/<!-- bench:end -->/ { skip = 0 }
	!skip' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
sed -n '/<!-- bench:begin -->/,/<!-- bench:end -->/p' "$doc"
