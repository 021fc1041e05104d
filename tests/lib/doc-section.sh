# doc_section DOC MARK TEXT: put TEXT between the lines
# "<!-- MARK:begin -->" and "<!-- MARK:end -->" of DOC (appending the
# pair if DOC has none yet), and print the new section.  The benchmark
# scripts write their tables into docs/benchmarks.md this way.
doc_section() {
	local doc=$1 mark=$2 text=$3
	grep -q "<!-- $mark:begin -->" "$doc" || printf '\n<!-- %s:begin -->\n<!-- %s:end -->\n' "$mark" "$mark" >> "$doc"
	awk -v section="$text" -v mark="$mark" '
		$0 == "<!-- " mark ":begin -->" { print; print section; skip = 1; next }
		$0 == "<!-- " mark ":end -->" { skip = 0 }
		!skip' "$doc" > "$doc.tmp" && mv "$doc.tmp" "$doc"
	sed -n "/<!-- $mark:begin -->/,/<!-- $mark:end -->/p" "$doc"
}
