#!/bin/bash
# bench-count.sh: what the series adds to an exec's work for reading the
# exec policy note, counted exactly.  Boots the stock and the patched
# guest kernel of $ARCH under QEMU with its gdb stub, with
# guest.boot=count (tests/bench/count.scn), and has gdb
# (i386-guest/count-exec.py) single-step every call of read_exec_policy()
# and of load_elf_phdrs() in seven execs of each case's program, in every
# ABI the kernel runs: the functions' own instructions, callees included,
# with interrupts held off.  The series adds the reader and makes
# load_elf_phdrs() read the main program's notes with its headers, so the
# added work is the reader plus what the header reads grew by.  The
# kernels are the test builds (kernel/build.sh), where both are functions
# of their own (KUnit calls them); the bench build inlines them.  Per case
# it reports the least count of the seven execs (an exec may also update
# the file's atime or be rescheduled inside a read, on either kernel) and,
# where make bench has left its
# results ($BUILD/bench-$ARCH-low.tsv), what share the added work is of
# the stock kernel's whole exec (vfork + execve + exit + wait, the
# program's run included, from make bench's instruction counts, taken as
# bench.sh takes them).
#
# Writes the table to docs/benchmarks.md between <!-- count-ARCH:begin/end -->.
# With RENDER_ONLY=1 it only writes the table again from the last run's
# counts ($BUILD/count-$ARCH-{stock,patched}.txt), e.g. after make bench;
# with KERNELS=stock (or patched) it counts that kernel again and keeps
# the other's counts.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/lib/doc-section.sh"
BUILD=${BUILD:-$top/build}
SERIES=${SERIES:-6.1}
ARCH=${ARCH:-i386}
BASELINE=${BASELINE:-stock}
VARIANT=${VARIANT:-patched}
PORT=${PORT:-1234}
INITRAMFS=$BUILD/guest-$SERIES-$ARCH.cpio
export ARCH

# The cases, their programs and how many execs of them, as count.scn
# names them.
cases=$(sed -n 's|^name=count/\([^ ]*\) run=\([^ ]*\) .*|\1 \2|p' "$top/tests/bench/count.scn" |
	awk '{ n = split($2, a, ","); print $1, a[n], a[n - 1] }')
programs=$(echo "$cases" | awk '{ print $2 }' | sort -u | tr '\n' ' ')
abis=$("$top/i386-guest/abis.sh" abi kernel="$ARCH" | tr '\n' ' ')
execs=$(($(echo "$cases" | awk '{ n += $3 } END { print n }') * $(echo $abis | wc -w)))

raw() { echo "$BUILD/count-$ARCH-$1.txt"; }

# copies KERNEL FUNCTION: ABI=ADDRESS for each copy of FUNCTION, that of
# binfmt_elf.o first, then (x86_64) of compat_binfmt_elf.o: System.map
# lists them in link order, as abis.sh lists the ABIs.
copies() {
	local i=0 abi
	local -a addr
	mapfile -t addr < <(awk -v s="$2" '$3 == s { print $1 }' "$BUILD/out/linux-$SERIES-$ARCH-$1/System.map")
	for abi in $abis; do
		[ -n "${addr[$i]:-}" ] && printf '%s=%s ' "$abi" "${addr[$i]}"
		i=$((i + 1))
	done
}

# count KERNEL: boot it under gdb and write its counts to $(raw KERNEL).
count() {
	local out=$BUILD/out/linux-$SERIES-$ARCH-$1 log=$BUILD/logs/count-$ARCH-$1.log
	local execve readers phdrs qemu
	execve=$(awk '$3 == "bprm_execve" { print $1 }' "$out/System.map")
	readers=$(copies "$1" read_exec_policy)
	phdrs=$(copies "$1" load_elf_phdrs)
	[ -n "$execve" ] && [ -n "$phdrs" ] ||
		{ echo "bench-count.sh: no bprm_execve or load_elf_phdrs in $out/System.map" >&2; exit 1; }
	[ "$1" = "$BASELINE" ] || [ -n "$readers" ] ||
		{ echo "bench-count.sh: no read_exec_policy in $out/System.map" >&2; exit 1; }
	# -icount: the guest's clock counts its instructions, so that slow
	# single-stepping (a busy host) neither moves its time on (timer
	# work, rescheduling inside the stepped call, the scenario timeout)
	# nor changes a count.
	GUEST_TIMEOUT=7200 GUEST_CPUS=1 QEMU_EXTRA="-icount shift=0,sleep=off -gdb tcp:127.0.0.1:$PORT -S" "$top/i386-guest/boot.sh" \
		"$out/arch/x86/boot/bzImage" "$INITRAMFS" "$log" guest.boot=count kunit.enable=0 norandmaps &
	qemu=$!
	sleep 2
	COUNT_ARCH=$ARCH COUNT_EXECVE=$execve COUNT_READERS="$readers" COUNT_PHDRS="$phdrs" \
		COUNT_PROGRAMS="$programs" COUNT_EXECS=$execs COUNT_PORT=$PORT \
		gdb -batch -nx -x "$top/i386-guest/count-exec.py" 2>&1 |
		grep -E '^(exec|read|phdrs) ' > "$(raw "$1")"
	wait "$qemu" || { echo "bench-count.sh: the guest failed, see $log" >&2; exit 1; }
	grep -q '^# guest: done, [0-9]* ok, 0 not ok' <(tr -d '\r' < "$log") ||
		{ echo "bench-count.sh: an exec failed in $log" >&2; exit 1; }
}

