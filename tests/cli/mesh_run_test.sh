#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor mesh's run on 127.0.0.1: several mesh processes with --rank/--size/--rendezvous, each with its own
# serve (a free port): registration, the rounds, the answer on rank 0 (text, mesh/v1 JSON, the SVG); a rank
# that never comes and a stranger's bytes on the rendezvous port (named, the rest goes on); a rank killed
# mid-run (ROCE_DOCTOR_TEST_MESH_KILL_ROUND); two processes claiming one rank; --time-limit; a half-there
# launcher environment, N = 1, a rank that cannot reach rank 0 (one line each). Without an RDMA device bw
# fails, and each pair is reported failed with bw's own reason: the honest answer on such a host.
#   mesh_run_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
# shellcheck source=../lib/serve_port.sh
. "$(dirname "$0")/../lib/serve_port.sh"
dir=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$dir"' EXIT
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
no_rdma() { [ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]; }

# mesh PORT SIZE RANK [ARGS...]: one rank in the background under env -i (MESH_ENV: variables for it, MESH_ROOT:
# its --root), its output in $dir/RANK.{out,err,rc}
mesh_bg() {
	local port=$1 size=$2 rank=$3; shift 3
	( env -i PATH="$PATH" ${MESH_ENV:-} "$BIN" ${MESH_ROOT:+--root "$MESH_ROOT"} mesh --rank "$rank" --size "$size" --rendezvous "127.0.0.1:$port" \
		--serve-port 0 --seconds 1 "$@" > "$dir/$rank.out" 2> "$dir/$rank.err"; echo $? > "$dir/$rank.rc" ) 2> /dev/null &
}
# rank 0 in the foreground: $out, $err, $rc
mesh_0() {
	local port=$1 size=$2; shift 2
	env -i PATH="$PATH" "$BIN" mesh --rank 0 --size "$size" --rendezvous "127.0.0.1:$port" --serve-port 0 --seconds 1 \
		"$@" > "$out" 2> "$err"; rc=$?
	wait
}
rc_of() { cat "$dir/$1.rc" 2>/dev/null; }
# no mesh's serve child (argv "roce-doctor --json serve --port 0") is left, within 2 s
no_serve_left() {
	for _ in $(seq 20); do
		pgrep -f '^roce-doctor --json serve --port 0' > /dev/null || return 0
		sleep 0.1
	done
	return 1
}

# ---- three ranks: registration, 3 rounds, every pair once ----
port=$(free_port)
mesh_bg "$port" 3 1 --register-timeout 20
mesh_bg "$port" 3 2 --register-timeout 20
mesh_0 "$port" 3 --register-timeout 20 --json --plot "$dir/mesh.svg"
json_ok roce-doctor/mesh/v1; result "3 ranks: rank 0 prints one mesh/v1 document" $?
py 'd["size"] == 3 and d["rounds"] == 3 and d["rounds_run"] == 3 and sorted((r["a"], r["b"]) for r in d["results"]) == [(0, 1), (0, 2), (1, 2)] and all(n["state"] == "ok" and n["serve_port"] > 0 for n in d["nodes"])'
result "3 ranks: all registered, 3 rounds, every pair once" $?
py 'all((d["results"][c]["a"], d["results"][c]["b"]) == (min(i, j), max(i, j)) if i != j else c is None for i, row in enumerate(d["matrix"][0]["cells"]) for j, c in enumerate(row))'
result "3 ranks: the matrix's cells name each pair's result, both halves" $?
py 'all(r["state"] == "measured" or (r["state"] == "failed" and r["attempts"] == 2 and r["why"]) for r in d["results"])'
result "3 ranks: each pair measured, or failed after its retry with a reason" $?
if no_rdma; then
	py 'd["verdict"] == "failed" and all("no RDMA devices on this host" in r["why"] and r["why"].startswith("bw exit 2: ") for r in d["results"]) and d["all_bad"] and d["suspects"] == []'
	result "3 ranks without RDMA: every pair failed with bw's own reason, no node suspect" $?
	[ "$rc" -eq 1 ]; result "3 ranks without RDMA: rank 0 exits 1" $?
fi
[ "$(rc_of 1)" = 0 ] && [ "$(rc_of 2)" = 0 ] && [ ! -s "$dir/1.out" ] && [ ! -s "$dir/2.out" ]
result "3 ranks: the others exit 0 and print nothing (the answer is rank 0's)" $?
grep -q '<svg' "$dir/mesh.svg" && [ "$(grep -c '<rect x=' "$dir/mesh.svg")" -ge 9 ]
result "--plot: an SVG heatmap with a cell per pair and half" $?
if no_rdma; then grep -q '>x</text>' "$dir/mesh.svg"; result "--plot: failed cells marked" $?; fi
no_serve_left; result "3 ranks: no serve left behind" $?

