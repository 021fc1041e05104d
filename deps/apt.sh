# shellcheck shell=bash
# deps/apt.sh: the apt steps every Debian package of the project goes
# through, sourced by deps/install.sh (the host's own packages: make deps)
# and deps/fetch.sh (packages of any architecture, fetched as data into
# $BUILD with an apt configuration of the project's own).  Bash; the
# caller sets APT, the apt-get command line to run (an array).
#
# A mirror can serve an index that does not match its Release file for
# days ("File has unexpected size ... Mirror sync in progress?").  apt-get
# update then exits 100 although every other index is fine.  So a failed
# index is retried, then named in a warning and not held against the
# run: the packages are what matters, and a package that cannot be
# installed without that index is refused by the install step, which
# names it (deps_explain_install).

# Seconds to wait before the second and third try of apt-get update.
DEPS_RETRY_DELAYS=${DEPS_RETRY_DELAYS:-20 40}

# The caches every clone of the project shares (make distclean names
# them): Debian's .debs by their file names (NAME_VERSION_ARCH.deb, which
# apt checks against the index's hash before using one).
CACHE=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/stackclamp}
DEPS_DEBS=$CACHE/debs

# The suites the project's own apt configurations read, and where the
# host's sources are.
DEPS_SUITES="bookworm bookworm-updates bookworm-security"
DEPS_SOURCES_LIST=${SOURCES_LIST:-/etc/apt/sources.list}
DEPS_SOURCES_PARTS=${SOURCES_PARTS:-/etc/apt/sources.list.d}

deps_warn() { echo "${DEPS_WHO:-deps}: warning: $*" >&2; }
deps_die() { echo "${DEPS_WHO:-deps}: $*" >&2; exit 1; }

# The indexes an apt-get update log says it could not fetch, one a line:
# "SUITE COMPONENT ARCH URI: REASON" (component and architecture "-" when
# the suite's Release file itself failed).  apt prints each as
# "W: Failed to fetch URI  REASON" or "E: Failed to fetch URI  REASON".
#
# A suite whose Release file is missing, expired or not yet valid (a
# stale mirror again) is reported the same way, as a failed Release file.
deps_failed_indexes() {
	sed -nE -e 's/^[WE]: Failed to fetch ([^ ]+)  (.*)$/\1 \2/p' \
		-e "s/^E: The repository '([^ ]+) ([^ ]+) Release' (does not have a Release file)\.?$/\1\/dists\/\2\/Release \3/p" \
		-e 's/^E: Release file for ([^ ]+) (is (expired|not valid yet).*)$/\1 \2/p' "$1" | awk '{
		uri = $1
		reason = $0; sub(/^[^ ]+ +/, "", reason)
		suite = comp = arch = "-"
		if (match(uri, /\/dists\/[^ ]*/)) {
			n = split(substr(uri, RSTART + 7), part, "/")
			suite = part[1]
			if (n >= 3 && part[2] != "by-hash") comp = part[2]
			if (n >= 3 && part[3] ~ /^binary-/) arch = substr(part[3], 8)
		}
		print suite, comp, arch, uri ": " reason
	}' | sort -u
}

# deps_update LOG: apt-get update, three tries when an index fails.  An
# index still failing after that is a warning naming its suite and
# architecture; any other failure of apt-get update (a held lock, a
# broken source list) is fatal.
deps_update() {
	local log=$1 try=1 status delay failed
	local -a delays
	read -r -a delays <<< "$DEPS_RETRY_DELAYS"
	while :; do
		status=0
		"${APT[@]}" update > "$log" 2>&1 || status=$?
		failed=$(deps_failed_indexes "$log")
		if [ "$status" = 0 ] && [ -z "$failed" ]; then
			return 0
		fi
		if [ -z "$failed" ]; then
			tail -20 "$log" >&2
			deps_die "apt-get update failed (exit $status; log: $log)"
		fi
		[ "$try" -le "${#delays[@]}" ] || break
		delay=${delays[try - 1]}
		echo "  DEPS    $(echo "$failed" | wc -l) index(es) failed; apt-get update again in $delay s (try $((try + 1)) of $(( ${#delays[@]} + 1 )))" >&2
		sleep "$delay"
		try=$((try + 1))
	done
	local suite comp arch what
	while read -r suite comp arch what; do
		deps_warn "index of suite $suite ($([ "$comp" = - ] && echo "Release file" || echo "$comp, $arch")) could not be fetched, going on without it: $what"
	done <<< "$failed"
	return 0
}

