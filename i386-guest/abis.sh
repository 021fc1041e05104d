#!/bin/bash
# abis.sh COLUMN[,COLUMN...] [COLUMN=VALUE...]: columns of the ABI table
# (abis.txt, beside this script) for the rows that match every
# COLUMN=VALUE, blank-separated, one row a line, in the table's order; a
# line printed once however many rows give it.
#
#   abis.sh programs                      i386, x86_64: the folders to build
#   abis.sh abi kernel=x86_64             x86_64, ia32: what that kernel runs
#   abis.sh cc,triplet abi=i386           i686-linux-gnu-gcc i386-linux-musl
#
# Make ($(shell ...)) and the scripts read the table through this, so a
# column is found by its name and never by its position.  An unknown
# column, or a row with another number of fields than the header, is an
# error (status 2).
set -uo pipefail

[ $# -ge 1 ] || { echo "usage: abis.sh COLUMN[,COLUMN...] [COLUMN=VALUE...]" >&2; exit 2; }
want=$1
shift
exec awk -v want="$want" -v where="$*" '
function die(msg) { print "abis.sh: " FILENAME ":" FNR ": " msg > "/dev/stderr"; failed = 1; exit 2 }
/^#/ || !NF { next }
!ncols {
	ncols = NF
	for (i = 1; i <= NF; i++)
		col[$i] = i
	nwant = split(want, wanted, ",")
	for (i = 1; i <= nwant; i++)
		if (!(wanted[i] in col))
			die("no column " wanted[i])
	nwhere = split(where, conds, " ")
	for (i = 1; i <= nwhere; i++) {
		eq = index(conds[i], "=")
		key[i] = substr(conds[i], 1, eq - 1)
		value[i] = substr(conds[i], eq + 1)
		if (!eq || !(key[i] in col))
			die("no column " (eq ? key[i] : conds[i]) " (COLUMN=VALUE)")
	}
	next
}
NF != ncols { die(NF " fields, the header names " ncols) }
{
	for (i = 1; i <= nwhere; i++)
		if ($col[key[i]] != value[i])
			next
	line = $col[wanted[1]]
	for (i = 2; i <= nwant; i++)
		line = line " " $col[wanted[i]]
	if (!seen[line]++)
		print line
}
END { if (!ncols && !failed) die("no header line") }' "$(dirname "$0")/abis.txt"
