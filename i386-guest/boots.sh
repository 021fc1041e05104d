# boots.sh, sourced: which boots of the scenario files a guest kernel
# runs, and how many scenarios each one holds.  One definition for the
# runner (run.sh boots them) and for the table (table.sh prints them):
# a boot is run exactly when it holds a scenario for the kernel, so the
# stock kernel has no "gapflood" boot (every scenario there is
# kernel=patched) and an ARM kernel no boot of i386 programs alone.
#
# Needs $top and $BUILD set; honours GUEST_ONLY (run.sh) and
# SCENARIO_FILES (a newline-separated list, for the host tests; default:
# i386-guest/scenario-files.sh).

BOOTS_LINT=$BUILD/host/scenario-lint
if [ -n "${SCENARIO_FILES:-}" ]; then
	mapfile -t boots_scenarios <<< "$SCENARIO_FILES"
else
	mapfile -t boots_scenarios < <("$top/i386-guest/scenario-files.sh")
fi

# every_boot: every boot of the scenario files, TAG<tab>PARAMS a line,
# in their order.
every_boot() {
	"$BOOTS_LINT" --boots "${boots_scenarios[@]}"
}

# boot_scenarios SERIES ARCH KIND BOOT: how many scenarios a kernel of
# this series and kind (stock or patched) runs in BOOT, over every ABI
# its guest runs them under (x86_64: x86_64 and ia32).
boot_scenarios() {
	local series=$1 arch=$2 kind=$3 boot=$4 abi n want=0
	for abi in $("$BOOTS_LINT" --abis "$arch"); do
		n=$("$BOOTS_LINT" --abi "$abi" --series "$series" ${GUEST_ONLY:+--only "$GUEST_ONLY"} \
			--count "$boot" "${boots_scenarios[@]}" |
			awk -v v="$kind" '$1 == v { print $2 }')
		want=$((want + ${n:-0}))
	done
	echo "$want"
}

# kernel_boots SERIES ARCH VARIANT: the boots that kernel runs, TAG<tab>
# PARAMS a line, in the scenario files' order.  A profile build
# (patched-debug) runs what its variant runs.
kernel_boots() {
	local series=$1 arch=$2 kind=${3%%-*} list boot params
	list=$(every_boot) || return 1
	while IFS=$'\t' read -r boot params; do
		[ "$(boot_scenarios "$series" "$arch" "$kind" "$boot")" != 0 ] || continue
		printf '%s\t%s\n' "$boot" "$params"
	done <<< "$list"
}
