#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# check --peer end to end on fixture pairs (tests/cli/pair_fixtures.py: the field notes' two-rail pair and one
# change per case), the peer read through --peer-fixture: exact finding ids, the node each is marked with, the
# fix on that node, exit codes; bad options and bad peer files. Usage: pair_test.sh ROCE_DOCTOR FIXTURES
BIN=$1 FIXTURES=$2
. "$(dirname "$0")/../lib/tap.sh"
. "$(dirname "$0")/../lib/serve_port.sh"


# python3 may be a slow shim (pyenv): ask it once for the interpreter itself
py=$(python3 -c 'import sys; print(sys.executable)')
# findings: the JSON report's findings, shown and covered, one "id|severity|node|fix|by" line each (fix lines
# joined by " / "; by: "ID/NODE" of the finding that covers it, empty when shown)
findings() { "$py" "$(dirname "$0")/pair_report_lines.py" "$out" > "$scratch/findings"; }
# has ID SEVERITY NODE [FIX-PATTERN]: a finding of the last findings (NODE a, b or null), shown or covered
has() { grep -qE -- "^$1\|$2\|$3\|.*${4:-}" "$scratch/findings"; }
# shown ID SEVERITY NODE: a finding shown; covered ID NODE BY: one covered by BY ("pair.rdma/b")
shown() { grep -qE -- "^$1\|$2\|$3\|.*\|$" "$scratch/findings"; }
covered() { grep -qE -- "^$1\|[a-z]+\|$2\|.*\|$3$" "$scratch/findings"; }
# worse_than_info: the shown findings worse than info, "id/node" sorted, one line
worse_than_info() { awk -F'|' '$5 == "" && ($2 == "warn" || $2 == "fail") { print $1 "/" $3 }' "$scratch/findings" | sort | tr '\n' ' '; }
fx=$scratch/pairs
"$py" "$(dirname "$0")/pair_fixtures.py" "$BIN" "$FIXTURES" "$fx" || { echo "Bail out! pair fixtures"; exit 1; }
worst_pair() { "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); s=[f["severity"] for f in d["findings"] if f["origin"]=="pair"]; print(max(s, key=["ok","info","warn","fail"].index) if s else "none")' "$out"; }
# peer CASE [ARGS...]: check --peer on the case's pair, node a from its snapshot (with --json: its findings)
peer() {
	local c=$1; shift
	run --from "$fx/$c/a.json" check --peer 192.168.88.2 --peer-fixture "$fx/$c/peer" "$@"
	case " $* " in *" --json "*) findings ;; esac
}

peer clean
[ "$rc" -eq 0 ] && grep -q '^verdict: info (a: node-a, b: node-b' "$out" && grep -qE '^1 +mlx5_0/1 ens19f0np0 192.168.88.1 +mlx5_0/1 ens19f0np0 192.168.88.2 +192.168.88.0/24 +9000/9000 +5/5 +ok +23.60 +94' "$out"
result "clean pair: exit 0, verdict first, rail table with subnet, MTU, GID, RDMA, bw, link %" $?
peer clean --json
json_ok roce-doctor/pair/v1 && [ "$rc" -eq 0 ] && [ "$(worst_pair)" = ok ] && has pair.rail ok null && has pair.rdma ok null && has pair.bootstrap ok null && has pair.bw ok null && has pair.gid_index ok null
result "clean pair --json: pair/v1, every pair finding ok" $?
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rails"]; sys.exit(0 if len(r)==2 and r[1]["a"]["device"]=="mlx5_1" and r[1]["b"]["address"]=="192.168.88.22" and r[0]["link"]=="same_subnet" and d["bootstrap"][1]["port"]==29500 and d["nodes"][1]["hostname"]=="node-b" else 1)' "$out"
result "pair/v1: rails, bootstrap probes and nodes as documented" $?

