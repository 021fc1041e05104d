#!/bin/bash
# kselftests.sh TREE ABI UAPI OUTDIR: build the kernel's own selftests that
# the guest runs (tests/scenarios/80-kselftests.scn) from TREE, the patched
# kernel tree, with its selftests Makefiles, static, with ABI's musl
# compiler and the patched tree's UAPI headers:
#
#   OUTDIR/ABI/kselftest/exec/     tools/testing/selftests/exec: the
#                                  series' exec_policy and its probes,
#                                  null-argv, recursion-depth, non-regular
#   OUTDIR/ABI/kselftest.list      gen_init_cpio lines for mkinitramfs.sh
#                                  (/bin/kselftest-exec/NAME)
#
# The same binaries run on the stock kernel too: exec_policy skips there
# (no StackGuardGap line), the others must give the same results on both.
# execveat is left out: it needs its own folder as working directory.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:?usage: kselftests.sh TREE ABI UAPI OUTDIR}
abi=${2:?} uapi=${3:?} out=${4:?}
read -r cc triplet < <("$top/i386-guest/abis.sh" cc,triplet abi="$abi")
dir=$out/$abi/kselftest/exec
exec_tests="exec_policy null-argv recursion-depth non-regular"
exec_files="exec_policy_probe exec_policy_probe_s32 exec_policy_probe_g4k exec_policy_probe_g4m exec_policy_probe_bad"
rm -rf "$dir" && mkdir -p "$dir"
targets=$(for t in $exec_tests $exec_files; do echo "$dir/$t"; done)
# shellcheck disable=SC2086 # targets are one path per word
make -s -C "$tree/tools/testing/selftests/exec" OUTPUT="$dir" \
	CC="$cc -specs=/usr/lib/$triplet/musl-gcc.specs" LDFLAGS=-static \
	KHDR_INCLUDES="-isystem $uapi/include" $targets
{
	echo "dir   /bin/kselftest-exec 0755 0 0"
	for t in $exec_tests $exec_files; do
		echo "file  /bin/kselftest-exec/$t $dir/$t 0755 0 0"
	done
} > "$out/$abi/kselftest.list"
