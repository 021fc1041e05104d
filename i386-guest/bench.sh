#!/bin/bash
# bench.sh: how much the series costs exec.  Boots the stock and the patched
# guest kernel of $ARCH ROUNDS times each, alternating which goes first,
# with guest.boot=bench (tests/bench/bench.scn): every boot warms up, then
# times each case (a kind of program with or without notes) five times, in
# rotating order, as uid 1000, in each ABI the kernel runs.
#
# QEMU runs with -icount shift=0,sleep=off: the guest's clock advances one
# nanosecond per emulated instruction, so "time" is a count of executed
# instructions, the kernel's and the program's, instead of the host's noisy
# wall time (about +-15% per boot under emulation).  The guest boots with
# norandmaps, so that every exec gets the same layout and page tables, and
# with its TSC taken as what QEMU's icount makes it, 1 GHz, from the
# start: calibrated, it came out a little different in every boot, and
# until the kernel switched to it (a second or more into the runs) the
# clock ticked in jiffies.
#
# Per ABI and case it reports the instructions per exec of each kernel
# (mean of boots, each boot's figure the least of its rows: work such as
# timers that lands in a row only adds to it) and stock/patched per round
# (median and range over rounds), and writes the table to
# docs/benchmarks.md between the markers <!-- bench-ARCH:begin/end -->.
# With BASELINE and CANDIDATE the same kernel (an A/A run) it writes to
# bench-aa-ARCH instead: what the method reads as a difference where there
# is none, its resolution.  RENDER_ONLY=1 only writes the table again
# from the last run's results ($BUILD/bench-$ARCH.tsv).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/doc-section.sh"
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
ROUNDS=${ROUNDS:-5}
# The two kernels compared (build/out/linux-$SERIES-$ARCH-NAME): by default
# the "bench" profile of each, built without KUnit (kernel/build.sh), so
# that they differ by the series' code alone.
BASELINE=${BASELINE:-stock-bench}
CANDIDATE=${CANDIDATE:-patched-bench}
INITRAMFS=$BUILD/guest-$SERIES-$ARCH.cpio
results=$BUILD/bench-$ARCH.tsv
mark=bench-$ARCH
[ "$BASELINE" != "$CANDIDATE" ] || mark=bench-aa-$ARCH
export ARCH

# RENDER_ONLY=1 writes the table again from the last run's results.
[ "${RENDER_ONLY:-0}" = 1 ] || : > "$results"
for round in $( [ "${RENDER_ONLY:-0}" = 1 ] || seq 1 "$ROUNDS"); do
	if [ $((round % 2)) = 1 ]; then roles="base new"; else roles="new base"; fi
	for role in $roles; do
		variant=$BASELINE
		[ "$role" = new ] && variant=$CANDIDATE
		log=$BUILD/logs/bench-$ARCH-$role-$round.log
		GUEST_CPUS=1 QEMU_EXTRA="-icount shift=0,sleep=off" "$top/i386-guest/boot.sh" \
			"$BUILD/out/linux-$SERIES-$ARCH-$variant/arch/x86/boot/bzImage" \
			"$INITRAMFS" "$log" guest.boot=bench kunit.enable=0 norandmaps tsc_early_khz=1000000 tsc=reliable || exit 1
		# "ok N - ABI/bench/ROUND/CASE", then "#   output: execs=N ns_per_exec=T"
		tr -d '\r' < "$log" | awk -v role="$role" -v r="$round" '
			/^not ok [0-9]+ - [^ ]*\/bench\// { bad = 1 }
			/^ok [0-9]+ - [^ ]*\/bench\// { split($4, p, "/"); c = p[3] == "0" ? "" : p[1] "\t" p[4]; next }
			c != "" && /^#   output: / { sub(/.*ns_per_exec=/, ""); print role "\t" r "\t" c "\t" $0; rows++; c = "" }
			END { exit bad || !rows }' >> "$results" ||
			{ echo "bench.sh: an exec failed, or no row ran, in $log" >&2; exit 1; }
		echo "round $round: $variant done" >&2
	done
done

version=$("$top/kernel/tree.sh" version)
# The cases in the order bench.scn's first round runs them.
order=$(sed -n 's|^name=bench/1/\([^ ]*\) .*|\1|p' "$top/tests/bench/bench.scn" | tr '\n' ' ')
# Per boot and case the least of its rows ($BUILD/bench-$ARCH-low.tsv,
# which bench-count.sh reads too): work that lands in a row, such as
# timers or what earlier rows left to the allocators, only adds to it.
lows=$BUILD/bench-$ARCH-low.tsv
awk -F'\t' -v OFS='\t' '
	{ k = $1 OFS $2 OFS $3 OFS $4; if (!(k in low) || $5 + 0 < low[k]) low[k] = $5 + 0 }
	END { for (k in low) print k, low[k] }' "$results" > "$lows"
table=$(awk -F'\t' -v order="$order" '
	{ v[$1, $2, $3, $4] = $5; abis[$3] = 1; rounds[$2] = 1; ran[$3, $4] = 1 }
	function median(a, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	END {
		ncases = split(order, cases, " ")
		for (abi in abis) for (o = 1; o <= ncases; o++) {
			c = cases[o]; k = 0; bs = 0; ns = 0
			# busybox is i386 only: no rows as x86_64.
			if (!((abi, c) in ran)) continue
			for (r in rounds) {
				b = v["base", r, abi, c]
				p = v["new", r, abi, c]
				ratio[++k] = b / p; bs += b; ns += p
			}
			lo = hi = ratio[1]
			for (i = 2; i <= k; i++) { if (ratio[i] < lo) lo = ratio[i]; if (ratio[i] > hi) hi = ratio[i] }
			printf "| %s | %s | %.1f | %.1f | %+.2f%% | %.4f | %.4f - %.4f |\n", abi, c, bs / k / 1000, ns / k / 1000,
				(ns - bs) / bs * 100, median(ratio, k), lo, hi
		}
	}' "$lows" | sort -t'|' -k2,2 -s)

section=$(cat <<DOC
Command: \`$( [ "$BASELINE/$CANDIDATE" = stock-bench/patched-bench ] || echo "BASELINE=$BASELINE CANDIDATE=$CANDIDATE ")make bench ARCH=$ARCH ROUNDS=$ROUNDS\` (i386-guest/bench.sh), run on $(date -u +%Y-%m-%d),
linux $version, kernels $BASELINE (baseline) and $CANDIDATE, $ARCH guest under QEMU software
emulation (\`-icount shift=0,sleep=off\`, \`norandmaps\`), $ROUNDS round(s) of one boot of each.
Figures are thousands of instructions per exec; the change is the
patched mean against the stock mean; baseline/candidate is the ratio per
round (1.0000: equal; below 1: the candidate does more work).

| ABI | case | baseline k-instr/exec | candidate k-instr/exec | change | baseline/candidate (median of rounds) | range over rounds |
|---|---|---|---|---|---|---|
$table
DOC
)
doc_section "$top/docs/benchmarks.md" "$mark" "$section"
