#!/bin/bash
# demo.sh: boot the stock and the patched guest and print, for each, the
# table of scenarios: name, expected outcome, observed outcome, verdict.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}

"$top/i386-guest/run.sh" stock patched > "$BUILD/demo.tap"

for variant in stock patched; do
	echo
	echo "== linux $("$top/kernel/tree.sh" version)-$variant ($ARCH), Debian's linux-source-$SERIES$([ "$variant" = patched ] && echo " + kernel/patches/$SERIES") =="
	for log in "$BUILD/logs/linux-$SERIES-$ARCH-$variant"-*.log; do
		boot=${log##*-}
		boot=${boot%.log}
		# An observation identical to its expectation is shown as "=":
		# ranges and differences stand out.
		tr -d '\r' < "$log" | awk -F'\t' -v boot="$boot" '$1 == "# row" {
			printf "%s\t%s\t%s\t%s\n", boot == "default" ? $2 : $2 " [" boot "]",
				$3, $4 == $3 ? "=" : $4, $5 }'
	done | awk -F'\t' '
	{ for (i = 1; i <= 4; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
	END {
		split("scenario expected observed verdict", head, " ")
		for (i = 1; i <= 4; i++) if (length(head[i]) > w[i]) w[i] = length(head[i])
		fmt = "%-" w[1] "s  %-" w[2] "s  %-" w[3] "s  %s\n"
		printf fmt, head[1], head[2], head[3], head[4]
		for (r = 1; r <= NR; r++) printf fmt, cell[r, 1], cell[r, 2], cell[r, 3], cell[r, 4]
	}'
done
echo
passed=$(grep -c '^ok' "$BUILD/demo.tap")
failed=$(grep -c '^not ok' "$BUILD/demo.tap")
echo "demo: $passed checks passed, $failed failed (KUnit and log checks included; full TAP in $BUILD/demo.tap)"
