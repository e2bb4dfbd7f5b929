#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor mesh's run on 127.0.0.1: several mesh processes with --rank/--size/--rendezvous, each with its own
# serve (a free port): registration, the rounds, the answer on rank 0 (text, mesh/v1 JSON, the SVG); a rank
# that never comes and a stranger's bytes on the rendezvous port (named, the rest goes on); a rank killed
# mid-run (ROCE_DOCTOR_TEST_MESH_KILL_ROUND); two processes claiming one rank; the job's token (another token,
# none, a forged proof) and a hostile client's frames; --time-limit; a half-there
# launcher environment under each launcher, several ranks on one node, N = 1, a rank that cannot reach rank 0
# (one line each, every option it names one mesh takes). Without an RDMA device bw
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
	env -i PATH="$PATH" ${MESH_ENV:-} "$BIN" mesh --rank 0 --size "$size" --rendezvous "127.0.0.1:$port" --serve-port 0 \
		--seconds 1 "$@" > "$out" 2> "$err"; rc=$?
	wait
}
rc_of() { cat "$dir/$1.rc" 2>/dev/null; }
mesh_help=$("$BIN" mesh --help)
# every --option FILE names is one `roce-doctor mesh --help` lists, but a launcher's own (srun --ntasks-per-node)
options_exist() {
	python3 - "$1" "$mesh_help" <<'PY'
import re, sys
text, helptext = open(sys.argv[1]).read(), sys.argv[2]
wrong = [m.group(0) for m in re.finditer(r"(?<![a-z-])--[a-z][a-z-]*", text)
         if re.findall(r"[a-z]+", text[:m.start()])[-1:] not in (["srun"], ["mpirun"], ["torchrun"], ["mpiexec"])
         and not re.search(re.escape(m.group(0)) + r"(?![a-z-])", helptext)]
if wrong:
    print("# options mesh does not take: %s" % wrong)
sys.exit(1 if wrong else 0)
PY
}
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
py 'any(w.startswith("ranks 0 and 1 both run on ") and "one rank per node: srun --ntasks-per-node=1" in w for w in d["warnings"])'
result "3 ranks on one host: rank 0 warns that they share its NICs" $?
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

# ---- the job's token: a rank with another token, or none, is refused and named; the right one still gets in ----
port=$(free_port)
tok=ROCE_DOCTOR_MESH_TOKEN=job-4242-c2VjcmV0LXRva2Vu
MESH_ENV=$tok mesh_bg "$port" 3 1 --register-timeout 10
MESH_ENV=ROCE_DOCTOR_MESH_TOKEN=another-token-of-this-user mesh_bg "$port" 3 2 --register-timeout 10
( sleep 1.5; env -i PATH="$PATH" "$BIN" mesh --rank 2 --size 3 --rendezvous "127.0.0.1:$port" --serve-port 0 \
	--register-timeout 10 > "$dir/none.out" 2> "$dir/none.err"; echo $? > "$dir/none.rc" ) 2> /dev/null &
( sleep 4; env -i PATH="$PATH" "$tok" "$BIN" mesh --rank 2 --size 3 --rendezvous "127.0.0.1:$port" --serve-port 0 \
	--register-timeout 10 > "$dir/late.out" 2> "$dir/late.err"; echo $? > "$dir/late.rc" ) 2> /dev/null &
MESH_ENV=$tok mesh_0 "$port" 3 --register-timeout 10 --json
[ "$(rc_of 2)" = 3 ] && [ "$(wc -l < "$dir/2.err")" -eq 1 ] &&
	grep -q "did not take rank 2's registration: rank 2's proof does not match rank 0's token (ROCE_DOCTOR_MESH_TOKEN)" "$dir/2.err" &&
	options_exist "$dir/2.err"
result "token: a rank with another token is refused, one line, exit 3" $?
py 'any(w.startswith("refused a registration from 127.0.0.1") and "proof does not match" in w for w in d["warnings"])'
result "token: rank 0 names the refused connection's address" $?
[ "$(cat "$dir/none.rc")" = 3 ] && grep -q "rank 2 gave no proof of the job's token, and rank 0 holds one" "$dir/none.err" &&
	options_exist "$dir/none.err"
