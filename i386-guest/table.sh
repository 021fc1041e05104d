#!/bin/bash
# table.sh VARIANT: the table of scenarios of the last run of one guest
# kernel (stock, patched, patched-debug) of $SERIES and $ARCH: name,
# expected outcome, observed outcome, verdict, from the results run.sh
# wrote for each boot.  The boots are those the kernel runs (boots.sh:
# the stock kernel has no boot of patched-only scenarios), in the
# scenario files' order; a boot it runs without results is an error, not
# an empty table.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
variant=${1:?usage: table.sh VARIANT}
results=${RESULTS:-$BUILD/results}/linux-$SERIES-$ARCH-$variant
. "$top/i386-guest/boots.sh"

boots=$(kernel_boots "$SERIES" "$ARCH" "$variant" | cut -f1) || exit 1
[ -n "$boots" ] || {
	echo "table.sh: linux-$SERIES-$ARCH-$variant runs no boot of the scenario files" >&2
	exit 1
}
for boot in $boots; do
	[ -f "$results/$boot.tsv" ] || {
		echo "table.sh: no results of boot $boot in $results (run make demo)" >&2
		exit 1
	}
done

# An observation identical to its expectation is shown as "=": ranges
# and differences stand out.
for boot in $boots; do
	awk -F'\t' -v boot="$boot" '!/^#/ {
		printf "%s\t%s\t%s\t%s\n", boot == "default" ? $1 : $1 " [" boot "]",
			$2, $3 == $2 ? "=" : $3, $4 }' "$results/$boot.tsv"
done | awk -F'\t' '
{ for (i = 1; i <= 4; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
END {
	split("scenario expected observed verdict", head, " ")
	for (i = 1; i <= 4; i++) if (length(head[i]) > w[i]) w[i] = length(head[i])
	fmt = "%-" w[1] "s  %-" w[2] "s  %-" w[3] "s  %s\n"
	printf fmt, head[1], head[2], head[3], head[4]
	for (r = 1; r <= NR; r++) printf fmt, cell[r, 1], cell[r, 2], cell[r, 3], cell[r, 4]
}'
