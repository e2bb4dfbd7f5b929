# SPDX-License-Identifier: GPL-2.0-only
# The ids man/roce-doctor-checks.7 documents in one of its sections (CHECKS, COMPARE, PAIR, LOG PATTERNS):
# each entry is a ".TP" line, then the id alone in bold ("\fBarea.name\fR"). Sourced by the tests that
# hold a list of ids in the code against that page.
#   checks_man_ids PAGE SECTION   prints the section's ids, sorted, one a line
checks_man_ids() {
	awk -v want="$2" '
		/^\.SH / { name = substr($0, 5); gsub(/"/, "", name); in_section = (name == want); prev = ""; next }
		in_section && prev == ".TP" { print }
		{ prev = $0 }' "$1" | sed -nE 's/^\\fB([a-z0-9_]+(\.[a-z0-9_]+)+)\\fR$/\1/p' | sort -u
}
