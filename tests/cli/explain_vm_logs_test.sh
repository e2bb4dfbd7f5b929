#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor explain on the real perftest and bw/serve failure logs of tests/logs/vm-pair-rxe (Soft-RoCE pair,
# perftest 4.5+0.17-1): each failure the log states is a problem with its fix, not "ok (0 problems)".
#   explain_vm_logs_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$1
src=$(cd "$(dirname "$0")/../.." && pwd)
logs=$src/tests/logs/vm-pair-rxe
. "$src/tests/lib/tap.sh"

# explained LOG RC ID LINE FIX-PREFIX: exit RC, the problem ID at LINE, and a fix line starting with FIX-PREFIX
explained() {
	local log=$1 want_rc=$2 id=$3 line=$4 fix=$5
	run explain "$logs/$log"
	[ "$rc" -eq "$want_rc" ] && grep -qx "  [a-z]*  $id  line $line" "$out" &&
		grep -qF "        fix: $fix" "$out"
	result "$log: $id at line $line, exit $want_rc, fix '$fix'" $?
}

# perftest: GIDs of two kinds (client -x 0 fe80::, server -x 1 IPv4; or -x 9, no GID), both sides
explained gid-mismatch-write-bw-client.log 2 log.perftest.gid_incompatible 19 'roce-doctor gid --suggest'
explained gid-mismatch-send-bw-client.log 2 log.perftest.gid_incompatible 19 'roce-doctor gid --suggest'
explained gid-mismatch-write-lat-client.log 2 log.perftest.gid_incompatible 18 'roce-doctor gid --suggest'
explained gid-mismatch-write-bw-server.log 2 log.perftest.gid_incompatible 22 'roce-doctor gid --suggest'
explained gid-absent-client-client.log 2 log.perftest.gid_incompatible 19 'roce-doctor gid --suggest'
# perftest: the side whose peer failed on memlock first
run explain "$logs/memlock-server-client.log"
[ "$rc" -eq 2 ] && grep -qx '  fail  log.perftest.exchange_failed  lines 18,20' "$out" &&
	grep -qF '        fix: roce-doctor explain OTHER-SIDE.log' "$out"
result "memlock-server-client.log: the broken exchange (lines 18 and 20) points at the other side's log" $?
run explain "$logs/memlock-client-server.log"
[ "$rc" -eq 2 ] && grep -qx '  fail  log.perftest.exchange_failed  lines 21,23' "$out"
result "memlock-client-server.log: the server's side of the same (lines 21 and 23)" $?
# roce-doctor bw and serve
explained memlock-bw-client.log 2 log.roce_doctor.memlock 2 'roce-doctor check --only memlock'
explained memlock-serve-client.log 2 log.roce_doctor.memlock 2 'roce-doctor check --only memlock'
explained memlock-serve-server.log 2 log.roce_doctor.memlock 5 'roce-doctor check --only memlock'
explained device-bw-client.log 2 log.roce_doctor.no_device 2 'roce-doctor devices --brief'
explained device-serve-server.log 2 log.roce_doctor.no_device 2 'roce-doctor devices --brief'
explained serve-killed-client.log 2 log.roce_doctor.serve_gone 2 'journalctl -n 50 _COMM=roce-doctor'
explained no-serve-client.log 2 log.roce_doctor.connect 2 'roce-doctor serve    # on 10.88.0.2 first'
grep -qx '             nc -zv 10.88.0.2 18516    # from this node: does the port answer?' "$out"
result "no-serve-client.log: the fix names the serve's address and port" $?
explained port-taken-server.log 2 log.roce_doctor.listen 4 "ss -ltnp 'sport = :18517'"
explained max-mem-server.log 1 log.roce_doctor.refused 5 'roce-doctor serve --max-mem MiB'
# runs that passed (root ignores the 64 KiB limit; ib_write_lat's buffers fit in it): nothing invented
for log in memlock-root-client-client.log memlock-write-lat-client.log; do
	run explain "$logs/$log"
	[ "$rc" -eq 0 ] && grep -q ': ok (0 problems)$' "$out"
	result "$log: a run that passed has no problem" $?
done

tap_end