peer b-mtu-1500 --json
[ "$rc" -eq 2 ] && has pair.mtu warn b 'ip link set dev ens19f1np1 mtu 9000   # on b' && has pair.rdma fail b 'ip link set dev ens19f1np1 mtu 9000' && has netdev.mtu warn b && has compare.mtu warn null
result "B's MTU 1500 on one rail: pair.mtu [b], the failed rail is the path MTU on b, b's own netdev.mtu, compare.mtu" $?
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rails"]; sys.exit(0 if r[0]["rdma"]=="ok" and r[1]["rdma"]=="timeout" else 1)' "$out"
result "B's MTU 1500: the other rail passes" $?
# one cause, one finding: the failed rail on b, the seven others covered by it; the exit status its fail
[ "$rc" -eq 2 ] && [ "$(worse_than_info)" = "pair.rdma/b " ] && shown pair.rdma fail b &&
	covered port.active_mtu b pair.rdma/b && covered netdev.mtu b pair.rdma/b && covered pair.mtu b pair.rdma/b &&
	covered compare.mtu null pair.rdma/b && covered compare.active_mtu null pair.rdma/b &&
	[ "$(grep -c '^compare.check_summary|warn|null|.*|pair.rdma/b$' "$scratch/findings")" -eq 2 ] &&
	"$py" -c 'import json,sys; d=json.load(open(sys.argv[1]))
f = [f for f in d["findings"] if f["id"] == "pair.rdma" and f["node"] == "b"][0]
c = sorted((x["id"], x["node"]) for x in f["covers"])
sys.exit(0 if c == [("compare.active_mtu", None), ("compare.check_summary", None), ("compare.check_summary", None),
                    ("compare.mtu", None), ("netdev.mtu", "b"), ("pair.mtu", "b"), ("port.active_mtu", "b")]
         and d["counts"]["fail"] == 1 and d["counts"]["warn"] == 0 and d["verdict"] == "fail" else 1)' "$out"
result "B's MTU 1500: one finding (pair.rdma [b], fail) covers the seven others, listed with their node" $?
peer b-mtu-1500
[ "$rc" -eq 2 ] && [ "$(grep -cE '^  (WARN|FAIL) ' "$out")" -eq 1 ] && grep -qE '^  FAIL  \[b\] pair.rdma ' "$out" &&
	grep -qx '        covers: port.active_mtu \[b\], netdev.mtu \[b\], compare.mtu, compare.active_mtu, compare.check_summary (netdev.mtu), compare.check_summary (port.active_mtu), pair.mtu \[b\]' "$out" &&
	grep -q 'a (node-a) has netdev MTU 9000 on ens19f1np1, b (node-b) has 1500 on ens19f1np1' "$out"
result "B's MTU 1500, text: one FAIL line, its covers line, a has 9000 and b has 1500 said plainly" $?
COLUMNS=100 peer b-mtu-1500 --color=always
sed 's/\x1b\[[0-9;]*m//g' "$out" > "$scratch/plain"
# prose wraps to the terminal as check's does; the rail table and the fix lines (pasted as printed) do not
long=$(awk 'length > 100 && !/^[0-9]+ +mlx5_/ && !/^RAIL / && !/^        (fix: |     )/' "$scratch/plain")
[ -z "$long" ] && grep -qE '^ {35}192\.168\.88\.22 \(GID 5\)' "$scratch/plain" &&
	grep -qx '        fix: ip link set dev ens19f1np1 mtu 9000   # on b (node-b)' "$scratch/plain" &&
	grep -qx '             # to keep it: nmcli connection modify ens19f1np1 802-3-ethernet.mtu 9000' "$scratch/plain"
result "a terminal 100 columns wide: findings and covers wrap under their text, fix lines stay whole" $?
peer b-mtu-1500 -v
grep -A3 -E '^  WARN  \[b\] netdev.mtu ' "$out" | grep -qx '        covered by: pair.rdma \[b\]' &&
	grep -A2 -E '^  WARN  \[b\] netdev.mtu ' "$out" | grep -q 'nmcli connection modify ens19f1np1' &&
	grep -qE '^  WARN  compare.mtu ' "$out" && grep -qE '^  WARN  \[b\] pair.mtu ' "$out"
result "B's MTU 1500, -v: the covered findings in full, each with what covers it" $?

peer b-gid-index-pinned --json
[ "$rc" -eq 2 ] && has pair.gid_index fail b 'export NCCL_IB_GID_INDEX=7   # on b' && has pair.gid_index ok a && has pair.rdma fail b 'NCCL_IB_GID_INDEX=7' && ! has pair.gid_index fail a
result "B's GID at 7, index 5 pinned on both: b named with 7, a's pin is right" $?
peer b-gid-index-pinned
grep -qE '^1 .* 5/7 +timeout' "$out"
result "B's GID index: the rail table shows 5/7" $?

