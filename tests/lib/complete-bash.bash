# SPDX-License-Identifier: GPL-2.0-only
# complete-bash.bash COMPLETION-FILE LINE...: bash's completion of each LINE, as tests/lib/complete.sh says.
# COMP_WORDS is split as readline splits it (blanks, and = and : as words of their own), then the function
# that `complete -p roce-doctor` names is called as bash calls it.
. "$1" || exit 1
shift
spec=$(complete -p roce-doctor) || exit 1
fn=${spec#*-F }
fn=${fn%% *}
i=0
for line; do
	i=$((i + 1))
	COMP_WORDS=()
	read -ra blanks <<< "$line"
	for w in "${blanks[@]}"; do
		while [[ $w == *[=:]* ]]; do
			head=${w%%[=:]*}
			[ -n "$head" ] && COMP_WORDS+=("$head")
			COMP_WORDS+=("${w:${#head}:1}")
			w=${w:${#head}+1}
		done
		[ -n "$w" ] && COMP_WORDS+=("$w")
	done
	# a new word after a blank; right after = or : bash's current word is the = or : itself
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line} COMPREPLY=()
	"$fn" roce-doctor "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	for c in "${COMPREPLY[@]}"; do printf '%s\t%s\n' "$i" "$c"; done
done
