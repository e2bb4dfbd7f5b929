#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor mesh --plan and --dry-run: the plans' rounds and times for a few N, the mesh-plan/v1 document,
# each launcher's environment through env -i (so nothing of the runner's own leaks in), the half-there ones,
# bad input, the time and size of every plan at 4096 nodes, and mesh without --plan/--dry-run outside any launcher (exit 64).
#   mesh_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
# under env -i: VAR=value... -- ARGS...
run_env() {
	local vars=()
	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	env -i "${vars[@]}" "$BIN" "$@" > "$out" 2> "$err"; rc=$?
}
bad_env() { # NAME RC PATTERN VAR=value... -- ARGS...
	local name=$1 want=$2 pattern=$3; shift 3
	run_env "$@"
	[ "$rc" -eq "$want" ] && [ ! -s "$out" ] && grep -qE -- "$pattern" "$err" && [ "$(wc -l < "$err")" -eq 1 ]
	result "$name" $?
}
T=$FIX/cx6lx-2port   # two RoCE ports: mlx5_0/1 ens19f0np0, mlx5_1/1 ens19f1np1

# ---- --plan: rounds, pairs and time ----
expect "--plan 8: 7 rounds of 4 pairs, 35 s" 0 '^estimated time: 35 s \(7 rounds x 5 s\)$' -- mesh --plan 8
grep -qxF '  round 1: 0-7 1-6 2-5 3-4' "$out"; result "--plan 8: round 1 by the circle method" $?
[ "$(grep -c '^  round ' "$out")" -eq 7 ]; result "--plan 8: 7 rounds listed" $?
# every pair exactly once over the listed rounds, no node twice in one
awk '/^  round / { delete seen; for (i = 3; i <= NF; i++) { split($i, p, "-"); if (seen[p[1]]++ || seen[p[2]]++) bad = 1; pairs[$i]++ } }
	END { n = 0; for (k in pairs) { n++; if (pairs[k] != 1) bad = 1 } exit !(n == 28 && !bad) }' "$out"
result "--plan 8: 28 distinct pairs, no node twice in a round" $?
expect "--plan 7: 7 rounds, each with one node out" 0 '^  round 7: .*\(out: 6\)$' -- mesh --plan 7
expect "--plan 5 --plan-kind ring: 3 rounds (an odd ring)" 0 '^3 rounds, 5 tests in all' -- mesh --plan 5 --plan-kind ring
grep -qxF '  round 3: 0-4 (out: 1 2 3)' "$out"; result "ring of 5: the closing edge in the third round" $?
expect "--plan 6 --plan-kind ring: 2 rounds" 0 '^2 rounds, 6 tests in all' -- mesh --plan 6 --plan-kind ring
expect "--plan 4 --plan-kind rail --rails 2: each rail its own pairs, side by side" 0 \
	'^  round 1: rail 0: 0-3 1-2; rail 1: 0-3 1-2$' -- mesh --plan 4 --plan-kind rail --rails 2 --seconds 5
grep -qxF 'estimated time: 24 s (3 rounds x 8 s)' "$out"; result "rail plan: a round is one test, the rails at once" $?
expect "--plan 4 --rails 2: all-pairs runs the rails in turn" 0 '^estimated time: 30 s \(3 rounds x 10 s\)$' -- \
	mesh --plan 4 --rails 2
expect "--plan 4096: a summary, 5.7 h" 0 '^estimated time: 5\.7 h \(4095 rounds x 5 s\)$' -- mesh --plan 4096
! grep -q '^  round ' "$out"; result "--plan 4096: the rounds are not listed" $?

