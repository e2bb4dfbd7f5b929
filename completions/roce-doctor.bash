# SPDX-License-Identifier: GPL-2.0-only
# bash completion for roce-doctor
# Options are listed per command as each command's --help shows them (tests/docs/docs_test.sh holds the two
# together); check ids come from `roce-doctor check --list` and device names from `roce-doctor devices --brief`
# under the --root/--from on the line, so neither can drift from the binary.
_roce_doctor_commands="devices gid check nccl-env nccl topo snapshot compare explain counters serve bw lat mesh"
_roce_doctor_common="--json --output --pretty --compact --verbose --help"
# serve writes an event log, not a document: no --output, --pretty or --compact
_roce_doctor_log="--json --verbose --help"
_roce_doctor_host="--root --from $_roce_doctor_common"
# nccl, topo, snapshot, explain, counters and mesh refuse -v: they print all they have to say without it
_roce_doctor_quiet="--json --output --pretty --compact --help"

# The --root DIR / --from FILE already on the line (as an array in _roce_doctor_ctx), so devices, netdevs
# and users come from the tree or snapshot the command will read, not from this host.
_roce_doctor_context()
{
	local i w v
	_roce_doctor_ctx=()
	for ((i = 1; i < ${#_roce_doctor_words[@]} - 1; i++)); do
		w=${_roce_doctor_words[i]}
		case $w in
			--root|--from) v=${_roce_doctor_words[i + 1]}; w=${w}=$v ;;
			--root=*|--from=*) v=${w#*=} ;;
			*) continue ;;
		esac
		v=${v/#\~/$HOME}
		_roce_doctor_ctx+=("${w%%=*}" "$v")
	done
}

# Devices, DEV/PORT, and the netdevs under them: every spelling a device argument takes.
_roce_doctor_devices()
{
	"$_roce_doctor_bin" "${_roce_doctor_ctx[@]}" devices --brief 2>/dev/null |
		awk '$2 == "port" { print $1; print $1 "/" $3; if ($5 != "N/A") print $5 }' | sort -u
}

# Netdevs of the --root tree when one is given, of this host otherwise.
_roce_doctor_netdevs()
{
	local root="" i n
	for ((i = 0; i < ${#_roce_doctor_ctx[@]}; i += 2)); do
		[ "${_roce_doctor_ctx[i]}" = --root ] && root=${_roce_doctor_ctx[i + 1]}
	done
	for n in "$root"/sys/class/net/*; do [ -e "$n" ] && printf '%s\n' "${n##*/}"; done
}

# check's ids and their areas as check --list gives them (--only and --skip take both); a comma list completes
# its last item
_roce_doctor_check_ids()
{
	local cur=$1 head=""
	case $cur in *,*) head=${cur%,*},; cur=${cur##*,} ;; esac
	compgen -P "$head" -W "$("$_roce_doctor_bin" check --list 2>/dev/null |
		awk 'NR > 1 { print $1; print $2 }' | sort -u)" -- "$cur"
}

# The users check --user judges: the --root tree's etc/passwd (root alone in a tree without one, as check
# reads it), the one user a --from snapshot recorded (check --from judges no other), this host's otherwise.
_roce_doctor_users()
{
	local cur=$1 i v
	for ((i = 0; i < ${#_roce_doctor_ctx[@]}; i += 2)); do
		v=${_roce_doctor_ctx[i + 1]}
		case ${_roce_doctor_ctx[i]} in
			--root)
				if [ -e "$v/etc/passwd" ]; then
					compgen -W "$(awk -F: '!/^#/ && NF > 1 { print $1 }' "$v/etc/passwd" 2>/dev/null)" -- "$cur"
				else
					compgen -W root -- "$cur"
				fi
				return ;;
			--from)
				[ "$v" != - ] && compgen -W "$(tr -d ' \t\r\n' < "$v" 2>/dev/null |
					grep -o '"user":{"name":"[^"]*"' | head -1 | cut -d'"' -f6)" -- "$cur"
				return ;;
		esac
	done
	compgen -u -- "$cur"
}

# Whether option OPT takes a value (given as the next word or after =).
_roce_doctor_takes_value()
{
	case $1 in
		--root|--peer-fixture|--from|--family|--format|--op|--wait|--mtu|--socket-if|--netdev|--user|--color|\
		--output|--secret-file|--allow|\
		-d|--device|--only|--skip|--peer|--bind|-p|--port|-s|--size|-n|--iters|-D|--duration|-q|--qps|\
		-t|--tx-depth|-I|--inline|-x|--gid-index|--timeout|--max-mem|--max-qps|--max-seconds|--master-port|\
		--nccl-version|--expect-gbps|--expect-link-pct|\
		--plan|--plan-kind|--rails|--seconds|--rank|--rendezvous) return 0 ;;
	esac
	return 1
}

# The values of option OPT for command CMD that match CUR, one a line (none for a free number or address).
_roce_doctor_values()
{
	local cmd=$1 opt=$2 cur=$3
	case $opt in
		--root|--peer-fixture) compgen -d -- "$cur" ;;
		--from) compgen -f -- "$cur" ;;
		--family) compgen -W "ipv4 ipv6" -- "$cur" ;;
		--format)
			case $cmd in
				nccl-env) compgen -W "sh env json docker k8s" -- "$cur" ;;
				check|bw|lat) compgen -W "text json junit prometheus" -- "$cur" ;;
			esac ;;
		--output|--secret-file) compgen -f -- "$cur" ;;
		--op) compgen -W "write read send" -- "$cur" ;;
		--wait) compgen -W "auto poll event" -- "$cur" ;;
		--plan-kind) compgen -W "all-pairs ring rail" -- "$cur" ;;
		--mtu) compgen -W "256 512 1024 2048 4096" -- "$cur" ;;
		--socket-if|--netdev) compgen -W "$(_roce_doctor_netdevs)" -- "$cur" ;;
		--user) _roce_doctor_users "$cur" ;;
		--color) compgen -W "auto always never" -- "$cur" ;;
		-d|--device) compgen -W "$(_roce_doctor_devices)" -- "$cur" ;;
		--only|--skip) _roce_doctor_check_ids "$cur" ;;
	esac
}

