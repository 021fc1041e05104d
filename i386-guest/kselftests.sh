#!/bin/bash
# kselftests.sh TREE ABI UAPI OUTDIR: build the kernel's own selftests that
# the guest runs (tests/scenarios/80-kselftests.scn) from TREE, the patched
# kernel tree, with its selftests Makefiles, static, with ABI's musl
# compiler and the patched tree's UAPI headers:
#
#   OUTDIR/ABI/kselftest/exec/     tools/testing/selftests/exec: the
#                                  series' exec_policy and its probes,
#                                  null-argv, recursion-depth, non-regular
#   OUTDIR/ABI/kselftest/mm/       tools/testing/selftests/mm (vm up to
#                                  6.2): map_fixed_noreplace, map_populate,
#                                  mremap_dontunmap, mremap_test
#   OUTDIR/ABI/kselftest/rlimits/  tools/testing/selftests/rlimits: the
#                                  series' prlimit-caps
#   OUTDIR/ABI/kselftest.list      gen_init_cpio lines for mkinitramfs.sh
#                                  (/bin/kselftest-exec/NAME,
#                                  /bin/kselftest-mm/NAME,
#                                  /bin/kselftest-rlimits/NAME)
#
# The same binaries run on the stock kernel too: exec_policy skips there
# (no StackGuardGap line), the others must give the same results on both.
# execveat is left out: it needs its own folder as working directory.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:?usage: kselftests.sh TREE ABI UAPI OUTDIR}
abi=${2:?} uapi=${3:?} out=${4:?}
read -r cc triplet < <("$top/i386-guest/abis.sh" cc,triplet abi="$abi")
selftests=$tree/tools/testing/selftests
build=(CC="$cc -specs=$("$top/deps/sysroot.sh" --specs "$abi")" LDFLAGS=-static
	KHDR_INCLUDES="-isystem $uapi/include")

# upstream_make LOG MAKE-ARGS...: a selftests build whose compiler output
# goes to LOG.  Upstream's tests warn when built for 32-bit programs
# (mremap_test.c's casts between pointers and 64-bit integers): that is
# upstream's code, said once in a line, so that the project's own output
# stays readable.  A failed build prints its whole log.
upstream_make() {
	local log=$1
	shift
	make "$@" > "$log" 2>&1 || { cat "$log" >&2; return 1; }
	local n
	n=$(grep -c 'warning:' "$log" || true)
	[ "$n" = 0 ] || echo "  KSELFTEST $abi: $n compiler warnings in upstream's selftests" \
		"($(grep -o '[^/ ]*\.c:[0-9]*:[0-9]*: warning' "$log" | cut -d: -f1 | sort -u | tr '\n' ' ' |
			sed 's/ $//'); log: $log)"
}

dir=$out/$abi/kselftest/exec
exec_tests="exec_policy null-argv recursion-depth non-regular"
exec_files="exec_policy_probe exec_policy_probe_s32 exec_policy_probe_g4k exec_policy_probe_g4m exec_policy_probe_bad"
rm -rf "$dir" && mkdir -p "$dir"
targets=$(for t in $exec_tests $exec_files; do echo "$dir/$t"; done)
# exec/'s Makefile links every program with -lcap in 7.2, for
# check-exec, which is not built here; the guests' libc has no libcap,
# and none of these tests needs it: LDLIBS empty.
# shellcheck disable=SC2086 # targets are one path per word
upstream_make "$out/$abi/kselftest/exec.log" -s -C "$selftests/exec" OUTPUT="$dir" "${build[@]}" LDLIBS= \
	$targets

# The mm tests of what the series touches besides exec: where mmap puts a
# mapping and refuses to (map_fixed_noreplace), mremap's moves, merges and
# placement (mremap_test, mremap_dontunmap), and a fork's copy of the mm
# under MAP_POPULATE (map_populate).  Self-contained: no hugetlb, THP,
# userfaultfd, NUMA or liburing.  mm/'s Makefile (6.2 on) runs its
# check_config.sh in its own folder, which writes local_config.h and .mk
# there: it runs in a copy made of links (mm/, x86/ for its check_cc.sh,
# lib.mk and the kselftest headers), with top_srcdir set back to the
# tree, so the tree is only read.  check_config.sh's mktemp leaves an
# empty file behind: TMPDIR keeps it in that copy.
mm_dir=$out/$abi/kselftest/mm
mm_tests="map_fixed_noreplace map_populate mremap_dontunmap mremap_test"
rm -rf "$mm_dir" && mkdir -p "$mm_dir"
targets=$(for t in $mm_tests; do echo "$mm_dir/$t"; done)
if [ -d "$selftests/mm" ]; then
	links=$mm_dir/src
	mkdir -p "$links"
	ln -s "$selftests/lib.mk" "$selftests"/kselftest*.h "$links/"
	cp -rs "$selftests/mm" "$selftests/x86" "$links/"
	# shellcheck disable=SC2086
	TMPDIR=$links upstream_make "$out/$abi/kselftest/mm.log" -s -C "$links/mm" top_srcdir="$tree" \
		OUTPUT="$mm_dir" "${build[@]}" $targets
else
	# shellcheck disable=SC2086
	upstream_make "$out/$abi/kselftest/mm.log" -s -C "$selftests/vm" OUTPUT="$mm_dir" \
		"${build[@]}" $targets
fi

# The series' test of who may change another process's limits
# (prlimit64()), in rlimits/ beside upstream's rlimits-per-userns.
rl_dir=$out/$abi/kselftest/rlimits
rl_tests="prlimit-caps"
rm -rf "$rl_dir" && mkdir -p "$rl_dir"
# shellcheck disable=SC2086
upstream_make "$out/$abi/kselftest/rlimits.log" -s -C "$selftests/rlimits" OUTPUT="$rl_dir" \
	"${build[@]}" $(for t in $rl_tests; do echo "$rl_dir/$t"; done)

{
	echo "dir   /bin/kselftest-exec 0755 0 0"
	for t in $exec_tests $exec_files; do
		echo "file  /bin/kselftest-exec/$t $dir/$t 0755 0 0"
	done
	echo "dir   /bin/kselftest-mm 0755 0 0"
	for t in $mm_tests; do
		echo "file  /bin/kselftest-mm/$t $mm_dir/$t 0755 0 0"
	done
	echo "dir   /bin/kselftest-rlimits 0755 0 0"
	for t in $rl_tests; do
		echo "file  /bin/kselftest-rlimits/$t $rl_dir/$t 0755 0 0"
	done
} > "$out/$abi/kselftest.list"
