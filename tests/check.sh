#!/bin/bash
# The project's test run, in two parts:
#
#   host    the host tests, checkpatch and the W=1 check (no guest kernel;
#           make check runs it while the kernels build)
#   guests  every boot of every kernel of CHECK_COMBOS (once they are built)
#
#   tests/check.sh PART...            run those parts, each one's report in
#                                     $BUILD/check-PART.tap
#   tests/check.sh --summary PART...  their reports, one after the other, in
#                                     $BUILD/check.tap; the failures again,
#                                     then "N passed, N failed"
#   tests/check.sh                    both, then the summary
#
# Every result is a TAP line.  The summary fails when anything failed or
# nothing ran; running a part fails only when it could not run at all.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$top/build}

. "$top/tests/lib/report.sh"

# Every patch of a series must be checkpatch --strict clean.  (That each
# applies is checked by kernel/tree.sh, which stops the build otherwise.)
# A backport of a mainline commit (the stable trees' "commit <id>
# upstream." line in its message) keeps mainline's code and text as the
# stable trees do, style included.  For those patches alone, what
# checkpatch says of mainline's own text and code is not counted: the
# "commit <id> upstream." line (GIT_COMMIT_ID) and mainline commits a
# tree extracted from a tarball has no history for (UNKNOWN_COMMIT_ID),
# mainline's two-line Kconfig help (CONFIG_DESCRIPTION), its long Link:
# and Closes: lines (COMMIT_LOG_LONG_LINE) and its blank lines between
# functions (LINE_SPACING).
#
# checkpatch also asks "does MAINTAINERS need updating?" (FILE_PATH_CHANGES)
# of every patch that adds a file without touching MAINTAINERS.  Where each
# added file lies in a folder MAINTAINERS already lists (an "F:" line ending
# in "/"), the answer is no, and the warning is not counted.
maintained_folders() {
	local patch=$1 tree=$2 file dir
	grep -A1 '^diff --git ' "$patch" | grep -B1 '^new file mode' | \
		sed -n 's|^diff --git a/\([^ ]*\) .*|\1|p' | while read -r file; do
		dir=${file%/*}
		until grep -q "^F:[[:space:]]*$dir/\$" "$tree/MAINTAINERS"; do
			[ "$dir" = "${dir%/*}" ] && { echo "$file"; break; }
			dir=${dir%/*}
		done
	done | grep -q . && return 1
	return 0
}

checkpatch_series() {
	local series=$1 tree=$BUILD/src/linux-$1-pristine name out ignore patch
	while read -r name; do
		case "$name" in ''|'#'*) continue ;; esac
		patch=$top/kernel/patches/$series/$name
		ignore=
		if grep -q '^commit [0-9a-f]\{40\} upstream\.$' "$patch"; then
			ignore=,GIT_COMMIT_ID,UNKNOWN_COMMIT_ID,CONFIG_DESCRIPTION,COMMIT_LOG_LONG_LINE,LINE_SPACING
		fi
		# A Fixes: tag names a mainline commit, which the tarball tree has
		# no history to look up either (the ids and subjects are quoted as
		# mainline's log gives them).
		if grep -q '^Fixes: [0-9a-f]\{12\} ("' "$patch"; then
			ignore=$ignore,UNKNOWN_COMMIT_ID
		fi
		if ! grep -q '^diff --git a/MAINTAINERS ' "$patch" && maintained_folders "$patch" "$tree"; then
			ignore=$ignore,FILE_PATH_CHANGES
		fi
		if out=$(cd "$tree" && ./scripts/checkpatch.pl --strict --quiet ${ignore:+"--ignore=${ignore#,}"} "$patch" 2>&1); then
			echo "ok - checkpatch --strict $series/$name"
		else
			echo "not ok - checkpatch --strict $series/$name"
			echo "$out" | sed 's/^/#   /'
		fi
	done < "$top/kernel/patches/$series/series"
}

# The kernels to boot: SERIES/ARCH pairs, each stock and patched, or
# SERIES/ARCH/VARIANT for one variant (the Makefile's CHECK_COMBOS).
CHECK_COMBOS=${CHECK_COMBOS-6.1/i386}
series_list=$(for c in $CHECK_COMBOS; do echo "${c%%/*}"; done | sort -uV)

host_part() {
	echo "# host tests"
	mapfile -t scenarios < <("$top/i386-guest/scenario-files.sh")
	run_host scenario-lint "$BUILD/host/scenario-lint" "${scenarios[@]}" "$top"/tests/bench/*.scn
	run_host test-scenario "$BUILD/host/test-scenario"
	run_host test-lint "$top/tests/host/test-lint.sh"
	run_host test-tap "$top/tests/host/test-tap.sh"
	run_host test-abis "$top/tests/host/test-abis.sh"
	run_host test-tree "$top/tests/host/test-tree.sh"
	run_host test-kernel-cache "$top/tests/host/test-kernel-cache.sh"
	run_host test-deps "$top/tests/host/test-deps.sh"
	run_host test-table "$top/tests/host/test-table.sh"
	run_host test-doc-paths "$top/tests/host/test-doc-paths.sh"
	run_host test-upstream-defs "$top/tests/host/test-upstream-defs.sh"
	run_host test-effect "$top/tests/host/test-effect.sh"
	run_host test-parse-log "$top/tests/host/test-parse-log.sh"
	# i386 programs run under qemu-i386: the host's kernel may refuse them
	# (make check makes sure it does: tests/host/no-i386.c).
	run_host test-no-i386 "$top/tests/host/test-no-i386.sh"
	run_host test-note-abi-i386 qemu-i386 "$BUILD/host/test-note-abi-i386"
	run_host test-note-abi-x86_64 "$BUILD/host/test-note-abi-x86_64"
	run_host test-note-abi-arm qemu-arm "$BUILD/host/test-note-abi-arm"
	run_host test-note-abi-arm64 qemu-aarch64 "$BUILD/host/test-note-abi-arm64"
	# elfnote's tests, built by elf-note-tool's make check-build.
	run_host test-elfnote-unit "$BUILD/elfnote/test-elfnote-unit" "$BUILD/guest-bin" "$BUILD/generated"
	run_host test-elfnote "$top/elf-note-tool/tests/test-elfnote.sh"
	run_host test-elfnote-write "$top/elf-note-tool/tests/test-elfnote-write.sh"
	run_host test-elfnote-scan "$top/elf-note-tool/tests/test-elfnote-scan.sh"
	run_host test-elfnote-kinds "$top/elf-note-tool/tests/test-elfnote-kinds.sh"
	run_host test-dh-elfnote "$top/elf-note-tool/tests/test-dh-elfnote.sh"
	for series in $series_list; do
		echo "# kernel series $series: checkpatch --strict on each patch in series order"
		checkpatch_series "$series"
		echo "# kernel series $series: W=1 under Debian's configs, touched objects"
		SERIES=$series run_stream "debian-configs $series" "$top/kernel/check-debian-configs.sh"
	done
}

# Every boot of every kernel, GUEST_JOBS at a time (i386-guest/run.sh).
guests_part() {
	local kernels kernel series arch variant
	mapfile -t kernels < <(CHECK_COMBOS=$CHECK_COMBOS "$top/kernel/build-kernels.sh" --list)
	for kernel in "${kernels[@]}"; do
		IFS=/ read -r series arch variant <<< "$kernel"
		echo "# guest tests: linux $(SERIES=$series "$top/kernel/tree.sh" version) ($arch, $variant)" \
			"from $(ls /usr/src/linux-source-"$series".tar.xz)$([ "$variant" != patched-debug ] ||
				echo ", KASAN and UBSAN: kernel/config/debug.config")"
	done
	[ ${#kernels[@]} = 0 ] && return
	run_stream "guest runs" "$top/i386-guest/run.sh" "${kernels[@]}"
	demo_tables "${kernels[@]}"
}

# make demo's tables and closing line for the kernels just booted, from
# their results, booting nothing again (i386-guest/demo.sh --results):
# every table prints, and only the boots each kernel runs are in it.
demo_tables() {
	local out=$BUILD/demo-check.txt
	if "$top/i386-guest/demo.sh" --results "$@" > "$out" 2>&1 &&
		[ "$(grep -c '^== linux ' "$out")" = $# ] && grep -q '^demo: [0-9]* checks passed' "$out"; then
		echo "ok - make demo prints the tables of the $# kernels booted ($out)"
	else
		echo "not ok - make demo prints the tables of the $# kernels booted ($out)"
		tail -3 "$out" | sed 's/^/#   /'
	fi
}

# run_part PART: its results are in its report, whatever its status.
run_part() {
	case "$1" in
	host|guests) "$1_part" 2>&1 | tee "$BUILD/check-$1.tap" ;;
	*) echo "tests/check.sh: unknown part '$1' (host or guests)" >&2; return 2 ;;
	esac
	return 0
}

summary() {
	local report=$BUILD/check.tap part passed failed
	for part; do
		[ -f "$BUILD/check-$part.tap" ] || { echo "tests/check.sh: part '$part' has not run" >&2; return 2; }
	done
	for part; do cat "$BUILD/check-$part.tap"; done > "$report"
	passed=$(grep -c '^ok' "$report")
	failed=$(grep -c '^not ok' "$report")
	if [ "$failed" != 0 ]; then
		echo
		echo "# failed:"
		grep -A3 '^not ok' "$report" | grep -v '^--$'
	fi
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
}

mkdir -p "$BUILD"
case "${1:-}" in
--summary) shift; summary "$@" ;;
'') rm -f "$BUILD"/check-*.tap; run_part host && run_part guests && summary host guests ;;
*) for part; do rm -f "$BUILD/check-$part.tap"; run_part "$part" || exit; done ;;
esac
