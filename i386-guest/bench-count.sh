#!/bin/bash
# bench-count.sh: what reading the exec policy note costs an exec, counted
# exactly.  Boots the patched guest kernel of $ARCH once under QEMU with
# its gdb stub, with guest.boot=count (tests/bench/count.scn), and has gdb
# (i386-guest/count-exec.py) single-step every call of read_exec_policy()
# in three execs of each case's program, in every ABI the kernel runs:
# the reader's own instructions, callees included, with interrupts held
# off.  The kernel is the test build (kernel/build.sh patched), where the
# reader is a function of its own (KUnit calls it); the bench build
# inlines it.  Per case it reports the instructions per exec (the sum over
# the exec's PT_NOTE segments; the median of the three execs) and, where
# make bench has left its results ($BUILD/bench-$ARCH-low.tsv), what share
# they are of the stock kernel's whole exec (vfork + execve + exit + wait,
# the program's run included, from make bench's instruction counts, taken
# as bench.sh takes them).
#
# Writes the table to docs/benchmarks.md between <!-- count-ARCH:begin/end -->.
# With RENDER_ONLY=1 it only writes the table again from the last run's
# counts ($BUILD/count-$ARCH.txt), e.g. after make bench.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/doc-section.sh"
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
VARIANT=${VARIANT:-patched}
PORT=${PORT:-1234}
INITRAMFS=$BUILD/guest-$ARCH.cpio
out=$BUILD/out/linux-$SERIES-$ARCH-$VARIANT
log=$BUILD/logs/count-$ARCH-$VARIANT.log
raw=$BUILD/count-$ARCH.txt
export ARCH

# The cases and their programs, as count.scn names them.
cases=$(sed -n 's|^name=count/\([^ ]*\) run=\([^ ]*\) .*|\1 \2|p' "$top/tests/bench/count.scn" |
	awk '{ n = split($2, a, ","); print $1, a[n] }')
programs=$(echo "$cases" | awk '{ print $2 }' | sort -u | tr '\n' ' ')
abis=$("$top/i386-guest/abis.sh" abi kernel="$ARCH" | tr '\n' ' ')
rows=$(echo "$cases" | wc -l)
execs=$((rows * 3 * $(echo $abis | wc -w)))

sym() { awk -v s="$1" '$3 == s { print $1 }' "$out/System.map"; }
execve=$(sym bprm_execve)
# read_exec_policy of binfmt_elf.o, then (x86_64) of compat_binfmt_elf.o:
# System.map lists them in link order.
mapfile -t reader < <(sym read_exec_policy)
[ -n "$execve" ] && [ "${#reader[@]}" -ge 1 ] ||
	{ echo "bench-count.sh: no bprm_execve or read_exec_policy in $out/System.map" >&2; exit 1; }
readers=""
i=0
for abi in $abis; do
	readers="$readers $abi=${reader[$i]}"
	i=$((i + 1))
done

if [ "${RENDER_ONLY:-0}" != 1 ]; then
	GUEST_TIMEOUT=7200 QEMU_EXTRA="-gdb tcp:127.0.0.1:$PORT -S" "$top/i386-guest/boot.sh" \
		"$out/arch/x86/boot/bzImage" "$INITRAMFS" "$log" guest.boot=count kunit.enable=0 norandmaps &
	qemu=$!
	sleep 2
	COUNT_ARCH=$ARCH COUNT_EXECVE=$execve COUNT_READERS="$readers" COUNT_PROGRAMS="$programs" \
		COUNT_EXECS=$execs COUNT_PORT=$PORT gdb -batch -nx -x "$top/i386-guest/count-exec.py" 2>&1 |
		grep -E '^(exec|read) ' > "$raw"
	wait "$qemu" || { echo "bench-count.sh: the guest failed, see $log" >&2; exit 1; }
	grep -q '^# guest: done, [0-9]* ok, 0 not ok' <(tr -d '\r' < "$log") ||
		{ echo "bench-count.sh: an exec failed in $log" >&2; exit 1; }
fi

# Per exec: its program, its ABI (from the reader's copy; an exec without
# a call is counted as 0 in each ABI's table) and its instructions.
version=$("$top/kernel/tree.sh" version)
bench=$BUILD/bench-$ARCH-low.tsv
table=$(awk -v cases="$cases" -v abis="$abis" -v bench="$bench" '
	function median(a, k,   i, j, t) {
		for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
	}
	$1 == "exec" { e = ++execs[$2]; prog = $2; sum[prog, e] = 0; abi[prog, e] = ""; next }
	$1 == "read" { abi[prog, e] = $2; sum[prog, e] += $3 }
	END {
		# make bench: the stock ("base") kernel per ABI and case, the
		# least row of each boot (bench.sh), mean over boots.
		while ((getline line < bench) > 0) {
			split(line, f, "\t")
			if (f[1] == "base") { s[f[3], f[4]] += f[5]; c[f[3], f[4]]++ }
		}
		nc = split(cases, cl, "\n"); na = split(abis, al, " ")
		for (a = 1; a <= na; a++) for (i = 1; i <= nc; i++) {
			split(cl[i], cp, " "); p = cp[2]; k = 0; list = ""
			for (j = 1; j <= execs[p]; j++) {
				# An exec without a read names no ABI: the guest runs
				# the rows ABI by ABI, in the order abis.sh lists them.
				x = abi[p, j] != "" ? abi[p, j] : al[int((j - 1) * na / execs[p]) + 1]
				if (x == al[a]) { w[++k] = sum[p, j]; list = list " " sum[p, j] }
			}
			if (!k) continue
			med = median(w, k)
			whole = c[al[a], cp[1]] ? s[al[a], cp[1]] / c[al[a], cp[1]] : 0
			printf "| %s | %s | %s |%s | %d | %s | %s |\n", al[a], cp[1], p, list, med,
				whole ? sprintf("%.1f", whole / 1000) : "-", whole ? sprintf("%.2f%%", med / whole * 100) : "-"
		}
	}' "$raw")

section=$(cat <<DOC
Command: \`make bench-count ARCH=$ARCH\` (i386-guest/bench-count.sh), run on $(date -u +%Y-%m-%d),
linux $version, kernel $VARIANT (the test build, where read_exec_policy() is a
function of its own), $ARCH guest.  Instructions in read_exec_policy() per exec
(all PT_NOTE segments of the program; an empty segment returns before
reading), single-stepped by gdb through QEMU's stub, for three execs, and
what share the median is of the stock kernel's whole exec as \`make bench\`
counted it (vfork + execve + exit + wait, the program's run included).

| ABI | case | program | reader instructions per exec | median | stock exec, k-instructions | reader's share |
|---|---|---|---|---|---|---|
$table
DOC
)
doc_section "$top/docs/benchmarks.md" "count-$ARCH" "$section"
