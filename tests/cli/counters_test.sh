#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor counters on a copy of the softroce fixture whose hw_counters the measured COMMAND changes between
# the two readings: traffic alone says nothing, retransmits are packets lost on the path, a counter that goes
# back is a reset (never a negative rate), counters that vanish mid-run (a device removed) are one line and
# exit 3, over a command or between --interval readings; pause storms on a lossless priority (qos-pause-storm's
# capture); --json keeps the command's output off stdout; --format prometheus passes promtool; usage errors.
#   counters_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1 FIXTURES=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
. "$src/tests/lib/tap.sh"

T=$scratch/tree
hw=$T/sys/class/infiniband/rxe0/ports/1/hw_counters
fresh() {
	rm -rf "$T"
	cp -a "$FIXTURES/softroce" "$T"
	mkdir -p "$hw" "$T/sys/class/infiniband/rxe0/ports/1/counters"
	for c in sent_pkts rcvd_pkts rcvd_seq_err completer_retry_err duplicate_request; do echo 100 > "$hw/$c"; done
	echo 1000 > "$T/sys/class/infiniband/rxe0/ports/1/counters/port_xmit_data"
}

fresh
expect "traffic alone: nothing to say, exit 0" 0 'nothing to say' -- --root "$T" counters rxe0 -- \
	sh -c "echo 250 > $hw/sent_pkts; echo 5000 > $T/sys/class/infiniband/rxe0/ports/1/counters/port_xmit_data"
grep -q '^  traffic: 2 counters moved' "$out"; result "traffic is counted on one line" $?

fresh
expect "retransmits: packets lost on the path, exit 1" 1 '^  packets lost on the path:$' -- --root "$T" counters -- \
	sh -c "echo 107 > $hw/rcvd_seq_err; echo 103 > $hw/completer_retry_err"
grep -qE '^    rcvd_seq_err +7 ' "$out" && grep -qE '^    completer_retry_err +3 ' "$out" &&
	grep -q '^    -> roce-doctor check --only qos.lossless$' "$out"
result "each moved counter with its delta, and the check of its cause" $?

fresh
run --root "$T" --json counters rxe0/1 -- sh -c "echo 7 > $hw/sent_pkts; echo 101 > $hw/rcvd_pkts; echo said-on-stdout"
python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "roce-doctor/counters/v1" and d["warnings"] == []
p = d["samples"][0]["ports"][0]
assert d["samples"][0]["command_exit"] == 0 and d["command"][0] == "sh"
assert p["resets"] == [{"source": "hw_counters", "name": "sent_pkts"}], p["resets"]
assert [m["name"] for m in p["moved"]] == ["rcvd_pkts"] and p["moved"][0]["delta"] == 1, p["moved"]
assert all(m["rate_per_s"] >= 0 for m in p["moved"])
PY
result "a counter that went back is a reset, not a negative rate; --json stdout is one document" $?
grep -q 'said-on-stdout' "$err"; result "--json: the command's stdout goes to stderr" $?

fresh
bad "counters vanishing mid-run: one line, exit 3" 3 'the counters of rxe0/1 vanished during the run' -- \
	--root "$T" counters -- sh -c "rm -rf $hw $T/sys/class/infiniband/rxe0/ports/1/counters"
[ "$(wc -l < "$err")" -eq 1 ]; result "... and only that line" $?

fresh
run --root "$T" --json counters --interval 0.1 --count 3
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["samples"]) == 3 and "command" not in d' "$out"
result "--interval and --count: one sample per reading" $?

# --interval: a reset in the first interval is said in that sample only; counters vanishing between two readings
# of --interval (not a command) are the same one line and exit 3. The change lands mid-interval (1 s into 3 s).
fresh
( sleep 1; echo 20 > "$hw/sent_pkts" ) &
run --root "$T" --json counters rxe0 --interval 3 --count 2
wait
python3 - "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
first, second = (s["ports"][0] for s in d["samples"])
assert first["resets"] == [{"source": "hw_counters", "name": "sent_pkts"}], first["resets"]
assert second["resets"] == [] and all(m["rate_per_s"] >= 0 and m["delta"] < 1000 for s in (first, second) for m in s["moved"])
PY
result "--interval: a reset is said once, in its own reading, never as a rate" $?
fresh
( sleep 1; rm -rf "$hw" "$T/sys/class/infiniband/rxe0/ports/1/counters" ) &
bad "--interval: counters vanishing between readings: one line, exit 3" 3 'the counters of rxe0/1 vanished during the run' -- \
	--root "$T" counters --interval 3 --count 5
