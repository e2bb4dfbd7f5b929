# SPDX-License-Identifier: GPL-2.0-only
# complete-zsh.zsh FPATH-DIR LINE...: zsh's completion of each LINE, as tests/lib/complete.sh says.
# An interactive zsh in a pseudo-terminal runs compinit with FPATH-DIR first; compadd is wrapped to append
# every match it adds to a file, and a marker printed after each completion says it is over (no sleeping).
zmodload zsh/zpty || exit 1
dir=$1; shift
out=$(mktemp) tmp=$(mktemp -d) || exit 1
zpty z zsh -f -i
# compinit registers (compdef) every function of every folder on fpath, 2 s of CPU for zsh's ~800: give it
# the completion system's core (Base, Zsh) and this one, then mark Unix's helpers (_files, _hosts, _users
# ...) autoloadable by name, which reads no file. compinit itself comes from a folder of links to it alone,
# as the Completion folder's digest (Completion.zwc) would bring back all ~800.
zpty -w z "ln -s \${(M)fpath:#*/Completion}/comp* ${(q)tmp}/; unix=(\${(M)fpath:#*/Completion/Unix})"
zpty -w z "PS1=; fpath=(${(q)dir} ${(q)tmp} \${(M)fpath:#*/Completion/(Base|Zsh)}); autoload -U compinit; compinit -u -D"
zpty -w z 'fpath+=($unix); autoload -Uz -- $unix/_*(N:t)'
zpty -w z 'unsetopt autolist listbeep beep zle_bracketed_paste; LISTMAX=100000; bindkey "^I" complete-word'
# (compadd -O/-A/-D only filter into an array: _arguments calls those itself; they add nothing)
zpty -w z "compadd() { (( \${@[(I)-[OAD]]} )) && { builtin compadd \"\$@\"; return }; local -a __m; builtin compadd -A __m \"\$@\"; print -rl -- \$__m >> ${(q)out}; builtin compadd \"\$@\" }"
# the marker is spelled with @ where the typed line shows it, so only its output matches *<<:DONE:>>*
zpty -w z '_cap_post() { print -n -- "<<@DONE@>>" | tr @ :; compprefuncs=(_cap_pre) }'
zpty -w z '_cap_pre() { comppostfuncs=(_cap_post) }; compprefuncs=(_cap_pre)'
zpty -w z 'print READY | tr A-Z a-z'
zpty -r z junk '*ready*' || exit 1
i=0
for line; do
	i=$((i + 1))
	: >| $out
	zpty -w -n z "$line"$'\t'
	zpty -r z junk '*<<:DONE:>>*' || exit 1
	zpty -w -n z $'\C-e\C-u'
	sort -u $out | sed "s/^/$i\t/"
done
zpty -d z
rm -rf $out $tmp