# ---- --json ----
run mesh --plan 6 --plan-kind rail --rails 2 --json
json_ok roce-doctor/mesh-plan/v1; result "--json: one mesh-plan/v1 document" $?
py 'd["kind"] == "rail" and d["nodes"] == 6 and d["rails"] == 2 and d["rounds"] == 5 and d["tests"] == 30 and d["warnings"] == [] and d["estimated_seconds"] == 25.0'
result "--json: kind, nodes, rails, rounds, tests, time, warnings" $?
py 'all(t["rail"] in (0, 1) for r in d["schedule"] for t in r["tests"]) and sorted((t["a"], t["b"], t["rail"]) for r in d["schedule"] for t in r["tests"]) == sorted((a, b, k) for k in (0, 1) for a in range(6) for b in range(a + 1, 6))'
result "--json: the rail plan's schedule holds every same-rail pair once" $?
run mesh --plan 1000 --json
py 'd["schedule"] is None and d["rounds"] == 999 and d["tests"] == 499500'
result "--json --plan 1000: the counts without the schedule" $?
# every plan at 4096 nodes and at 256 with 64 rails, text and JSON: well under a second each here; the bound is
# generous (ASan, a loaded runner) but far below the 36 s and 1.3 GB a 2-million-test schedule once took
for kind in all-pairs ring rail; do
	for args in "--plan 4096 --rails 8" "--plan 256 --rails 64"; do
		for fmt in --text --json; do
			# shellcheck disable=SC2086
			start=$(date +%s%N); timeout 20 "$BIN" mesh $args --plan-kind $kind ${fmt/--text/} > "$out" 2> "$err"; rc=$?
			ms=$(( ($(date +%s%N) - start) / 1000000 ))
			[ "$rc" -eq 0 ] && [ "$ms" -lt 5000 ] && [ "$(wc -c < "$out")" -lt 2000000 ]
			result "--plan-kind $kind $args ${fmt#--}: in ${ms} ms (under 5 s), under 2 MB" $?
		done
	done
done
run --json mesh --plan 256 --plan-kind rail --rails 64
py 'd["schedule"] is None and d["tests"] == 2088960'
result "--json: a schedule of 2 million tests is left out, its counts kept" $?

# ---- bad input ----
bad "--plan 1: at least 2 nodes" 64 '^roce-doctor: mesh: bad --plan 1: a mesh needs at least 2 nodes' -- mesh --plan 1
bad "--plan 0: at least 2 nodes" 64 'bad --plan 0: a mesh needs at least 2 nodes' -- mesh --plan 0
bad "--plan 70000: too many" 64 "bad --plan '70000'" -- mesh --plan 70000
bad "--plan x" 64 "bad --plan 'x'" -- mesh --plan x
bad "--plan-kind star" 64 "bad --plan-kind 'star': expected all-pairs, ring or rail" -- mesh --plan 4 --plan-kind star
bad "--rails 0" 64 "bad --rails '0'" -- mesh --plan 4 --rails 0
bad "--seconds 0" 64 "bad --seconds '0'" -- mesh --plan 4 --seconds 0
bad "--plan with --dry-run" 64 '--plan and --dry-run exclude each other' -- mesh --plan 4 --dry-run
bad "--rank with --plan" 64 '--rank, --size and --rendezvous go with a run or --dry-run, not --plan' -- mesh --plan 4 --rank 1
run_env -- mesh
[ "$rc" -eq 64 ] && grep -q "^roce-doctor: mesh: no launcher's environment" "$err" && [ "$(wc -l < "$err")" -eq 1 ]
result "mesh alone, outside a launcher: one line, exit 64 (tests/cli/mesh_run_test.sh runs it)" $?