# ---- a rail plan over two rails (the model of cx6lx-2port on every rank): each rail's pairs once, its two
# bw runs side by side, each with the device of its rail ----
port=$(free_port)
MESH_ROOT=$FIX/cx6lx-2port mesh_bg "$port" 3 1 --register-timeout 20 --plan-kind rail
MESH_ROOT=$FIX/cx6lx-2port mesh_bg "$port" 3 2 --register-timeout 20 --plan-kind rail
env -i PATH="$PATH" "$BIN" --root "$FIX/cx6lx-2port" mesh --rank 0 --size 3 --rendezvous "127.0.0.1:$port" --serve-port 0 \
	--seconds 1 --register-timeout 20 --plan-kind rail --json > "$out" 2> "$err"; rc=$?
wait
py 'd["kind"] == "rail" and d["rails"] == 2 and d["rounds_run"] == 3 and sorted((r["a"], r["b"], r["rail"]) for r in d["results"]) == sorted((a, b, k) for k in (0, 1) for a in range(3) for b in range(a + 1, 3)) and [x["device"] for x in d["nodes"][0]["rails"]] == ["mlx5_0", "mlx5_1"]'
result "rail plan, 2 rails: every same-rail pair once, rails from rank 0's model" $?
if no_rdma; then
	py 'all(("mlx5_%d" % r["rail"]) in r["why"] for r in d["results"] if r["a"] == 0)'
	result "rail plan: rank 0's bw runs name their rail's device (bw's own reason)" $?
fi

# ---- the text answer, the matrix ----
port=$(free_port)
mesh_bg "$port" 2 1 --register-timeout 20
mesh_0 "$port" 2 --register-timeout 20
grep -qE '^mesh: all-pairs over 2 nodes \(options\), 1 rail: 1 of 1 rounds' "$out" && grep -qE '^verdict: ' "$out" &&
	grep -qE '^rail 0, Gb/s' "$out"
result "text: the header, the verdict and the matrix" $?
if no_rdma; then
	grep -qE '^  rank 0 \(.*\) -> rank 1 \(.*\), rail 0 \(retried\): bw exit 2: cannot test the link to 127\.0\.0\.1: no RDMA devices' "$out"
	result "text: the failed pair with bw's reason" $?
fi

# ---- a rank that never comes, and a stranger's bytes on the port ----
port=$(free_port)
mesh_bg "$port" 3 1 --register-timeout 3
( for _ in $(seq 50); do printf 'GET / HTTP/1.0\r\n\r\n' > "/dev/tcp/127.0.0.1/$port" && break; sleep 0.1; done ) 2>/dev/null &
mesh_0 "$port" 3 --register-timeout 3 --json
py 'd["nodes"][2]["state"] == "missing" and "never registered within 3 s" in d["nodes"][2]["why"] and d["counts"]["nodes_missing"] == 1 and d["verdict"] == "failed"'
result "a rank that never comes: named, with why" $?
py '[(r["a"], r["b"], r["state"]) for r in d["results"] if r["state"] != "not_run"] == [(0, 1, r["state"]) for r in d["results"] if (r["a"], r["b"]) == (0, 1)] and all("rank 2 never registered" in r["why"] for r in d["results"] if 2 in (r["a"], r["b"]))'
result "a rank that never comes: its pairs not measured, the rest ran" $?
py 'any("was not a mesh registration: not a roce-doctor mesh frame" in w for w in d["warnings"])'
result "a stranger on the rendezvous port: a warning, the run goes on" $?
[ "$rc" -eq 1 ]; result "a rank missing: rank 0 exits 1" $?

# ---- a rank killed mid-run ----
port=$(free_port)
mesh_bg "$port" 4 1 --register-timeout 20
MESH_ENV=ROCE_DOCTOR_TEST_MESH_KILL_ROUND=2 mesh_bg "$port" 4 3 --register-timeout 20
mesh_bg "$port" 4 2 --register-timeout 20
mesh_0 "$port" 4 --register-timeout 20 --json
py 'd["nodes"][3]["state"] == "died" and d["nodes"][3]["why"].startswith("died in round 2: ") and d["rounds_run"] == 3'
result "a rank killed in round 2: named, the rounds go on" $?
py 'all(r["state"] != "not_run" for r in d["results"] if r["round"] == 1) and all(r["state"] == "not_run" and "rank 3 died in round 2" in r["why"] for r in d["results"] if 3 in (r["a"], r["b"]) and r["round"] is None) and any(r["round"] == 3 and 3 not in (r["a"], r["b"]) and r["state"] != "not_run" for r in d["results"])'
result "a rank killed: its later pairs not measured, the others measured" $?
[ "$(rc_of 3)" = 137 ]; result "the killed rank died by SIGKILL (the hook)" $?
no_serve_left; result "a rank killed: its serve went with it" $?

# ---- a rank whose serve cannot listen (its port is rank 0's rendezvous): its pairs fail with the serve's reason,
# and no bw is tried against it ----
port=$(free_port)
( env -i PATH="$PATH" "$BIN" mesh --rank 0 --size 3 --rendezvous "127.0.0.1:$port" --serve-port 0 --seconds 1 \
	--register-timeout 10 > "$out" 2> "$err"; echo $? > "$dir/0.rc" ) &
