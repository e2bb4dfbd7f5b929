#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The bash, zsh and fish completions, each driven through its own shell (tests/lib/complete.sh): commands,
# options, fixed values, check ids from check --list, device names and netdevs of the --root tree or --from
# snapshot on the line, users. docs_test.sh holds every option of every --help to each shell; this holds
# what the completions compute.
#   completions_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$(realpath "$1") fixtures=$(realpath "$2")
src=$(dirname "$fixtures")/..
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/complete.sh"
mkdir "$scratch/bin"
ln -s "$BIN" "$scratch/bin/roce-doctor"
export PATH=$scratch/bin:$PATH
"$BIN" --root "$fixtures/gb10-twin" snapshot > "$scratch/gb10.json"
# check-seed000's snapshot records the user root; its etc/passwd has root, tutu, alice and svc
"$BIN" --root "$fixtures/check-seed000" snapshot > "$scratch/seed.json" 2> /dev/null
# a user of this host that no fixture has
host_user=$(getent passwd | cut -d: -f1 | grep -vxE 'root|tutu|alice|svc' | head -1)

commands=$("$BIN" --help | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }')
ids=$("$BIN" check --list | awk 'NR > 1 { print $1 }')
areas=$("$BIN" check --list | awk 'NR > 1 { print $2 }' | sort -u)
# LINE|WANTED...|UNWANTED...: what each shell must offer for LINE, and what it must not
cases=(
	"roce-doctor |$commands help|"
	"roce-doctor help |$commands|help"
	"roce-doctor check --|--only --skip --list --root --from --family --user --color --json|--brief --op"
	"roce-doctor check --only |$ids $areas|"
	"roce-doctor check --skip |$ids $areas|"
	"roce-doctor check --only=memlock.p|memlock.pam|memlock.limit port.state"
	"roce-doctor check --skip port.state,gid.r|gid.rocev2|gid.env"
	"roce-doctor nccl-env --format |sh env json docker k8s|"
	"roce-doctor nccl-env --format=d|docker|sh"
	"roce-doctor bw --op |write read send|"
	"roce-doctor gid --family |ipv4 ipv6|"
	"roce-doctor bw --wait=|auto poll event|"
	"roce-doctor check --color |auto always never|"
	"roce-doctor lat --mtu |256 1024 4096|"
	"roce-doctor --root $fixtures/eight-hca devices |mlx5_0 mlx5_9 mlx5_3/1 eth7|rxe0"
	"roce-doctor --root=$fixtures/softroce bw -d |rxe0 rxe0/1 eth0|mlx5_0"
	"roce-doctor --root $fixtures/softroce serve --device=r|rxe0 rxe0/1|eth0"
	"roce-doctor gid --root $fixtures/cx6lx-2port --netdev |eno1 ens19f0np0 ens19f1np1|eth0"
	"roce-doctor --root $fixtures/cx6lx-vlan nccl-env --socket-if |ens19f0np0|eth0"
	"roce-doctor --from $scratch/gb10.json gid roce|roceP2p1s0f0 rocep1s0f1/1|mlx5_0"
	"roce-doctor check --user roo|root|"
	"roce-doctor topo --|--root --json|--verbose"
	"roce-doctor explain --|--list --json|--verbose"
	"roce-doctor compare --|--verbose --json|"
	"roce-doctor --root $fixtures/check-seed000 check --user |root tutu alice svc|$host_user"
	"roce-doctor check --root=$fixtures/check-seed000 --user=a|alice|root tutu"
	"roce-doctor check --root $fixtures/eight-hca --user |root|$host_user"
	"roce-doctor check --from $scratch/seed.json --user |root|tutu alice $host_user"
)
lines=()
for c in "${cases[@]}"; do lines+=("${c%%|*}"); done

for sh in bash zsh fish; do
	if ! command -v "$sh" > /dev/null; then
		n=$((n + 1)); echo "ok $n # SKIP $sh is not installed (tools/install-deps installs it)"; continue
	fi
	# one shell answers every line
	complete_in "$sh" "$src/completions" "${lines[@]}" > "$scratch/offered" 2> "$err"
	rc=$?
	: > "$out"
	result "$sh answers" "$rc"
	# every answer, and after a comma its last item too (there bash and fish answer the whole list, zsh
	# its last item): looked up in bash, not a grep per word
	declare -A have=()
	while IFS=$'\t' read -r i w; do have["$i ${w##*,}"]=1 have["$i $w"]=1; done < "$scratch/offered"
	for i in "${!cases[@]}"; do
		rest=${cases[i]#*|}
		missing="" extra=""
		for w in ${rest%%|*}; do [ -n "${have["$((i + 1)) $w"]-}" ] || missing="$missing $w"; done
		for w in ${rest#*|}; do [ -n "${have["$((i + 1)) $w"]-}" ] && extra="$extra $w"; done
		[ -z "$missing$extra" ]
		ok=$?
		[ $ok -ne 0 ] && echo "# lacks:$missing; offers:$extra; offered: $(sed -n "s/^$((i + 1))	//p" "$scratch/offered" | head -20 | tr '\n' ' ')"
		result "$sh: ${lines[i]/$fixtures/FIXTURES}" $ok
	done
done

# bash: the function is registered for the command name, as bash-completion loads it
bash --norc -c ". '$src/completions/roce-doctor.bash' && complete -p roce-doctor" > "$out" 2> "$err"
rc=$?
grep -qx 'complete -F _roce_doctor roce-doctor' "$out"
result "bash: complete -p roce-doctor names _roce_doctor" $?
tap_end