peer b-bootstrap-blocked --json
[ "$rc" -eq 2 ] && has pair.bootstrap fail b 'nft insert rule inet filter input tcp dport \{ 29500, 32768-60999 \} accept   # on b' && has pair.rdma ok null && has firewall.rules fail b
result "bootstrap blocked on B: pair.bootstrap [b] with b's nft rule, RDMA passes" $?
peer b-bootstrap-blocked --json --master-port 28002
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["master_port"]==28002 and d["bootstrap"][1]["port"]==28002 else 1)' "$out" && has pair.bootstrap fail b 'tcp dport \{ 28002, 32768-60999 \}'
result "--master-port 28002: probed and in b's fix" $?

peer b-udp-4791-one-rail --json
[ "$rc" -eq 2 ] && has pair.rdma fail b 'nft insert rule inet filter input udp dport 4791 accept   # on b' && has pair.rdma ok null && has pair.bw info null && ! has pair.bw warn null
result "udp 4791 dropped on one of B's rails (rxe): that rail fails on b, the other passes, bw only reported" $?

peer b-nic-down --json
[ "$rc" -eq 2 ] && has pair.rail fail b 'ip link set dev ens19f1np1 up   # on b' && has port.state info b && has pair.rdma ok null
result "one of B's NICs down: pair.rail [b] with ip link set up, b's port.state (b alone runs NCCL on its other port)" $?

peer b-serve-gone --json
[ "$rc" -eq 2 ] && has pair.rdma fail b 'roce-doctor serve   # on b' && ! has pair.bootstrap ok null && ! has pair.bootstrap fail b && "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rails"]; sys.exit(0 if r[0]["rdma"]=="peer_gone" and r[1]["rdma"]=="not_run" and d["bootstrap"]==[] else 1)' "$out"
result "b's serve gone on the first rail: rail 2 and the bootstrap probes not asked of it, pair.rdma [b] to start it again" $?

peer b-serve-frozen-bw --json
[ "$rc" -eq 2 ] && has pair.bw fail b 'roce-doctor serve   # on b' && has pair.rdma ok null && "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["rails"]; sys.exit(0 if r[0]["rdma"]=="ok" and r[1]["rdma"]=="not_run" and d["bootstrap"]==[] else 1)' "$out"
result "b's serve frozen in the first rail's bw: pair.bw [b] to start it again, nothing more asked" $?

peer no-arp-ignore --json
[ "$rc" -eq 1 ] && has pair.same_subnet warn a 'arp_ignore=1' && has pair.same_subnet warn b 'sysctl --system   # on b' && has net.same_subnet warn a && has net.same_subnet warn b
result "both rails in one /24 without arp_ignore: pair.same_subnet and net.same_subnet on a and on b, exit 1" $?

peer b-nic-down
grep -qE '^  FAIL  \[b\] pair.rail ' "$out" && grep -q '^\[b\] node-b: its own check' "$out" && grep -q '^compare (the two snapshots):' "$out"
result "text: findings marked [a]/[b], own checks per node, compare, pair" $?
peer clean -v
grep -qE '^  OK    pair.rdma ' "$out" && ! grep -q 'not shown' "$out"
result "-v prints the ok findings too" $?
peer clean --only memlock --json
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if all(f["id"].startswith("memlock") for f in d["findings"] if f["origin"]=="check") and any(f["origin"]=="check" for f in d["findings"]) else 1)' "$out"
result "--only applies to both nodes' own findings" $?

