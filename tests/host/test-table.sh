#!/bin/bash
# Host tests of i386-guest/table.sh, the table make demo prints from the
# results run.sh writes per boot: it shows exactly the variant asked for
# (after make check, the patched-debug kernel's results lie beside the
# patched kernel's: they must not mix in), every boot in the scenario
# files' order, and it refuses a run with a boot missing; the boots it
# wants are those the kernel runs (i386-guest/boots.sh): none that holds
# only the other kernel's scenarios or other ABIs' (make demo once
# failed on the stock kernel for want of the patched-only gapflood
# boot).  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
. "$top/tests/lib/tap.sh"
TAP_PREFIX="demo table: "
tap_plan 12
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

# Boots that only some kernels run, from scenario files of the test's own:
# "default" runs on both kernels, "onlypatched" on the patched one,
# "onlyi386" on i386 programs alone (none of an arm64 guest's ABIs).
cat > "$work/00-fixture.scn" <<'SCN'
@boot onlypatched
@boot onlyi386 stack_guard_gap=1
name=both run=/bin/true expect.exit=0
name=patched-only run=/bin/true kernel=patched boot=onlypatched expect.exit=0
name=i386-only run=/bin/true abi=i386 boot=onlyi386 expect.exit=0
SCN
fixture_results() {
	local dir=$work/fixture/linux-6.1-$1-$2 boot
	shift 2
	mkdir -p "$dir"
	for boot; do
		printf 'x86/%s\t0\t0\tPASS\n' "$boot" > "$dir/$boot.tsv"
	done
}
table() {
	SCENARIO_FILES=$work/00-fixture.scn RESULTS=$work/fixture SERIES=6.1 ARCH=$1 \
		"$top/i386-guest/table.sh" "$2"
}
fixture_results i386 stock default onlyi386
fixture_results i386 patched default onlypatched onlyi386
fixture_results arm64 stock default

out=$(table i386 stock)
tap_check $? "stock i386 kernel: the table prints without the patched-only boot's results (got $?)"
[ "$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')" = "x86/default x86/onlyi386 " ]
tap_check $? "stock i386 kernel: its boots are default and onlyi386, in order ($(echo $out))"
out=$(table i386 patched)
[ "$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')" = "x86/default x86/onlypatched x86/onlyi386 " ]
tap_check $? "patched i386 kernel: all three boots, in order ($(echo $out))"
out=$(table arm64 stock)
[ "$(echo "$out" | awk 'NR > 1 { print $1 }' | tr '\n' ' ')" = "x86/default " ]
tap_check $? "stock arm64 kernel: no boot of i386 programs alone ($(echo $out))"
rm "$work/fixture/linux-6.1-i386-patched/onlypatched.tsv"
err=$(table i386 patched 2>&1 >/dev/null)
status=$?
[ "$status" = 1 ] && [ "$err" = "table.sh: no results of boot onlypatched in $work/fixture/linux-6.1-i386-patched (run make demo)" ]
tap_check $? "patched kernel without its patched-only boot's results: exit 1 naming it (got $status: $err)"
rm "$work/fixture/linux-6.1-i386-stock/onlyi386.tsv"
err=$(table i386 stock 2>&1 >/dev/null)
status=$?
[ "$status" = 1 ] && [ "$err" = "table.sh: no results of boot onlyi386 in $work/fixture/linux-6.1-i386-stock (run make demo)" ]
tap_check $? "stock kernel without a boot it runs: still exit 1 (got $status: $err)"