result "token: a rank without one is refused, and told why" $?
py '[n["state"] for n in d["nodes"]] == ["ok"] * 3 and not any("had no job token" in w for w in d["warnings"])'
result "token: the refused took no place: rank 2 with the token registered after them" $?
[ "$(rc_of 1)" = 0 ] && [ "$(cat "$dir/late.rc")" = 0 ]; result "token: the ranks with it end cleanly" $?
port=$(free_port)
MESH_ENV=$tok mesh_bg "$port" 2 1 --register-timeout 4
mesh_0 "$port" 2 --register-timeout 4 --json
[ "$(rc_of 1)" = 3 ] && [ "$(wc -l < "$dir/1.err")" -eq 1 ] &&
	grep -q "rank 1 holds a job token (ROCE_DOCTOR_MESH_TOKEN) but rank 0 at 127.0.0.1 port $port runs without one" "$dir/1.err"
result "token: a rank with one facing a rank 0 without: one line, exit 3" $?
py 'any("the control connection had no job token: whoever reached TCP port" in w for w in d["warnings"])'
result "no token: rank 0 warns that the control connection was open" $?
ROCE_DOCTOR_MESH_TOKEN=short bad "a token under 16 bytes" 64 '^roce-doctor: mesh: ROCE_DOCTOR_MESH_TOKEN holds 5 bytes: expected 16 to 4096' -- \
	mesh --rank 1 --size 2 --rendezvous 127.0.0.1:1
[ "$(wc -l < "$err")" -eq 1 ]; result "a token under 16 bytes: one line" $?

# ---- a hostile client on the rendezvous port: an oversized frame, garbage, a frame cut short and left hanging, a
# registration with a forged proof, a silent connection; rank 0 names them, bounded in time, and the run goes on ----
# (the ranks come 3 s after the stranger: rank 0 stops listening once every rank is in)
port=$(free_port)
( sleep 3; MESH_ENV=$tok mesh_bg "$port" 3 1 --register-timeout 15; MESH_ENV=$tok mesh_bg "$port" 3 2 --register-timeout 15
	wait ) &
python3 - "$port" > "$dir/hostile.out" 2>&1 <<'PY' &
import json, os, socket, struct, sys, time
port = int(sys.argv[1])
def conn():
    for _ in range(100):
        try:
            return socket.create_connection(("127.0.0.1", port), timeout=5)
        except OSError:
            time.sleep(0.05)
    sys.exit("rank 0 never listened")
def frame(obj):
    body = json.dumps(obj).encode()
    return b"RDM1" + struct.pack(">I", len(body)) + body
held = []
for data in (b"RDM1" + struct.pack(">I", 0xFFFFFFFF) + b"x" * 4096, os.urandom(65536),
             b"RDM1" + struct.pack(">I", 200000) + b"{" * 100,
             frame({"type": "register", "version": 2, "rank": 1, "size": 3, "host": "evil", "serve_port": 1,
                    "serve_error": "", "tool_version": "x", "devices": 0, "rails": [],
                    "proof": {"nonce": "00" * 32, "mac": "11" * 32}}), b""):
    s = conn()
    try:
        s.sendall(data)
    except OSError:
        pass
    held.append(s)
time.sleep(8)
PY
start=$(date +%s)
MESH_ENV=$tok mesh_0 "$port" 3 --register-timeout 15 --json
took=$(( $(date +%s) - start ))
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ]; result "hostile client: rank 0 neither crashes nor hangs (exit $rc in $took s)" $?
py '[n["state"] for n in d["nodes"]] == ["ok"] * 3 and d["nodes"][1]["host"] != "evil" and d["rounds_run"] == 3'
result "hostile client: the forged rank 1 took no place, every rank registered, the rounds ran" $?
py 'any("a frame of 4294967295 bytes: expected 1 to 262144" in w for w in d["warnings"]) and any("not a roce-doctor mesh frame" in w for w in d["warnings"]) and any("rank 1\x27s proof does not match" in w for w in d["warnings"])'
result "hostile client: the oversized frame, the garbage and the forged proof named" $?
[ "$took" -lt 40 ]; result "hostile client: rank 0 done in $took s (under 40)" $?

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
	grep -qE "^roce-doctor: mesh: rank 1 cannot reach rank 0 at 127\.0\.0\.1 port $port \(from --rendezvous\) within 1 s: Connection refused; nothing listens there: rank 0's mesh did not start" "$err" &&
	! grep -q "roce-doctor serve" "$err" && options_exist "$err"
result "a rank that cannot reach rank 0: one line naming its address, exit 3" $?
start=$(date +%s)
out_rc PATH="$PATH" "$BIN" mesh --rank 1 --size 2 --rendezvous no-such-host.invalid --serve-port 0 --register-timeout 2
[ "$rc" -eq 3 ] && [ "$(wc -l < "$err")" -eq 1 ] && [ $(( $(date +%s) - start )) -lt 10 ] &&
	grep -qE "^roce-doctor: mesh: rank 1 cannot reach rank 0 at no-such-host\.invalid port 18517 \(from --rendezvous\) within 2 s: cannot resolve no-such-host\.invalid: .*; give --rendezvous rank 0's address" "$err" &&
	options_exist "$err"