wait
[ "$(wc -l < "$err")" -eq 1 ] && [ ! -s "$out" ]; result "... only that line, no partial report" $?

# the pause rules over a command: a storm on a lossless priority of a ConnectX port (qos-pause-storm, its ethtool -S
# capture changed by the command), and capture counters that went back (a reset), which are no storm
storm() {
	rm -rf "$T"
	cp -a "$FIXTURES/qos-pause-storm" "$T"
	mkdir -p "$T/sys/class/infiniband/mlx5_0/ports/1/hw_counters"
	echo 0 > "$T/sys/class/infiniband/mlx5_0/ports/1/hw_counters/out_of_sequence"
}
cap=$T/var/lib/roce-doctor/capture/ethtool-S-ens19f0np0.txt
storm
expect "counters -- COMMAND: pauses grew past 1% of the packets on priority 3, warn" 1 \
	'^  warn qos\.pause_storm: ens19f0np0 priority 3: the switch sent this NIC 10000 pause frames \([0-9]+/s\) for 14763 packets it sent \(67\.7%\)' \
	-- --root "$T" counters mlx5_0 -- sh -c "sed -i 's/rx_prio3_pause: 15437/rx_prio3_pause: 25437/; s/tx_prio3_packets: 385237/tx_prio3_packets: 400000/' $cap"
grep -qE '^    fix: ethtool -S ens19f0np0 \| grep prio3_pause ' "$out"; result "... with the command that finds the congested receiver" $?
storm
expect "counters -- COMMAND: pause counters that went back are a reset, not a storm" 0 'nothing to say' \
	-- --root "$T" counters mlx5_0 -- sh -c "sed -i 's/rx_prio3_pause: 15437/rx_prio3_pause: 7/' $cap"
storm
run --root "$T" --json counters mlx5_0 -- sh -c "sed -i 's/rx_prio3_pause: 15437/rx_prio3_pause: 25437/' $cap"
python3 -c 'import json,sys; f=json.load(open(sys.argv[1]))["samples"][0]["ports"][0]["findings"]; assert [x["id"] for x in f] == ["qos.pause_storm"] and f[0]["severity"] == "warn" and "ethtool -S ens19f0np0" in f[0]["fix"], f' "$out"
result "--json: each port's findings, with id, severity, message and fix" $?

fresh
run --root "$T" counters --format prometheus -- sh -c "echo 109 > $hw/duplicate_request"
if command -v promtool > /dev/null; then
	[ "$rc" -eq 1 ] && promtool check metrics < "$out" > /dev/null 2>&1 &&
		grep -qE '^roce_doctor_nic_increase\{device="rxe0",port="1",netdev="eth0",source="hw_counters",counter="duplicate_request",group="path_loss"\} 9$' "$out"
	result "--format prometheus passes promtool check metrics" $?
else
	echo "ok $((n += 1)) - --format prometheus passes promtool check metrics # SKIP promtool not installed"
fi

bad "nothing after --" 64 'nothing after --' -- --root "$T" counters --
bad "--format junit is refused" 64 "bad --format 'junit'" -- --root "$T" counters --format junit
bad "--interval 0 is refused" 64 "bad --interval '0'" -- --root "$T" counters --interval 0
bad "a second argument before -- is refused" 64 "unexpected argument 'true'" -- --root "$T" counters rxe0 true
bad "a device that does not exist" 2 'rxe9' -- --root "$T" counters rxe9
bad "a command that cannot run: exit 3" 3 'cannot run /nonexistent' -- --root "$T" counters -- /nonexistent
tap_end
