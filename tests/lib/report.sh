# tests/lib/report.sh: how tests/check.sh folds each test's output into
# the one report.  Sourced.

# A host test is a TAP stream (tests/lib/tap.sh, tap.h): its plan becomes a
# comment of the report, and a test that prints another number of results
# than it planned, no plan, or dies without saying so, is a failure too.
run_host() {
	local name=$1
	shift
	"$@" | awk -v name="$name" '
		/^1\.\.[0-9]+$/ && !plan { plan = substr($0, 4) + 0; print "# host " name ": plan " plan; next }
		/^(not )?ok/ { ran++ }
		{ print }
		END {
			if (!plan)
				print "not ok - host " name " printed no plan"
			else if (ran != plan)
				print "not ok - host " name " planned " plan " results, printed " ran
		}'
	local status=${PIPESTATUS[0]}
	[ "$status" = 0 ] || echo "not ok - host $name exited with status $status"
}

# The guest runs and the Debian config builds are checked against what
# they must report by their own scripts (run.sh: "all N scenarios
# reported"), not by a plan.
run_stream() {
	local name=$1
	shift
	"$@"
	local status=$?
	[ "$status" = 0 ] || echo "not ok - $name exited with status $status"
}
