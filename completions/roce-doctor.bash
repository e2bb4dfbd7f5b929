# bash completion for roce-doctor
_roce_doctor_devices()
{
	local d
	for d in /sys/class/infiniband/*; do
		[ -e "$d" ] && printf '%s\n' "${d##*/}"
	done
}

_roce_doctor()
{
	local cur prev cmd i
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
			--root) ((i++)) ;;
			-*) ;;
			*) cmd=${COMP_WORDS[i]}; break ;;
		esac
	done
	case $prev in
		--root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
		--family) COMPREPLY=($(compgen -W "ipv4 ipv6" -- "$cur")); return ;;
		--peer) return ;;
	esac
	case $cmd in
		"") COMPREPLY=($(compgen -W "devices gid help --json --root --verbose --help --version" -- "$cur")) ;;
		help) COMPREPLY=($(compgen -W "devices gid" -- "$cur")) ;;
		devices) COMPREPLY=($(compgen -W "--brief --json --help $(_roce_doctor_devices)" -- "$cur")) ;;
		gid) COMPREPLY=($(compgen -W "--suggest --family --peer --json --help $(_roce_doctor_devices)" -- "$cur")) ;;
	esac
}
complete -F _roce_doctor roce-doctor
