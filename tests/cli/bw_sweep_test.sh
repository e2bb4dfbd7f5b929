#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor bw's sweeps and wait policy without RDMA traffic (issue 17): --qps-sweep's conflicts and --help.
# The sweeps' rows and the adaptive wait themselves run on the VM pair (tests/vm/cases/bw_1_clean.case).
# usage: bw_sweep_test.sh ROCE_DOCTOR FIXTURES_DIR RENDER_DOC   (TAP on stdout)
set -u
BIN=$1
RENDER=$3
data=$(dirname "$0")/formats_data
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

bad "bw --qps-sweep with -q" 64 '^roce-doctor bw: --qps-sweep and --qps exclude each other' -- \
	bw 127.0.0.1 --qps-sweep -q 4
bad "bw -q before --qps-sweep" 64 '^roce-doctor bw: --qps-sweep and --qps exclude each other' -- \
	bw 127.0.0.1 --qps 1 --qps-sweep
bad "bw --qps-sweep with --sweep" 64 '^roce-doctor bw: --qps-sweep and --sweep exclude each other' -- \
	bw 127.0.0.1 --sweep --qps-sweep
bad "bw --qps-sweep takes no value" 64 "doesn't allow an argument" -- bw 127.0.0.1 --qps-sweep=4
expect "bw --help names --qps-sweep" 0 '^ +--qps-sweep +Run the size with 1, 2, 4 and 8 queue pairs' -- bw --help
run bw --help
tr -s ' \n' '  ' < "$out" | grep -q 'auto: on a software device (rxe, siw) spin 50 us after a completion, then sleep; on a NIC poll'
result "bw --help: --wait auto spins, then sleeps on a software device, and polls on a NIC" $?

# A --qps-sweep document: the VM pair's (its 2-QP run hit an rxe fault under load), the four rows filled in by
# hand. The same size four times, told apart by the QP count.
"$RENDER" junit "$data/bw_qps_sweep.json" > "$scratch/qps.xml" 2> "$err" &&
	python3 - "$scratch/qps.xml" << 'PY'
import sys, xml.etree.ElementTree as ET
names = [t.get("name") for t in ET.parse(sys.argv[1]).getroot().iter("testcase")]
sys.exit(0 if names == ["65536 B, 1 QP to 10.88.0.2"] + ["65536 B, %d QPs to 10.88.0.2" % q for q in (2, 4, 8)] else 1)
PY
result "bw --qps-sweep --format junit: a testcase per QP count, named by it" $?
"$RENDER" prometheus "$data/bw_qps_sweep.json" > "$scratch/qps.prom" 2> "$err" &&
	[ "$(grep -cE '^roce_doctor_bw_gbps\{op="write",size="65536",peer="10\.88\.0\.2",device="rxe0",port="1",qps="(1|2|4|8)"\} ' \
		"$scratch/qps.prom")" -eq 4 ]
result "bw --qps-sweep --format prometheus: a series per QP count, its qps label" $?
tap_end