result "rank 0's host does not resolve: one line, exit 3, within the wait" $?

# the launcher's environment half there, several ranks on one node, N = 1: one line each naming the variables,
# exit 64, before anything starts; every option a line suggests is one mesh takes
half_there() { # NAME PATTERN VAR=value...
	local name=$1 pattern=$2; shift 2
	env -i PATH="$PATH" "$@" "$BIN" mesh --serve-port 0 --register-timeout 1 > "$out" 2> "$err"; rc=$?
	[ "$rc" -eq 64 ] && [ ! -s "$out" ] && [ "$(wc -l < "$err")" -eq 1 ] && grep -qE -- "^roce-doctor: mesh: $pattern" "$err" &&
		options_exist "$err"
	result "$name: one line, exit 64" $?
}
half_there "SLURM_PROCID without SLURM_NTASKS" 'SLURM_PROCID is set but not SLURM_NTASKS: .*give --rank, --size and --rendezvous' SLURM_PROCID=1
half_there "SLURM_NTASKS without SLURM_PROCID" 'SLURM_NTASKS is set but not SLURM_PROCID' SLURM_NTASKS=4 SLURM_NODELIST=n1
half_there "OMPI_COMM_WORLD_RANK without its SIZE" 'OMPI_COMM_WORLD_RANK is set but not OMPI_COMM_WORLD_SIZE' OMPI_COMM_WORLD_RANK=1
half_there "PMI_RANK without PMI_SIZE" 'PMI_RANK is set but not PMI_SIZE' PMI_RANK=0
half_there "WORLD_SIZE without RANK" 'WORLD_SIZE is set but not RANK' WORLD_SIZE=2 MASTER_ADDR=h
half_there "RANK and WORLD_SIZE without MASTER_ADDR" 'RANK and WORLD_SIZE are set but not MASTER_ADDR: .*--rendezvous HOST' RANK=1 WORLD_SIZE=2
half_there "Open MPI without a rank 0 host" "Open MPI's environment names no rank 0 host: give --rendezvous HOST" \
	OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2
half_there "two torchrun ranks on one host" 'LOCAL_WORLD_SIZE=2: 2 ranks on this node; mesh runs one rank per node \(torchrun --nproc-per-node=1\)' \
	RANK=1 WORLD_SIZE=4 LOCAL_WORLD_SIZE=2 MASTER_ADDR=h
half_there "two Open MPI ranks on one host" 'OMPI_COMM_WORLD_LOCAL_SIZE=2: .*\(mpirun --map-by ppr:1:node\)' \
	OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_LOCAL_SIZE=2
half_there "two MPICH ranks on one host" 'MPI_LOCALNRANKS=2: .*\(mpiexec -ppn 1\)' PMI_RANK=1 PMI_SIZE=4 MPI_LOCALNRANKS=2
half_there "two Slurm tasks per node" 'SLURM_NTASKS=4 ranks on SLURM_NNODES=2 nodes: mesh runs one rank per node \(srun --ntasks-per-node=1\)' \
	SLURM_PROCID=1 SLURM_NTASKS=4 SLURM_NNODES=2 'SLURM_NODELIST=n[1-2]'
half_there "N = 1 under torchrun" 'WORLD_SIZE=1: a mesh needs at least 2 nodes' RANK=0 WORLD_SIZE=1 MASTER_ADDR=h
half_there "N = 1 under srun" 'SLURM_NTASKS=1: a mesh needs at least 2 nodes' SLURM_PROCID=0 SLURM_NTASKS=1 SLURM_NODELIST=n1
bad "--rendezvous with a bad port" 64 "bad --rendezvous port '99999'" -- mesh --rank 0 --size 2 --rendezvous h:99999
bad "--plot with --plan" 64 'go with a run, not --plan or --dry-run' -- mesh --plan 4 --plot x.svg
bad "--rails in a run" 64 '--rails goes with --plan or --dry-run' -- mesh --rank 0 --size 2 --rendezvous h --rails 2
bad "--expect-gbps 0" 64 "bad --expect-gbps '0'" -- mesh --rank 0 --size 2 --rendezvous h --expect-gbps 0
bad "--message-size 9M" 64 "bad --message-size '9M'" -- mesh --rank 0 --size 2 --rendezvous h --message-size 9M
tap_end