# deps_explain_install LOG PACKAGE...: after a failed "apt-get install -s"
# whose output is LOG, one line per package that cannot be installed,
# with apt's reason: "PACKAGE: REASON".
deps_explain_install() {
	local log=$1
	shift
	awk -v asked="$*" '
	BEGIN { n = split(asked, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
	function add(pkg, why) {
		sub(/:(amd64|i386|all|native)$/, "", pkg)
		if (!(pkg in seen)) { seen[pkg] = 1; order[++count] = pkg; reason[pkg] = why }
		else reason[pkg] = reason[pkg] "; " why
	}
	/^E: Unable to locate package / { add($6, "no such package in any fetched index"); next }
	/^E: Package .* has no installation candidate/ {
		p = $3; gsub(/\x27/, "", p); add(p, "no installation candidate in any fetched index"); next
	}
	/^E: Version .* was not found/ { add($NF, $0); next }
	/^The following packages have unmet dependencies:/ { unmet = 1; next }
	unmet && /^ [^ ].* : / {
		line = $0; sub(/^ +/, "", line)
		pkg = line; sub(/ :.*/, "", pkg); last = pkg
		why = line; sub(/^[^:]* : +/, "", why)
		add(pkg, why); next
	}
	unmet && /^  +[A-Z][A-Za-z-]*: / { line = $0; sub(/^ +/, "", line); add(last, line); next }
	unmet && /^E: / { unmet = 0 }
	END {
		for (i = 1; i <= count; i++) print order[i] ": " reason[order[i]]
		# apt sometimes names no package (a conflict among several):
		# then every asked package is suspect, and the log tells.
		if (!count) for (p in want) print p ": apt could not resolve the set (see the log)"
	}' "$log"
}

# The host's sources as deb822 stanzas, kept only for SUITES and main:
# URIs and Signed-By (a path or an inline key) copied as the host has them.
deps_host_sources() {
	local f
	for f in "$DEPS_SOURCES_PARTS"/*.sources; do
		[ -f "$f" ] || continue
		awk -v suites="$DEPS_SUITES" '
		function flush(   n, i, s, out, c, hasmain, types, k) {
			if (!("URIs" in v)) { reset(); return }
			if (tolower(v["Enabled"]) == "no") { reset(); return }
			types = " " v["Types"] " "
			if (types !~ / deb /) { reset(); return }
			n = split(v["Suites"], s, /[ \t]+/)
			out = ""
			for (i = 1; i <= n; i++)
				if (index(" " suites " ", " " s[i] " ") && s[i] != "") out = out " " s[i]
			n = split(v["Components"], c, /[ \t]+/)
			hasmain = 0
			for (i = 1; i <= n; i++) if (c[i] == "main") hasmain = 1
			if (out != "" && hasmain) {
				print "Types: deb"
				print "URIs: " v["URIs"]
				print "Suites:" out
				print "Components: main"
				if ("Signed-By" in v) print "Signed-By:" raw["Signed-By"]
				print ""
			}
			reset()
		}
		function reset() { delete v; delete raw; key = "" }
		/^#/ { next }
		/^[ \t]*$/ { flush(); next }
		/^[ \t]/ { if (key != "") raw[key] = raw[key] "\n" $0; next }
		{
			key = $0; sub(/:.*/, "", key)
			val = $0; sub(/^[^:]*:/, "", val)
			raw[key] = val
			sub(/^[ \t]+/, "", val); sub(/[ \t]+$/, "", val)
			v[key] = val
		}
		END { flush() }' "$f"
	done
	# One-line format: deb [options] URI SUITE COMPONENT...
	for f in "$DEPS_SOURCES_LIST" "$DEPS_SOURCES_PARTS"/*.list; do
		[ -f "$f" ] || continue
		awk -v suites="$DEPS_SUITES" '
		$1 != "deb" { next }
		{
			opts = ""; i = 2
			if ($2 ~ /^\[/) {
				while (i <= NF) { opts = opts " " $i; if ($i ~ /\]$/) { i++; break } i++ }
			}
			uri = $i; suite = $(i + 1); hasmain = 0
			for (j = i + 2; j <= NF; j++) { if ($j ~ /^#/) break; if ($j == "main") hasmain = 1 }
			if (!index(" " suites " ", " " suite " ") || !hasmain) next
			signed = ""
			if (match(opts, /signed-by=[^] ]+/)) signed = substr(opts, RSTART + 10, RLENGTH - 10)
			print "Types: deb"
			print "URIs: " uri
			print "Suites: " suite
			print "Components: main"
			if (signed != "") print "Signed-By: " signed
			print ""
		}' "$f"
	done
}

# deps_sources_for SUITE...: the host's sources of DEPS_SUITES
# (deps_host_sources) turned to other suites of the same archives: a
# SUITE ending in -security goes where the host reads bookworm-security,
# any other where it reads bookworm.  So a Debian release other than the
# host's (bullseye, trixie-backports, sid) is read from the mirror the
# host is configured with, whichever that is, and no address is written
# here.  An old release's Release file may have expired: not checked.
deps_sources_for() {
	deps_host_sources | awk -v want="$*" '
	BEGIN {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++)
			if (w[i] ~ /-security$/) sec = sec " " w[i]; else main = main " " w[i]
	}
	function flush(   suites) {
		if (stanza == "") return
		suites = security ? sec : plain ? main : ""
		if (suites != "") { sub(/\nSuites:[^\n]*/, "\nSuites:" suites, stanza); print stanza; print "" }
		stanza = ""; security = plain = 0
	}
	/^$/ { flush(); next }
	/^Suites:/ {
		security = / bookworm-security( |$)/
		plain = / bookworm( |$)/
	}
	{ stanza = stanza (stanza == "" ? "" : "\n") $0 }
	END { flush() }' | sed 's/^Components: main$/&\nCheck-Valid-Until: no/'
}