# ---- --dry-run under each launcher ----
run_env SLURM_PROCID=2 SLURM_NTASKS=4 SLURM_NNODES=4 'SLURM_NODELIST=node[01-03],gpu7' -- --root "$T" mesh --dry-run
[ "$rc" -eq 0 ] && grep -qxF 'launcher: slurm, rank 2 of 4 (node03)' "$out" && grep -qxF 'rendezvous: node01 (from SLURM_NODELIST)' "$out"
result "--dry-run under srun: rank, size, this host and rank 0's from SLURM_NODELIST" $?
grep -qxF "this node's rails: 0=mlx5_0/1 ens19f0np0, 1=mlx5_1/1 ens19f1np1" "$out" && grep -qxF 'plan: all-pairs over 4 nodes, 2 rails each' "$out"
result "--dry-run: this node's RoCE ports are its rails, and the plan has them" $?
grep -q "the plan gives every node this node's 2 rails" "$err"; result "--dry-run: says the plan assumes this node's rails everywhere" $?
run_env RANK=1 WORLD_SIZE=3 LOCAL_WORLD_SIZE=1 MASTER_ADDR=10.9.0.1 MASTER_PORT=29500 -- --root "$T" --json mesh --dry-run --plan-kind ring
py 'd["launch"] == {"launcher": "torchrun", "rank": 1, "size": 3, "rendezvous": "10.9.0.1", "rendezvous_from": "MASTER_ADDR", "host": None} and d["kind"] == "ring" and d["rounds"] == 3 and [r["rail"] for r in d["local_rails"]] == [0, 1]'
result "--dry-run under torchrun: MASTER_ADDR is the rendezvous (--json)" $?
run_env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_LOCAL_SIZE=1 -- --root "$T" mesh --dry-run --rendezvous head01
[ "$rc" -eq 0 ] && grep -qxF 'launcher: openmpi, rank 0 of 2' "$out" && grep -qxF 'rendezvous: head01 (from --rendezvous)' "$out"
result "--dry-run under Open MPI with --rendezvous" $?
run_env PMI_RANK=1 PMI_SIZE=2 -- --root "$T" mesh --dry-run --rendezvous 10.0.0.1
[ "$rc" -eq 0 ] && grep -qxF 'launcher: pmi, rank 1 of 2' "$out"; result "--dry-run under MPICH's Hydra (PMI_RANK, PMI_SIZE)" $?
run_env -- --root "$T" mesh --dry-run --rank 3 --size 5 --rendezvous n1 --rails 1
[ "$rc" -eq 0 ] && grep -qxF 'launcher: options, rank 3 of 5' "$out" && grep -qxF 'plan: all-pairs over 5 nodes, 1 rail each' "$out"
result "--dry-run with --rank/--size/--rendezvous (pdsh), --rails over the model's" $?

# ---- --dry-run: half-there environments, one line each, exit 64 ----
bad_env "SLURM_PROCID without SLURM_NTASKS" 64 'SLURM_PROCID is set but not SLURM_NTASKS' SLURM_PROCID=0 -- --root "$T" mesh --dry-run
bad_env "RANK without WORLD_SIZE" 64 'RANK is set but not WORLD_SIZE' RANK=0 MASTER_ADDR=h -- --root "$T" mesh --dry-run
bad_env "torchrun without MASTER_ADDR" 64 'RANK and WORLD_SIZE are set but not MASTER_ADDR' RANK=0 WORLD_SIZE=2 -- --root "$T" mesh --dry-run
bad_env "rank >= size" 64 'SLURM_PROCID=4 is not below SLURM_NTASKS=4' SLURM_PROCID=4 SLURM_NTASKS=4 'SLURM_NODELIST=n[1-4]' -- --root "$T" mesh --dry-run
bad_env "OMPI without PMI or rendezvous" 64 "Open MPI's environment names no rank 0 host: give --rendezvous HOST" \
	OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=2 -- --root "$T" mesh --dry-run
bad_env "8 Slurm tasks on 2 nodes" 64 'SLURM_NTASKS=8 ranks on SLURM_NNODES=2 nodes: mesh runs one rank per node \(srun --ntasks-per-node=1\)' \
	SLURM_PROCID=0 SLURM_NTASKS=8 SLURM_NNODES=2 'SLURM_NODELIST=n[1-2]' -- --root "$T" mesh --dry-run
bad_env "a malformed SLURM_NODELIST" 64 "bad SLURM_NODELIST 'n\[1-2': a '\[' without its '\]'" \
	SLURM_PROCID=0 SLURM_NTASKS=2 'SLURM_NODELIST=n[1-2' -- --root "$T" mesh --dry-run
bad_env "a size of 1" 64 'WORLD_SIZE=1: a mesh needs at least 2 nodes' RANK=0 WORLD_SIZE=1 MASTER_ADDR=h -- --root "$T" mesh --dry-run
bad_env "no launcher at all" 64 "no launcher's environment" -- --root "$T" mesh --dry-run
bad_env "--rank without --size" 64 '--rank without --size' -- --root "$T" mesh --dry-run --rank 1 --rendezvous h
bad_env "a host without RoCE ports" 3 'this host has no RoCE port' RANK=0 WORLD_SIZE=2 MASTER_ADDR=h -- \
	--root "$FIX/infiniband" mesh --dry-run
tap_end
