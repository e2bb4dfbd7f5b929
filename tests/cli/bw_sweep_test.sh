#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor bw's sweeps and wait policy without RDMA traffic (issue 17): --qps-sweep's conflicts and --help.
# The sweeps' rows and the adaptive wait themselves run on the VM pair (tests/vm/cases/bw_1_clean.case).
# usage: bw_sweep_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
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
tap_end
