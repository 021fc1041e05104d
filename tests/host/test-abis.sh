#!/bin/bash
# The runner's ABIs (scenario.c, which the guest carries compiled in) are
# those of i386-guest/abis.txt, which the rest of the harness reads: the
# same names, and for each kernel the same ABIs in the same order.  A row
# added to one and not the other fails here, not in a guest.  The table's
# own rows must give what they borrow.  TAP.
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
LINT=${LINT:-$BUILD/host/scenario-lint}
abis=$top/i386-guest/abis.sh
. "$top/tests/lib/tap.sh"
TAP_PREFIX="abis: "

mapfile -t rows < <("$abis" abi)
mapfile -t kernels < <("$abis" kernel)
tap_plan $((${#rows[@]} + 2 * ${#kernels[@]} + 2))

# A row's kernel row names the emulator, machine, console, image and
# Debian root, its programs row how to build.
for abi in "${rows[@]}"; do
	read -r kernel programs < <("$abis" kernel,programs abi="$abi")
	boot=$("$abis" qemu,machine,cpu,console,image,debroot abi="$kernel")
	build=$("$abis" debarch,cc,triplet,clang,musl_ld,glibc_ld,glibc_lib abi="$programs")
	[ -n "$boot" ] && [[ " $boot " != *" - "* ]] && [ -n "$build" ] && [[ " $build " != *" - "* ]]
	tap_check $? "$abi: kernel $kernel names its QEMU, machine, CPU, console, image and Debian root, programs $programs how they are built"
done

# The same ABIs, whatever their order (scenario.c's is that of its bits).
table=$(printf '%s\n' "${rows[@]}" | sort)
runner=$("$LINT" --abis | sort)
[ -n "$table" ] && [ "$table" = "$runner" ]
tap_check $? "the runner knows the table's ABIs and no other"
[ "$table" = "$runner" ] || tap_diag "abis.txt: $(echo $table); scenario.c: $(echo $runner)"

# What a kernel runs, and in which order: the runner's and the table's.
for kernel in "${kernels[@]}"; do
	want=$("$abis" abi kernel="$kernel")
	got=$("$LINT" --abis "$kernel")
	[ "$want" = "$got" ]
	tap_check $? "the $kernel kernel runs $(echo $want), in that order"
	[ "$want" = "$got" ] || tap_diag "scenario.c: $(echo $got)"
done

# A kernel's Debian root (70-debian.scn runs it as the kernel's 32-bit
# ABIs) holds programs of an architecture that kernel runs.
for kernel in "${kernels[@]}"; do
	root=$("$abis" debroot abi="$kernel")
	found=
	for abi in $("$abis" abi kernel="$kernel"); do
		programs=$("$abis" programs abi="$abi")
		[ "$("$abis" debarch abi="$programs")" = "$root" ] && found=$abi
	done
	[ -n "$found" ]
	tap_check $? "the $kernel kernel's Debian root ($root) is of programs it runs (${found:-none})"
done

# The runner asks uname -m, which an i386 kernel answers with i686 (the
# guests' logs: "# guest: kernel Linux ... (i686)").
[ "$("$LINT" --abis i686)" = "$("$abis" abi kernel=i386)" ]
tap_check $? "an i386 kernel, i686 to uname, runs the i386 kernel's ABIs"
