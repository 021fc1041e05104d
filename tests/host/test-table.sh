#!/bin/bash
# Host tests of i386-guest/table.sh, the table make demo prints from the
# results run.sh writes per boot: it shows exactly the variant asked for
# (after make check, the patched-debug kernel's results lie beside the
# patched kernel's: they must not mix in), every boot in the scenario
# files' order, and it refuses a run with a boot missing.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
. "$top/tests/lib/tap.sh"
TAP_PREFIX="demo table: "
tap_plan 6
work=$(mktemp -d)
tap_on_exit 'rm -rf "$work"'

mapfile -t scenarios < <("$top/i386-guest/scenario-files.sh")
mapfile -t boots < <("$BUILD/host/scenario-lint" --boots "${scenarios[@]}" | cut -f1)

# Two rows per boot and variant, one whose observation equals its
# expectation.
for variant in patched patched-debug stock; do
	dir=$work/linux-6.1-x86_64-$variant
	mkdir -p "$dir"
	for boot in "${boots[@]}"; do
		printf '# [6.1 x86_64 %s/%s]\n' "$variant" "$boot" > "$dir/$boot.tsv"
		printf 'x86_64/%s-%s-a\t1\t1\tPASS\nx86_64/%s-%s-b\t1\t2\tFAIL\n' \
			"$variant" "$boot" "$variant" "$boot" >> "$dir/$boot.tsv"
	done
done

out=$(RESULTS=$work SERIES=6.1 ARCH=x86_64 "$top/i386-guest/table.sh" patched)
tap_check $? "table.sh patched exits 0 with every boot's results there"
[ "$(echo "$out" | grep -c 'x86_64/patched-')" = $((2 * ${#boots[@]})) ]
tap_check $? "it prints the patched kernel's ${#boots[@]} boots, two rows each"
! echo "$out" | grep -q 'patched-debug\|stock'
tap_check $? "no row of the patched-debug (KASAN) or the stock kernel mixes in"
want=$(for boot in "${boots[@]}"; do echo "x86_64/patched-$boot-a"; done)
[ "$(echo "$out" | awk 'NR > 1 && /-a/ { print $1 }')" = "$want" ]
tap_check $? "the boots come in the scenario files' order (default first, then ${boots[*]:1})"
echo "$out" | grep -q '^x86_64/patched-default-a  *1  *=  *PASS$' &&
	echo "$out" | grep -q '^x86_64/patched-default-b  *1  *2  *FAIL$'
tap_check $? "an observation equal to its expectation shows as '=', another as itself"

rm "$work/linux-6.1-x86_64-patched/${boots[-1]}.tsv"
err=$(RESULTS=$work SERIES=6.1 ARCH=x86_64 "$top/i386-guest/table.sh" patched 2>&1 >/dev/null)
status=$?
[ "$status" = 1 ] && [ "$err" = "table.sh: no results of boot ${boots[-1]} in $work/linux-6.1-x86_64-patched (run make demo)" ]
tap_check $? "a boot without results: exit 1 naming the boot and the folder (got $status: $err)"
