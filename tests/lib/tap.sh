# tests/lib/tap.sh: the Test Anything Protocol for the project's shell
# tests.  Sourced; nothing here runs a test.
#
#   tap_plan N              announce N results ("1..N"), before the first
#   tap_check STATUS DESC   "ok K - PREFIX DESC" when STATUS is 0, else "not ok"
#   tap_skip DESC REASON    "ok K - PREFIX DESC # SKIP REASON"
#   tap_diag TEXT...        "# TEXT"
#   tap_on_exit COMMAND     run COMMAND when the test exits (cleanup); use
#                           it instead of `trap ... EXIT`, which tap owns
#
# TAP_PREFIX (set before sourcing or later) starts every description.
# When the script exits, for whatever reason, tap checks that it printed as
# many results as it planned: a test that stops early, or that skips a
# check by mistake, fails with "not ok - ... planned N results, printed M"
# and a non-zero status.  Any failed result makes the status non-zero too.

TAP_PREFIX=${TAP_PREFIX:-}
_tap_count=0
_tap_failed=0
_tap_planned=
_tap_cleanup=()

tap_plan() {
	[ -z "$_tap_planned" ] || { echo "tap_plan: a second plan" >&2; exit 2; }
	[ "$_tap_count" = 0 ] || { echo "tap_plan: the plan comes before the first result" >&2; exit 2; }
	_tap_planned=$1
	echo "1..$1"
}

tap_check() {
	local status=$1
	shift
	_tap_count=$((_tap_count + 1))
	if [ "$status" = 0 ]; then
		echo "ok $_tap_count - $TAP_PREFIX$*"
	else
		_tap_failed=$((_tap_failed + 1))
		echo "not ok $_tap_count - $TAP_PREFIX$*"
	fi
}

tap_skip() {
	_tap_count=$((_tap_count + 1))
	echo "ok $_tap_count - $TAP_PREFIX$1 # SKIP $2"
}

tap_diag() {
	local line
	while IFS= read -r line; do echo "# $line"; done <<< "$*"
}

tap_on_exit() {
	_tap_cleanup+=("$1")
}

_tap_exit() {
	local status=$? cmd
	for cmd in "${_tap_cleanup[@]}"; do eval "$cmd"; done
	local bad=0
	if [ -z "$_tap_planned" ]; then
		echo "not ok - ${TAP_PREFIX}the test printed no plan"
		bad=1
	elif [ "$_tap_count" != "$_tap_planned" ]; then
		echo "not ok - ${TAP_PREFIX}planned $_tap_planned results, printed $_tap_count"
		bad=1
	fi
	[ "$_tap_failed" = 0 ] || bad=1
	# A status the script chose (a usage error's 2) is kept.
	[ "$status" != 0 ] || status=$bad
	exit "$status"
}
trap _tap_exit EXIT