# bad input: one line, documented exit, nothing on stdout
bad "--no-bw without --peer" 64 'need --peer ADDR' -- --from "$fx/clean/a.json" check --no-bw
bad "--peer-fixture without --peer" 64 'need --peer ADDR' -- --from "$fx/clean/a.json" check --peer-fixture "$fx/clean/peer"
bad "--timeout without --peer" 64 'needs --peer ADDR' -- --from "$fx/clean/a.json" check --timeout 3
bad "--user with --peer" 64 'cannot be used with --peer' -- --from "$fx/clean/a.json" check --peer 192.168.88.2 --user root
bad "--master-port 0" 64 'master-port' -- --from "$fx/clean/a.json" check --peer 192.168.88.2 --master-port 0
bad "--peer with a space" 64 "bad --peer 'a b'" -- --from "$fx/clean/a.json" check --peer 'a b'
bad "--peer with no serve listening there" 3 'cannot connect to 127.0.0.1:1: Connection refused' -- --from "$fx/clean/a.json" check --peer 127.0.0.1:1
bad "--peer with a port out of range" 64 "bad port in --peer '127.0.0.1:70000'" -- --from "$fx/clean/a.json" check --peer 127.0.0.1:70000
bad "--peer-fixture that does not exist" 3 'probes.json: No such file' -- --from "$fx/clean/a.json" check --peer x --peer-fixture "$scratch/none"
mkdir -p "$scratch/bad" && cp "$fx/clean/peer/snapshot.json" "$scratch/bad/"
echo '{"rails": [{"a": "mlx5_0/1", "b": "mlx5_0/1", "rdma": {"outcome": "sideways"}}], "tcp": []}' > "$scratch/bad/probes.json"
bad "probes.json with an unknown outcome" 3 'rails\[0\]\.rdma\.outcome: expected ok' -- --from "$fx/clean/a.json" check --peer x --peer-fixture "$scratch/bad"
echo '{"rails": [], "tcp": [{"purpose": "ephemeral", "port": 70000, "outcome": "arrived"}]}' > "$scratch/bad/probes.json"
bad "probes.json with a port out of range" 3 'tcp\[0\]\.port: expected 1 to 65535' -- --from "$fx/clean/a.json" check --peer x --peer-fixture "$scratch/bad"
echo '{"rails": [' > "$scratch/bad/probes.json"
bad "probes.json that is not JSON" 3 'probes.json: line' -- --from "$fx/clean/a.json" check --peer x --peer-fixture "$scratch/bad"
cp "$fx/clean/peer/probes.json" "$scratch/bad/" && head -c 3000 "$fx/clean/peer/snapshot.json" > "$scratch/bad/snapshot.json"
bad "the peer's snapshot cut short" 3 "the peer x's snapshot: .*snapshot.json" -- --from "$fx/clean/a.json" check --peer x --peer-fixture "$scratch/bad"
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); d["system"]=None; json.dump(d, open(sys.argv[2],"w"))' "$fx/clean/peer/snapshot.json" "$scratch/bad/snapshot.json"
bad "the peer's snapshot without system sources" 3 "the peer's snapshot was taken without the system sources" -- --from "$fx/clean/a.json" check --peer x --peer-fixture "$scratch/bad"

# roce-doctor-checks(7)'s PAIR section holds exactly the ids the pair rules can emit (pair_ids[] in
# src/core/pair_findings.c)
src=$(cd "$FIXTURES/../.." && pwd)
. "$src/tests/lib/checks_man.sh"
man_ids=$(checks_man_ids "$src/man/roce-doctor-checks.7" PAIR)
code_ids=$(sed -n '/pair_ids\[\] = {/,/};/p' "$src/src/core/pair_findings.c" | grep -oE '"pair\.[a-z_]+"' | tr -d '"' | sort)
used_ids=$(grep -ohE '"pair\.[a-z_]+"' "$src"/src/core/pair_rails_check.c "$src"/src/core/pair_classify.c "$src"/src/core/qos/pair_qos.c | tr -d '"' | sort -u)
[ -n "$man_ids" ] && [ "$man_ids" = "$code_ids" ] && [ "$code_ids" = "$used_ids" ]
result "roce-doctor-checks(7)'s PAIR, pair_ids[] and the ids the rules add are the same" $?