# Everything else a word of command CMD can be: its options and its operands.
_roce_doctor_words_of()
{
	local cmd=$1 cur=$2
	case $cmd in
		"") compgen -W "$_roce_doctor_commands help $_roce_doctor_host --version" -- "$cur" ;;
		help) compgen -W "$_roce_doctor_commands" -- "$cur" ;;
		devices) compgen -W "--brief $_roce_doctor_host $(_roce_doctor_devices)" -- "$cur" ;;
		gid) compgen -W "--suggest --family --peer --netdev --nccl-version $_roce_doctor_host $(_roce_doctor_devices)" -- "$cur" ;;
		check) compgen -W "--only --skip --list --family --user --color --peer --master-port --no-bw --timeout \
			--secret-file --peer-fixture --format $_roce_doctor_host" -- "$cur" ;;
		nccl-env) compgen -W "--format --socket-if --nccl-version --family --peer --master-port --timeout --secret-file --peer-fixture \
			$_roce_doctor_host" -- "$cur" ;;
		nccl) compgen -W "--nccl-version --root --from $_roce_doctor_quiet" -- "$cur" ;;
		topo) compgen -W "--root --from $_roce_doctor_quiet" -- "$cur" ;;
		snapshot) compgen -W "--json-lines --root $_roce_doctor_quiet" -- "$cur" ;;
		compare)
			case $cur in
				-*) compgen -W "--family $_roce_doctor_common -" -- "$cur" ;;
				*) compgen -f -- "$cur" ;;
			esac ;;
		explain)
			case $cur in
				-*) compgen -W "--with-check --list --family --root --from $_roce_doctor_quiet -" -- "$cur" ;;
				*) compgen -f -- "$cur" ;;
			esac ;;
		counters) compgen -W "--interval --count --format --root $_roce_doctor_quiet $(_roce_doctor_devices)" -- "$cur" ;;
		serve) compgen -W "--bind --port --device --gid-index --max-mem --max-qps --max-seconds --allow --secret-file \
			$_roce_doctor_log" -- "$cur" ;;
		bw) compgen -W "--op --bidir --size --sweep --iters --duration --qps --qps-sweep --tx-depth --inline --wait --expect-gbps \
			--expect-link-pct --device --gid-index --mtu --port --timeout --secret-file --format --no-verify $_roce_doctor_common" -- "$cur" ;;
		mesh) compgen -W "--plan --plan-kind --rails --seconds --dry-run --rank --size --rendezvous --root --from \
			--message-size --expect-gbps --expect-link-pct --time-limit --register-timeout --serve-port --plot \
			--timeout --secret-file $_roce_doctor_quiet" -- "$cur" ;;
		lat) compgen -W "--size --sweep --iters --inline --device --gid-index --mtu --port --timeout --secret-file --format --no-verify \
			$_roce_doctor_common" -- "$cur" ;;
	esac
}

_roce_doctor()
{
	local i w cmd="" cur prev opt strip="" rl
	local -a _roce_doctor_words=() _roce_doctor_ctx=() reply=()
	local _roce_doctor_bin=${COMP_WORDS[0]:-roce-doctor}
	# bash splits --opt=VALUE and DEV:PORT at = and : (COMP_WORDBREAKS); join them back into the words
	# roce-doctor will see, and hand back only the part after the last break, which readline replaces.
	for ((i = 0; i <= COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if ((i > 1)) && [[ $w == [=:] || ${COMP_WORDS[i - 1]} == [=:] ]]; then
			_roce_doctor_words[-1]+=$w
		else
			_roce_doctor_words+=("$w")
		fi
	done
	cur=${_roce_doctor_words[-1]}
	prev=""
	((${#_roce_doctor_words[@]} > 1)) && prev=${_roce_doctor_words[-2]}
	for ((i = 1; i < ${#_roce_doctor_words[@]} - 1; i++)); do
		case ${_roce_doctor_words[i]} in
			--root|--from) ((i++)) ;;
			-*) ;;
			*) cmd=${_roce_doctor_words[i]}; break ;;
		esac
	done
	_roce_doctor_context
	case $cur in
		--*=*) opt=${cur%%=*}; cur=${cur#*=}; mapfile -t reply < <(_roce_doctor_values "$cmd" "$opt" "$cur") ;;
		*) if _roce_doctor_takes_value "$prev"; then
			mapfile -t reply < <(_roce_doctor_values "$cmd" "$prev" "$cur")
		else
			mapfile -t reply < <(_roce_doctor_words_of "$cmd" "$cur")
		fi ;;
	esac
	# file answers get a / after directories (compopt in the process substitutions above would not reach here)
	case ${opt:-$prev} in --root|--from|--peer-fixture) compopt -o filenames 2>/dev/null ;; esac
	[ "$cmd" = compare ] && [ -z "$opt" ] && [[ $cur != -* ]] && compopt -o filenames 2>/dev/null
	rl=${COMP_WORDS[COMP_CWORD]}
	[[ $rl == [=:] ]] && rl=""
	strip=${cur%"$rl"}
	COMPREPLY=("${reply[@]#"$strip"}")
}
complete -F _roce_doctor roce-doctor