sleep 1
mesh_bg "$port" 3 1 --register-timeout 10
( env -i PATH="$PATH" "$BIN" mesh --rank 2 --size 3 --rendezvous "127.0.0.1:$port" --serve-port "$port" \
	--register-timeout 10 > /dev/null 2>&1 ) &
wait
grep -qE "^  rank 2's serve did not start: cannot listen on every address port $port: Address already in use" "$out" &&
	[ "$(grep -cE "^  rank [01] \(.*\) -> rank 2 \(.*\), rail 0: rank 2's serve did not start: cannot listen" "$out")" -eq 2 ]
result "a serve that cannot listen: named, its pairs failed with its reason" $?

# ---- two processes claiming one rank: rank 0 first, then rank 1, the second rank 1, rank 2 last ----
port=$(free_port)
( env -i PATH="$PATH" "$BIN" mesh --rank 0 --size 3 --rendezvous "127.0.0.1:$port" --serve-port 0 --seconds 1 \
	--register-timeout 10 --json > "$out" 2> "$err"; echo $? > "$dir/0.rc" ) &
sleep 0.5
mesh_bg "$port" 3 1 --register-timeout 10
sleep 1
( env -i PATH="$PATH" "$BIN" mesh --rank 1 --size 3 --rendezvous "127.0.0.1:$port" --serve-port 0 --register-timeout 10 \
	> "$dir/dup.out" 2> "$dir/dup.err"; echo $? > "$dir/dup.rc" ) &
sleep 1
mesh_bg "$port" 3 2 --register-timeout 10
wait
[ "$(cat "$dir/dup.rc")" = 3 ] && [ "$(wc -l < "$dir/dup.err")" -eq 1 ] &&
	grep -q "did not take rank 1's registration: rank 1 is already registered from" "$dir/dup.err"
result "a second rank 1: refused, one line, exit 3" $?
py 'any("refused a registration" in w and "rank 1 is already registered" in w for w in d["warnings"]) and [n["state"] for n in d["nodes"]] == ["ok"] * 3'
result "a second rank 1: rank 0 warns, keeps the first, goes on" $?

# ---- --time-limit: a round that would pass it is not run (here the first: 1 s of bw + 3 s of setup > 2 s) ----
port=$(free_port)
for r in 1 2 3; do mesh_bg "$port" 4 $r --register-timeout 20; done
mesh_0 "$port" 4 --register-timeout 20 --time-limit 2 --json
py 'd["rounds_run"] == 0 and d["counts"]["not_run"] == 6 and all("--time-limit 2 s came first (round " in r["why"] for r in d["results"]) and d["verdict"] == "incomplete"'
result "--time-limit: stops before a round that would pass it, lists the pairs not measured" $?
[ "$rc" -eq 1 ]; result "--time-limit: incomplete is exit 1" $?
[ "$(rc_of 1)" = 0 ] && [ "$(rc_of 3)" = 0 ]; result "--time-limit: the other ranks end cleanly" $?

# ---- bad input: one line each ----
bad "N = 1" 64 '^roce-doctor: mesh: --size=1: a mesh needs at least 2 nodes' -- mesh --rank 0 --size 1 --rendezvous 127.0.0.1
[ "$(wc -l < "$err")" -eq 1 ]; result "N = 1: one line" $?
out_rc() { env -i "$@" > "$out" 2> "$err"; rc=$?; }
out_rc PATH="$PATH" RANK=1 "$BIN" mesh
[ "$rc" -eq 64 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] && grep -q 'RANK is set but not WORLD_SIZE' "$err"
result "a half-there launcher environment: one line, exit 64" $?
out_rc PATH="$PATH" "$BIN" mesh
[ "$rc" -eq 64 ] && grep -q "no launcher's environment" "$err" && [ "$(wc -l < "$err")" -eq 1 ]
result "no launcher at all: one line, exit 64" $?
port=$(free_port)
out_rc PATH="$PATH" "$BIN" mesh --rank 1 --size 2 --rendezvous "127.0.0.1:$port" --serve-port 0 --register-timeout 1
[ "$rc" -eq 3 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] &&
	grep -qE "^roce-doctor: mesh: rank 1 cannot reach rank 0 at 127\.0\.0\.1 port $port \(from --rendezvous\) within 1 s: .*Connection refused" "$err"
result "a rank that cannot reach rank 0: one line, exit 3" $?
bad "--rendezvous with a bad port" 64 "bad --rendezvous port '99999'" -- mesh --rank 0 --size 2 --rendezvous h:99999
bad "--plot with --plan" 64 'go with a run, not --plan or --dry-run' -- mesh --plan 4 --plot x.svg
bad "--rails in a run" 64 '--rails goes with --plan or --dry-run' -- mesh --rank 0 --size 2 --rendezvous h --rails 2
bad "--expect-gbps 0" 64 "bad --expect-gbps '0'" -- mesh --rank 0 --size 2 --rendezvous h --expect-gbps 0
bad "--message-size 9M" 64 "bad --message-size '9M'" -- mesh --rank 0 --size 2 --rendezvous h --message-size 9M
tap_end