if [ "${RENDER_ONLY:-0}" != 1 ]; then
	for kernel in ${KERNELS:-$BASELINE $VARIANT}; do
		count "$kernel"
	done
fi

# Per kernel, exec and ABI (load_elf_phdrs() runs in every exec, so each
# exec names its ABI): the reader's and the header reads' instructions,
# summed over the exec's calls.
version=$("$top/kernel/tree.sh" version)
bench=$BUILD/bench-$ARCH-low.tsv
table=$(awk -v cases="$cases" -v abis="$abis" -v bench="$bench" -v base="$(raw "$BASELINE")" '
	# least(KERNEL, WHAT, ABI, PROGRAM): the least count over its execs,
	# -1 for none; list holds the counts.
	function least(v, what, a, p,   j, m, x) {
		m = -1; list = ""
		for (j = 1; j <= execs[v, p]; j++) {
			if (abi[v, p, j] != a) continue
			x = n[v, what, p, j] + 0; list = list " " x
			if (m < 0 || x < m) m = x
		}
		return m
	}
	{ v = FILENAME == base ? "s" : "p" }
	$1 == "exec" { prog = $2; e = ++execs[v, prog]; next }
	{ abi[v, prog, e] = $2; n[v, $1, prog, e] += $3 }
	END {
		# make bench: the stock ("base") kernel per ABI and case, the
		# least row of each boot (bench.sh), mean over boots.
		while ((getline line < bench) > 0) {
			split(line, f, "\t")
			if (f[1] == "base") { s[f[3], f[4]] += f[5]; c[f[3], f[4]]++ }
		}
		nc = split(cases, cl, "\n"); na = split(abis, al, " ")
		for (a = 1; a <= na; a++) for (i = 1; i <= nc; i++) {
			split(cl[i], cp, " "); p = cp[2]
			hs = least("s", "phdrs", al[a], p)
			if (hs < 0) continue
			hp = least("p", "phdrs", al[a], p)
			r = least("p", "read", al[a], p); reads = list
			added = r + hp - hs
			whole = c[al[a], cp[1]] ? s[al[a], cp[1]] / c[al[a], cp[1]] : 0
			printf "| %s | %s | %s |%s | %d | %d | %d | %d | %s | %s |\n", al[a], cp[1], p, reads, r, hs, hp, added,
				whole ? sprintf("%.1f", whole / 1000) : "-", whole ? sprintf("%.2f%%", added / whole * 100) : "-"
		}
	}' "$(raw "$BASELINE")" "$(raw "$VARIANT")")

section=$(cat <<DOC
Command: \`make bench-count ARCH=$ARCH\` (i386-guest/bench-count.sh), run on $(date -u +%Y-%m-%d),
linux $version, kernels $BASELINE and $VARIANT (the test builds, where
read_exec_policy() and load_elf_phdrs() are functions of their own), $ARCH
guest.  Instructions per exec, single-stepped by gdb through QEMU's stub,
the least of seven execs: in read_exec_policy() (all PT_NOTE segments of the
program; a segment that lies in what was read with the program headers is
parsed there, an empty one returns at once), and in load_elf_phdrs() (the
program's and its interpreter's headers) on both kernels.  The added work
is the reader plus what the header reads grew by; its share is of the
stock kernel's whole exec as \`make bench\` counted it (vfork + execve +
exit + wait, the program's run included).

| ABI | case | program | reader, per exec | reader | headers, $BASELINE | headers, $VARIANT | added | $BASELINE exec, k-instructions | added share |
|---|---|---|---|---|---|---|---|---|---|
$table
DOC
)
doc_section "$top/docs/benchmarks.md" "count-$ARCH" "$section"
