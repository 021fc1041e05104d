#!/bin/bash
# Benchmark, not a test: elfnote scan --all over a tree (default /usr)
# against what an administrator would otherwise run, and against a floor.
#
#   (a) elfnote scan --all DIR             the hardened build, to /dev/null
#   (b) find DIR -xdev -type f -perm /111, then readelf -n FILE for each,
#       in a shell loop: what one runs without elfnote (it finds its files
#       itself, as the scan does; non-ELF ones fail fast)
#   (c) the same with eu-readelf -n
#   (b2) readelf -n FILE for each ELF executable only, from a list made
#       before timing: for scale, (b) without its discovery
#   (d) floor DIR: scan's walk (getdents64, openat, d_type), a stat of
#       every regular file, and open + read 4 KiB + close of each with an
#       execute bit (bench/floor.c): what a reader of file headers does
#       at least
#   (e) readelf -n through xargs over the list, many files per run: for
#       scale only, to show how much of (b2) is starting processes
#
# The ELF list for (b2) and (e) is computed once, before any timing, by
# python3 reading the first bytes of every regular file with an execute
# bit (not by elfnote, so that the two counts check each other).  One
# untimed pass of every method warms the page cache; then ROUNDS rounds
# (default 3) run each method once, in turn; the median is reported.
# Goals: readelf/scan at least 10, scan/floor at most 1.5.
#
# Writes the table between <!-- scan-bench:begin --> and
# <!-- scan-bench:end --> in docs/benchmarks.md (appended the first time).
#
#   ROUNDS=3 SCAN_DIR=/usr elf-note-tool/bench/scan-bench.sh   (make bench-scan)
#
# BENCH_DOC=FILE writes the table to FILE instead (for other trees).
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$top/build}
ROUNDS=${ROUNDS:-3}
dir=${SCAN_DIR:-/usr}
doc=${BENCH_DOC:-$top/docs/benchmarks.md}
out=$BUILD/elfnote
elfnote=$out/elfnote
floor=$out/scan-bench-floor
list=$out/scan-bench-elf.list

make -s -C "$top/elf-note-tool" OUT="$out" all
cc -std=gnu11 -O2 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-o "$floor" "$top/elf-note-tool/bench/floor.c"

# The ELF executables (ET_EXEC, ET_DYN) under dir, on its filesystem,
# symlinks not followed: NUL-separated, and the count of regular files.
echo "  LIST    ELF executables under $dir"
counts=$(python3 - "$dir" "$list" <<'PY'
import os, stat, sys
top, out = sys.argv[1], sys.argv[2]
dev = os.stat(top).st_dev
files = elf = 0
with open(out, "wb") as f:
	for root, dirs, names in os.walk(top):
		# -xdev: prune directories on other filesystems (os.walk never follows symlinks).
		dirs[:] = [d for d in dirs if os.lstat(os.path.join(root, d)).st_dev == dev]
		for n in names:
			p = os.path.join(root, n)
			try:
				mode = os.lstat(p).st_mode
				if not stat.S_ISREG(mode):
					continue
				files += 1
				if not mode & 0o6111:
					continue
				with open(p, "rb") as g:
					h = g.read(18)
			except OSError:
				continue
			if len(h) < 18 or h[:4] != b"\x7fELF" or h[4] not in (1, 2):
				continue
			t = int.from_bytes(h[16:18], "little" if h[5] == 1 else "big")
			if h[5] in (1, 2) and t in (2, 3):
				elf += 1
				f.write(os.fsencode(p) + b"\0")
print(files, elf)
PY
)
read -r nfiles nelf <<< "$counts"
nlisted=$("$elfnote" scan --all --json "$dir" 2>/dev/null | grep -vc '"status":"error"' || true)
echo "  LIST    $nfiles regular files, $nelf ELF executables (elfnote scan --all lists $nlisted)"

run_scan() { "$elfnote" scan --all "$dir" >/dev/null 2>&1 || [ $? = 4 ]; }
# The loops as a shell user writes them: find what could be an
# executable (a regular file with an execute bit, on this filesystem),
# one reader process per file; non-ELF files fail fast.
loop() {
	local f
	while IFS= read -r -d '' f; do "$@" "$f" >/dev/null 2>&1 || true; done \
		< <(find "$dir" -xdev -type f -perm /111 -print0)
}
run_readelf() { loop readelf -n; }
run_eu_readelf() { loop eu-readelf -n; }
# For scale: readelf handed the exact ELF list (made before timing).
run_readelf_list() {
	local f
	while IFS= read -r -d '' f; do readelf -n "$f" >/dev/null 2>&1 || true; done < "$list"
}
run_floor() { "$floor" "$dir" >/dev/null; }
run_xargs() { xargs -0 readelf -n < "$list" >/dev/null 2>&1 || true; }

methods=(scan readelf eu_readelf readelf_list floor xargs)
declare -A times

# Times are in microseconds.
per() { awk -v us="$1" -v n="$2" 'BEGIN { printf "%.1f", n ? us / n : 0 }'; }
sec() { awk -v us="$1" 'BEGIN { printf (us < 100000 ? "%.4f" : "%.3f"), us / 1000000 }'; }

# Microseconds that one run of method $1 took.
timed() {
	local t0 t1
	t0=$(date +%s%N)
	"run_$1"
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000 ))
}

echo "  WARM    one untimed pass of each method"
for m in "${methods[@]}"; do timed "$m" >/dev/null; done
for r in $(seq 1 "$ROUNDS"); do
	for m in "${methods[@]}"; do
		us=$(timed "$m")
		times[$m]="${times[$m]:-} $us"
		printf '  ROUND   %d/%d %-12s %s s\n' "$r" "$ROUNDS" "$m" "$(sec "$us")"
	done