# deps_private_apt DIR ARCH [SUITE...]: an apt configuration of the project's own in
# DIR (DIR/apt.conf), for packages of Debian architecture ARCH fetched as
# data: its own state, an empty dpkg status, its own source list (the
# host's, kept to DEPS_SUITES and main), no lock of the host's, none of
# the host's hooks; .debs go to the shared DEPS_DEBS.  Sets APT to use
# it.  The host's package state and dpkg architectures are never touched.
# DIR is in the shared cache ($CACHE/apt-ARCH), so that clones share its
# indexes: the calling script holds DIR's lock until it exits.
deps_private_apt() {
	local dir=$1 arch=$2 sources
	mkdir -p "$dir/sources.list.d" "$dir/preferences.d" "$dir/state/lists/partial" \
		"$dir/cache" "$dir/log" "$DEPS_DEBS/partial"
	exec 8> "$dir/.lock"
	flock 8
	shift 2
	if [ $# -gt 0 ]; then
		sources=$(deps_sources_for "$@")
	else
		sources=$(deps_host_sources)
	fi
	[ -n "$sources" ] || deps_die "no bookworm main source in $DEPS_SOURCES_PARTS/*.sources or $DEPS_SOURCES_LIST"
	printf '%s\n' "$sources" > "$dir/sources.list.d/debian.sources.new"
	mv "$dir/sources.list.d/debian.sources.new" "$dir/sources.list.d/debian.sources"
	: > "$dir/status"
	: > "$dir/sources.list"
	cat > "$dir/apt.conf" <<-CONF
		// Generated by deps/apt.sh: Debian $arch packages as data, apart
		// from the host's package state.
		Dir::State "$dir/state";
		Dir::State::status "$dir/status";
		Dir::Cache "$dir/cache";
		Dir::Cache::archives "$DEPS_DEBS/";
		Dir::Etc::SourceList "$dir/sources.list";
		Dir::Etc::SourceParts "$dir/sources.list.d";
		Dir::Etc::Preferences "$dir/preferences";
		Dir::Etc::PreferencesParts "$dir/preferences.d";
		Dir::Log "$dir/log";
		APT::Architecture "$arch";
		#clear APT::Architectures;
		APT::Architectures { "$arch"; };
		APT::Install-Recommends "false";
		APT::Install-Suggests "false";
		APT::Sandbox::User "root";
		Debug::NoLocking "true";
		#clear APT::Update::Pre-Invoke;
		#clear APT::Update::Post-Invoke;
		#clear APT::Update::Post-Invoke-Success;
		#clear DPkg::Pre-Invoke;
		#clear DPkg::Post-Invoke;
		#clear DPkg::Pre-Install-Pkgs;
	CONF
	APT=(apt-get -c "$dir/apt.conf" -q)
}

# deps_private_update DIR: deps_update for the configuration in DIR, unless
# it was updated from the same sources less than an hour ago: the data
# and the Debian root of one architecture share it, and a stale suite
# would make each of them wait through the retries again.
deps_private_update() {
	local dir=$1 id
	id=$(sha256sum < "$dir/sources.list.d/debian.sources" | cut -d' ' -f1)
	if [ "${FETCH_REFRESH:-0}" != 1 ] && [ "$(cat "$dir/updated" 2>/dev/null)" = "$id" ] &&
	   [ -n "$(find "$dir/updated" -mmin -60)" ]; then
		return 0
	fi
	rm -f "$dir/updated"
	deps_update "$dir/log/update.log"
	echo "$id" > "$dir/updated"
}