# nccl-env --peer: one environment for both nodes and the launch lines
env_peer() { local c=$1; shift; run --from "$fx/$c/a.json" nccl-env --peer 192.168.88.2 --peer-fixture "$fx/$c/peer" "$@"; }
env_peer clean
[ "$rc" -eq 0 ] && grep -qx "export NCCL_IB_GID_INDEX='5'   # the RoCE v2 GID of every rail on both nodes" "$out" && grep -q "^export NCCL_IB_HCA='=mlx5_0:1,mlx5_1:1'" "$out" && grep -q '^# on b (node-b): torchrun --nnodes=2 --nproc-per-node=1 --node-rank=1 --master-addr=192.168.88.1 --master-port=29500 train.py$' "$out" && grep -q 'mpirun -np 2 -H 192.168.88.1:1,192.168.88.2:1 .*-x NCCL_IB_GID_INDEX=5' "$out"
result "nccl-env --peer, agreeing nodes: the common GID index, torchrun per node, mpirun -x" $?
( set -e; eval "$(cat "$out")"; [ "$NCCL_IB_GID_INDEX" = 5 ] && [ "$NCCL_SOCKET_IFNAME" = =ens19f0np0 ] )
result "nccl-env --peer's sh evaluates" $?
env_peer b-gid-index-pinned
[ "$rc" -eq 0 ] && grep -q '^unset NCCL_IB_GID_INDEX' "$out" && ! grep -q '^export NCCL_IB_GID_INDEX' "$out" && grep -q "^export NCCL_IB_ADDR_FAMILY='AF_INET'" "$out" && grep -q "^# on b (node-b) only: echo 'NCCL_IB_GID_INDEX=7' >> ~/.nccl.conf" "$out" && grep -q "^# on a (node-a) only: echo 'NCCL_IB_GID_INDEX=5'" "$out"
result "nccl-env --peer, indexes 5 and 7: unset with NCCL >= 2.21, each node's own for older NCCL" $?
env_peer b-gid-index-pinned --format json --master-port 28002
json_ok roce-doctor/nccl-env-peer/v1 && "$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["unset"]==["NCCL_IB_GID_INDEX"] and d["nodes"][1]["own"][0]["value"]=="7" and "--master-port=28002" in d["nodes"][0]["torchrun"] else 1)' "$out"
result "nccl-env --peer --format json: nccl-env-peer/v1 with each node's own values" $?
env_peer b-nic-down
grep -q "^export NCCL_IB_HCA='=mlx5_0:1'" "$out"
result "nccl-env --peer, a NIC of B down: NCCL_IB_HCA of the rail both nodes have" $?
bad "nccl-env --peer --format docker" 64 'sh or json' -- --from "$fx/clean/a.json" nccl-env --peer x --format docker
bad "nccl-env --peer --socket-if" 64 'cannot be used with --peer' -- --from "$fx/clean/a.json" nccl-env --peer x --socket-if eth0
bad "nccl-env --peer-fixture without --peer" 64 'need --peer ADDR' -- --from "$fx/clean/a.json" nccl-env --peer-fixture "$fx/clean/peer"

# The real serve client against a real serve on 127.0.0.1: this host itself is refused (exit 64, one line,
# nothing asked of the serve); with node a from a fixture's snapshot, this host is a real peer b (no RDMA device
# on a CI machine, so no rail is probed); then a serve that stops answering (SIGSTOP): one line naming the peer,
# exit 3, within the --timeout per request.
"$BIN" serve --bind 127.0.0.1 --port 0 >"$scratch/serve.log" 2>&1 &
spid=$!
sport=$(serve_port "$scratch/serve.log" "$spid")
for self in 127.0.0.1 localhost $(ip -o -4 addr show scope global 2>/dev/null | awk '{ sub("/.*", "", $4); print $4; exit }'); do
	run check --peer "$self:$sport" --no-bw
	[ "$rc" -eq 64 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 1 ] && grep -q "^roce-doctor: --peer $self:$sport is this host (an address of [a-z0-9]* here)" "$err" &&
		! grep -q "done: snapshot of" "$scratch/serve.log"
	result "check --peer $self (this host, a serve listening): exit 64, one line, no snapshot asked" $?
done
run nccl-env --peer "127.0.0.1:$sport"
[ "$rc" -eq 64 ] && [ ! -s "$out" ] && grep -q "is this host" "$err"
result "nccl-env --peer 127.0.0.1: this host, exit 64" $?
run --from "$fx/clean/a.json" check --peer "127.0.0.1:$sport" --json --no-bw
json_ok roce-doctor/pair/v1 && [ "$rc" -le 2 ] && grep -q "done: snapshot of" "$scratch/serve.log" &&
	"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["nodes"][1]["node"]=="b" else 1)' "$out"
result "check --peer against a real serve, a from a snapshot: pair/v1, B's snapshot asked over the wire" $?
kill -STOP "$spid"
start=$(date +%s)
run --from "$fx/clean/a.json" check --peer "127.0.0.1:$sport" --timeout 2
took=$(($(date +%s) - start))
[ "$rc" -eq 3 ] && [ ! -s "$out" ] && grep -q "the peer 127.0.0.1:$sport's snapshot" "$err" && [ "$took" -le 8 ]
result "check --peer, serve stopped: exit 3 in ${took}s (--timeout 2), one line" $?
kill -KILL "$spid" 2>/dev/null; wait "$spid" 2>/dev/null

tap_end
