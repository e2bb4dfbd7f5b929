# bash completion for roce-doctor
_roce_doctor_commands="devices gid check nccl-env nccl topo snapshot compare explain serve bw lat"

# Devices, DEV/PORT, and the netdevs under them: every spelling a device argument takes.
_roce_doctor_devices()
{
	local d p n
	for d in /sys/class/infiniband/*; do
		[ -e "$d" ] || continue
		printf '%s\n' "${d##*/}"
		for p in "$d"/ports/*; do
			[ -e "$p" ] && printf '%s/%s\n' "${d##*/}" "${p##*/}"
		done
		for n in "$d"/ports/*/gid_attrs/ndevs/*; do
			n=$(cat "$n" 2>/dev/null) && [ -n "$n" ] && printf '%s\n' "$n"
		done
	done | sort -u
}

# check's ids (and, for --only, their areas) as check --list gives them; a comma list completes its last item
_roce_doctor_check_ids()
{
	local bin=$1 what=$2 cur=$3 head="" ids
	case $cur in *,*) head=${cur%,*},; cur=${cur##*,} ;; esac
	ids=$("$bin" check --list 2>/dev/null | awk 'NR > 1 { print $1; if (w == "only") print $2 }' w="$what" | sort -u)
	COMPREPLY=($(compgen -P "$head" -W "$ids" -- "$cur"))
}

_roce_doctor()
{
	local cur prev cmd="" i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
			--root|--from|--output) ((i++)) ;;
			-*) ;;
			*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	case $prev in
		--root|--peer-fixture) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		--from|--output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		--family) COMPREPLY=($(compgen -W "ipv4 ipv6" -- "$cur")); return ;;
		--format) case $cmd in
				check|bw|lat) COMPREPLY=($(compgen -W "text json junit prometheus" -- "$cur")) ;;
				*) COMPREPLY=($(compgen -W "sh env json docker k8s" -- "$cur")) ;;
			esac; return ;;
		--op) COMPREPLY=($(compgen -W "write read send" -- "$cur")); return ;;
		--wait) COMPREPLY=($(compgen -W "auto poll event" -- "$cur")); return ;;
		--mtu) COMPREPLY=($(compgen -W "256 512 1024 2048 4096" -- "$cur")); return ;;
		--socket-if|--netdev) COMPREPLY=($(compgen -W "$(ls /sys/class/net 2>/dev/null)" -- "$cur")); return ;;
		--user) COMPREPLY=($(compgen -u -- "$cur")); return ;;
		--secret-file) COMPREPLY=($(compgen -f -- "$cur")); return ;;
		--color) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
		-d|--device) COMPREPLY=($(compgen -W "$(_roce_doctor_devices)" -- "$cur")); return ;;
		--only) _roce_doctor_check_ids "${COMP_WORDS[0]}" only "$cur"; return ;;
		--skip) _roce_doctor_check_ids "${COMP_WORDS[0]}" skip "$cur"; return ;;
		--peer|--bind|-p|--port|-s|--size|-n|--iters|-D|--duration|-q|--qps|-t|--tx-depth|\
		-I|--inline|-x|--gid-index|--timeout|--max-mem|--max-qps|--max-seconds|--master-port|--nccl-version|--allow) return ;;
	esac
	case $cmd in
		"") COMPREPLY=($(compgen -W "$_roce_doctor_commands help --json --output --pretty --compact --root --from --verbose --help --version -h" -- "$cur")) ;;
		help) COMPREPLY=($(compgen -W "$_roce_doctor_commands" -- "$cur")) ;;
		devices) COMPREPLY=($(compgen -W "--brief --from --json --output --pretty --compact --verbose --help $(_roce_doctor_devices)" -- "$cur")) ;;
		gid) COMPREPLY=($(compgen -W "--suggest --family --peer --netdev --nccl-version --from --json --output --pretty --compact --verbose --help $(_roce_doctor_devices)" -- "$cur")) ;;
		check) COMPREPLY=($(compgen -W "--only --skip --list --family --user --color --from --peer --master-port --no-bw --timeout --secret-file --peer-fixture --verbose --json --format --output --pretty --compact --help" -- "$cur")) ;;
		nccl-env) COMPREPLY=($(compgen -W "--format --socket-if --nccl-version --family --from --peer --master-port --secret-file --peer-fixture --json --output --pretty --compact --verbose --help" -- "$cur")) ;;
		nccl) COMPREPLY=($(compgen -W "--nccl-version --from --json --output --pretty --compact --verbose --help" -- "$cur")) ;;
		topo) COMPREPLY=($(compgen -W "--json --output --pretty --compact --verbose --help" -- "$cur")) ;;
		snapshot) COMPREPLY=($(compgen -W "--json-lines --json --output --pretty --compact --verbose --help" -- "$cur")) ;;
		compare) COMPREPLY=($(compgen -W "--family --json --output --pretty --compact --verbose --help - $(compgen -f -- "$cur")" -- "$cur")) ;;
		explain) COMPREPLY=($(compgen -W "--with-check --list --family --from --json --output --pretty --compact --verbose --help - $(compgen -f -- "$cur")" -- "$cur")) ;;
		serve) COMPREPLY=($(compgen -W "--bind --port --device --gid-index --max-mem --max-qps --max-seconds --allow --secret-file --json --verbose --help" -- "$cur")) ;;
		bw) COMPREPLY=($(compgen -W "--op --bidir --size --sweep --iters --duration --qps --tx-depth --inline --wait --expect-gbps --expect-link-pct --device --gid-index --mtu --port --timeout --secret-file --no-verify --json --format --output --pretty --compact --verbose --help" -- "$cur")) ;;
		lat) COMPREPLY=($(compgen -W "--size --sweep --iters --inline --device --gid-index --mtu --port --timeout --secret-file --no-verify --json --format --output --pretty --compact --verbose --help" -- "$cur")) ;;
	esac
}
complete -F _roce_doctor roce-doctor
