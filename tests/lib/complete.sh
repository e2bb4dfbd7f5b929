# SPDX-License-Identifier: GPL-2.0-only
# Drives the real shells' completion of roce-doctor, for tests: source it, then
#   complete_in SHELL COMPLETIONS-DIR LINE...
# prints, for each LINE (what is typed before TAB; a trailing space completes a new word), one line
# "N<TAB>CANDIDATE" per candidate the shell offers, N counting the LINEs from 1 (the part readline or ZLE
# would put in place of the word's end: fish's --opt=VALUE answers lose their --opt=, as bash's and zsh's
# never had it). SHELL is bash, zsh or fish;
# COMPLETIONS-DIR holds roce-doctor.bash, _roce-doctor and roce-doctor.fish. `roce-doctor` must be on PATH.
# One shell process answers all the LINEs (zsh: one interactive zsh under zpty), so a batch costs one start.
_complete_lib=$(dirname "${BASH_SOURCE[0]}")

complete_in() {
	local shell=$1 dir=$2
	shift 2
	case $shell in
		bash) bash --norc --noprofile "$_complete_lib/complete-bash.bash" "$dir/roce-doctor.bash" "$@" ;;
		zsh) timeout 30 zsh -f "$_complete_lib/complete-zsh.zsh" "$dir" "$@" ;;
		fish) timeout 30 fish --no-config -c '
			set -p fish_complete_path $argv[1]
			set -l i 0
			for q in $argv[2..-1]
				set i (math $i + 1)
				complete -C $q | string replace -r "\t.*" "" | string replace -r "^--[a-z-]+=" "" |
					string replace -r "^" "$i\t"
			end' "$dir" "$@" ;;
		*) return 1 ;;
	esac
}
