# parse-log.awk: a guest's console log -> TAP lines for the host
# (i386-guest/run.sh).  Variables: tag ("6.1 i386 patched/default"), want
# (the scenarios the guest must report), suites (KUnit suites that must
# run), sanitized (1: KASAN must be on), series (6.1, 6.12) and known (the
# file of known upstream warnings).
#
# Any Oops, BUG, WARNING, panic or sanitizer report fails the boot's log
# check, except a WARNING that known lists for this series: a warning the
# stock kernel prints too, for reasons the series does not touch.  Such a
# warning, its registers and its call trace (up to its "end trace" line)
# are shown as a comment line, and the check still passes; anything else
# in the log still fails it.

# known: "SERIES<TAB>TEXT<TAB>WHY" lines ("#" comments); TEXT is part of
# the WARNING line.
BEGIN {
	while (known != "" && (getline line < known) > 0) {
		if (line ~ /^#/ || line == "")
			continue
		split(line, f, "\t")
		if (f[1] == series) {
			nknown++
			known_text[nknown] = f[2]
			known_why[nknown] = f[3]
		}
	}
}

# The index of the known warning a WARNING line is, or 0.
function known_warning(line,   i) {
	for (i = 1; i <= nknown; i++)
		if (index(line, known_text[i]))
			return i
	return 0
}

function emit(ok, name, extra) {
	printf "%s - [%s] %s%s\n", ok ? "ok" : "not ok", tag, name, extra
}
{ sub(/\r$/, "") }
/^TAP version 13/ { runner = 1; started = 1; next }
!runner && /^    # Subtest: / { suite = $3; next }
!runner && /^    (not )?ok [0-9]+ / {
	ok = $1 == "ok"
	name = $0
	sub(/^    (not )?ok [0-9]+ (- )?/, "", name)
	skip = name ~ /# SKIP/
	sub(/ *#.*/, "", name)
	seen[suite]++
	if (skip) { printf "ok - [%s] kunit %s.%s # SKIP\n", tag, suite, name; next }
	emit(ok, "kunit " suite "." name, "")
	next
}
!runner && /^        (not )?ok [0-9]+ / {
	ok = $1 == "ok"
	name = $0
	sub(/^        (not )?ok [0-9]+ (- )?/, "", name)
	emit(ok, "kunit " suite " param: " name, "")
	next
}
!runner && /^        # .*(Expected|expected|ASSERTION|EXPECTATION)/ { print "#   " $0; next }
runner && /^(not )?ok [0-9]+ - / {
	ok = $1 == "ok"
	name = $0
	sub(/^(not )?ok [0-9]+ - /, "", name)
	emit(ok, name, "")
	ran++
	next
}
runner && /^#   (expected|observed|output):/ { print; next }
runner && /^# guest: kernel / { print "# [" tag "] " substr($0, 10); next }
runner && /^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
/KernelAddressSanitizer initialized/ { kasan = 1 }
# A known warning's report: its lines up to "end trace" (at most 80).
in_known && /---\[ end trace/ { in_known = 0; next }
in_known && ++in_known_lines <= 80 { next }
/WARNING:/ && (k = known_warning($0)) {
	in_known = 1
	in_known_lines = 0
	nseen_known++
	printf "# [%s] known upstream warning, not counted: %s (%s)\n", tag, $0, known_why[k]
	next
}
/Oops|BUG:|WARNING:|Kernel panic|general protection fault|Call Trace:|UBSAN:|KASAN:/ {
	bad++
	if (bad <= 5) badlines = badlines "\n#   " $0
}
END {
	complete = started && plan == want && ran == want
	emit(complete, "all " want " scenarios reported",
	     complete ? "" : sprintf(" # %s, plan %d, ran %d (guest died or hung?)",
		     started ? "runner started" : "runner never started", plan, ran))
	emit(!bad, "kernel log has no oops, BUG, WARNING or sanitizer report",
	     bad ? badlines : nseen_known ? sprintf(" # %d known upstream warning(s), shown above", nseen_known) : "")
	# A debug kernel whose KASAN is off would pass that check vacuously.
	if (sanitized)
		emit(kasan, "KASAN is active (kernel log)", "")
	n = split(suites, want_suites, " ")
	for (i = 1; i <= n; i++)
		emit(seen[want_suites[i]] > 0, "kunit suite " want_suites[i] " ran", "")
}