done

# median, min and max of a list of times
stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%d %d %d\n", m, v[1], v[NR] }'
}
declare -A med lo hi
for m in "${methods[@]}"; do
	# shellcheck disable=SC2086 # the list of times, one word each
	read -r a b c < <(printf '%s\n' ${times[$m]} | stats)
	med[$m]=$a lo[$m]=$b hi[$m]=$c
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
goal() { awk -v r="$1" -v g="$2" -v op="$3" 'BEGIN { ok = op == ">=" ? r >= g : r <= g; print ok ? "met" : "**missed**" }'; }

r_readelf=$(ratio "${med[readelf]}" "${med[scan]}")
r_eu=$(ratio "${med[eu_readelf]}" "${med[scan]}")
r_floor=$(ratio "${med[scan]}" "${med[floor]}")
r_xargs=$(ratio "${med[xargs]}" "${med[scan]}")
r_list=$(ratio "${med[readelf_list]}" "${med[scan]}")
nexec=$(find "$dir" -xdev -type f -perm /111 | wc -l)
r_readelf_floor=$(ratio "${med[readelf]}" "${med[floor]}")
bound="the scan opens $(awk -v a="$nfiles" -v b="$nelf" 'BEGIN { printf "%.0f", b ? a / b : 0 }') times as many files as the readelf loop runs readelf on, and readelf/floor is $r_readelf_floor."
fstype=$(df --output=fstype "$dir" | tail -1)
command="ROUNDS=$ROUNDS SCAN_DIR=$dir elf-note-tool/bench/scan-bench.sh"
[ "$ROUNDS" = 3 ] && [ "$dir" = /usr ] && command="make bench-scan"

section=$(cat <<EOF
<!-- scan-bench:begin -->
Command: \`$command\` (elf-note-tool/bench/scan-bench.sh, ROUNDS=$ROUNDS), run on
$(date -u +%Y-%m-%d) on the project machine ($(nproc) cores, linux $(uname -r), $dir on
$fstype, page cache warm: one untimed pass of every method first), over
\`$dir\`: $nfiles regular files, $nelf of them ELF executables (ET_EXEC or
ET_DYN with an execute, setuid or setgid bit; \`elfnote scan --all\` lists $nlisted). Wall time, median
of $ROUNDS rounds; each round runs every method once, in the order below.

| method | command | median | min - max | ratio |
|---|---|---|---|---|
| (a) scan | \`elfnote scan --all $dir > /dev/null\` (hardened build) | $(sec "${med[scan]}") s | $(sec "${lo[scan]}") - $(sec "${hi[scan]}") s | 1 |
| (b) readelf | \`find $dir -xdev -type f -perm /111\`, then \`readelf -n FILE\` for each of the $nexec files, a shell loop | $(sec "${med[readelf]}") s | $(sec "${lo[readelf]}") - $(sec "${hi[readelf]}") s | readelf/scan **$r_readelf** (goal >= 10: $(goal "$r_readelf" 10 '>=')) |
| (c) eu-readelf | the same loop with \`eu-readelf -n FILE\` | $(sec "${med[eu_readelf]}") s | $(sec "${lo[eu_readelf]}") - $(sec "${hi[eu_readelf]}") s | eu-readelf/scan **$r_eu** |
| (b2) for scale | \`readelf -n FILE\` for each of the $nelf ELF executables only, from a list made before timing | $(sec "${med[readelf_list]}") s | $(sec "${lo[readelf_list]}") - $(sec "${hi[readelf_list]}") s | readelf-list/scan $r_list |
| (d) floor | \`bench/floor.c\`: scan's walk, a stat per regular file, and open + read 4 KiB + close of each with an execute bit | $(sec "${med[floor]}") s | $(sec "${lo[floor]}") - $(sec "${hi[floor]}") s | scan/floor **$r_floor** (goal <= 1.5: $(goal "$r_floor" 1.5 '<=')) |
| (e) for scale | \`xargs -0 readelf -n\` over the same list (few processes) | $(sec "${med[xargs]}") s | $(sec "${lo[xargs]}") - $(sec "${hi[xargs]}") s | xargs-readelf/scan $r_xargs |

The loops (b) and (c) are what a user runs without elfnote: find the
files that could be executables and run the reader on each, so they pay
for their own discovery, as the scan does. Rows (b2) and (e) get the
exact ELF list for free (python3 reading the first 18 bytes of every
regular file, before any timing). (a) and (d) walk the whole tree and
stat every regular file; only those with an execute bit are opened (no
one can execute a file without one, root included). Per ELF executable:
scan $(per "${med[scan]}" "$nelf") µs, readelf $(per "${med[readelf_list]}" "$nelf") µs (a process each).
<!-- scan-bench:end -->
EOF
)

# Replace the section between the markers, or append it under a heading.
if grep -q '^<!-- scan-bench:begin -->' "$doc"; then
	python3 - "$doc" "$section" <<'PY'
import sys
path, section = sys.argv[1], sys.argv[2]
text = open(path).read()
a = text.index("<!-- scan-bench:begin -->")
b = text.index("<!-- scan-bench:end -->") + len("<!-- scan-bench:end -->")
open(path, "w").write(text[:a] + section + text[b:])
PY
else
	printf '\n## elfnote scan against readelf\n\nThe table between the markers is rewritten by `make bench-scan`.\n\n%s\n' "$section" >> "$doc"
fi
printf '%s\n' "$section" | sed -n '/^| /p'
echo "  DOC     $doc"
