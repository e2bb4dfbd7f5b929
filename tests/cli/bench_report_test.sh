#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# bench/bw-vs-perftest --report: the report docs/benchmarks.md's tables come from, over runs files whose answer
# is known by construction (no VMs): the A/A noise, the verdict, the per-boot medians and the exit status.
BIN=$1
. "$(dirname "$0")/../lib/tap.sh"

# aa_rounds N OURS_BW OURS_LAT [JITTER]: N rounds of every size. perftest gives 20 MiB/s (300 us at lat), ours
# OURS_BW (OURS_LAT) times that; with JITTER the second copy of each program is off by +-JITTER, alternately.
aa_rounds() {
	awk -v n="$1" -v ob="$2" -v ol="$3" -v j="${4:-0}" 'BEGIN {
		for (r = 1; r <= n; r++) {
			d = (r % 2 ? 1 + j : 1 - j)
			split("4096 65536 1048576", s, " ")
			for (i = 1; i <= 3; i++)
				printf "bw %s %d perftest=20.00 ours=%.3f perftest-aa=%.3f ours-aa=%.3f first=ours\n",
					s[i], r, 20 * ob, 20 * d, 20 * ob * d
			printf "lat 2 %d perftest=300.00 ours=%.3f perftest-aa=%.3f ours-aa=%.3f first=ours\n",
				r, 300 * ol, 300 * d, 300 * ol * d
		}
	}'
}
qps() { printf 'qps 1 30.0\nqps 2 31.0\n'; }

{ aa_rounds 8 1.2 0.8; qps; } >"$scratch/ahead.runs"
run --report "$scratch/ahead.runs"
[ "$rc" -eq 0 ] && [ "$(grep -cE ' 0\.0% +ahead ' "$out")" -eq 4 ] && grep -qE '^bw +4096 +8 +1\.000 +1\.000 .* 1\.200 ' "$out"
result "A/A pairs equal, ours 1.2x faster and lat 0.8x: noise 0.0%, ahead at all four, exit 0" $?

{ aa_rounds 8 0.8 1.2; qps; } >"$scratch/behind.runs"
run --report "$scratch/behind.runs"
[ "$rc" -eq 0 ] && [ "$(grep -cE '% +behind ' "$out")" -eq 4 ]
result "ours 0.8x (lat 1.2x slower): behind at all four" $?

# A copy off by +-10% every other round: the median of the A/A ratios is between 0.9 and 1.1, its bootstrap
# interval wide, so a 5% difference is within that noise.
{ aa_rounds 9 1.05 0.95 0.10; qps; } >"$scratch/noisy.runs"
run --report "$scratch/noisy.runs"
[ "$rc" -eq 0 ] && [ "$(grep -cE '% +within noise ' "$out")" -eq 4 ] && ! grep -qE ' 0\.0% ' "$out"
result "A/A pairs +-10%, ours 5% apart: within noise at all four" $?

# Two boots: each boot's own medians; boot 2's perftest copy 10% slow shows in its row only.
{
	echo "# boot 1 of 2, 2026-11-27 09:05:00 UTC"
	aa_rounds 4 1.2 0.8
	echo "# boot 2 of 2, 2026-11-27 09:25:00 UTC"
	aa_rounds 4 1.2 0.8 | sed 's/perftest-aa=20.000/perftest-aa=18.000/'
	qps
} >"$scratch/boots.runs"
run --report "$scratch/boots.runs"
[ "$rc" -eq 0 ] && grep -q '^per boot' "$out" && grep -qE '^1 +1\.000 1\.000 1\.200 \(4\)' "$out" &&
	grep -qE '^2 +0\.900 1\.000 1\.200 \(4\)' "$out"
result "two boots: a row each, boot 2's perftest-aa offset in its own row" $?
run --report "$scratch/ahead.runs"
! grep -q '^per boot' "$out"
result "one boot: no per-boot table" $?
run --report "$scratch/boots.runs"
[ "$rc" -eq 0 ] && ! grep -q '^unbalanced' "$out"
result "boots of 4 rounds each: every order as often, no unbalanced line" $?

# A boot that ran a size fewer than 4 times never reached its later orders: the report says so, with the count of
# rounds in each order (round number mod 4).
{
	echo "# boot 1 of 2, 2026-11-27 09:05:00 UTC"
	aa_rounds 4 1.2 0.8
	echo "# boot 2 of 2, 2026-11-27 09:25:00 UTC"
	aa_rounds 2 1.2 0.8
	qps
} >"$scratch/short.runs"
run --report "$scratch/short.runs"
[ "$rc" -eq 0 ] && grep -q '^unbalanced orders: bw 4096: 1 of 2 boots ran fewer than 4 rounds (rounds by order 2/2/1/1);' "$out" &&
	grep -q 'lat 2: 1 of 2 boots ran fewer than 4 rounds (rounds by order 2/2/1/1)$' "$out"
result "a boot of 2 rounds: the unbalanced line names each size, its short boots and rounds by order" $?

# Two runs' files concatenated, each with its own "# boot 1 of 1": their rounds pool, and each keeps a row (boots
# are counted in file order, not read from the marker).
{
	echo "# boot 1 of 1, 2026-11-27 09:05:00 UTC"
	aa_rounds 4 1.2 0.8
	qps
	echo "# boot 1 of 1, 2026-11-27 12:17:00 UTC"
	aa_rounds 4 1.2 0.8 | sed 's/perftest-aa=20.000/perftest-aa=18.000/'
	qps
} >"$scratch/pooled.runs"
run --report "$scratch/pooled.runs"
[ "$rc" -eq 0 ] && grep -qE '^bw +4096 +8 +0\.950 ' "$out" && grep -qE '^1 +1\.000 1\.000 1\.200 \(4\)' "$out" &&
	grep -qE '^2 +0\.900 1\.000 1\.200 \(4\)' "$out" && grep -q '^our --qps at 64 KiB (boot 1): 1: 30.00' "$out" &&
	grep -q '^our --qps at 64 KiB (boot 2): 1: 30.00' "$out"
result "two runs files concatenated: 8 rounds pooled, a row for each file's boot, each file's --qps line" $?

{ aa_rounds 4 1.2 0.8 | sed '3s/ours=24.000/ours=nan/'; qps; } >"$scratch/nan.runs"
run --report "$scratch/nan.runs"
[ "$rc" -eq 1 ] && grep -qE '^bw +4096 ' "$out"
result "a run with no number: the report still printed, exit 1" $?

aa_rounds 4 1.2 0.8 >"$scratch/noqps.runs"
run --report "$scratch/noqps.runs"
[ "$rc" -eq 1 ]
result "no --qps run: exit 1" $?

# The A/B mode's file (perftest, ours, ours-poll): its own layout, median ratio and range.
for r in 1 2 3; do
	echo "bw 4096 $r perftest=20.00 ours=22.000 ours-poll=$((19 + r)).000 first=ours"
	echo "lat 2 $r perftest=300.00 ours=270.000 first=ours"
done >"$scratch/ab.runs"
qps >>"$scratch/ab.runs"
run --report "$scratch/ab.runs"
[ "$rc" -eq 0 ] && grep -qE '^bw +4096 ours/perftest +3 .* 1\.10 +1\.10-1\.10' "$out" &&
	grep -qE '^bw +4096 ours-poll/perftest +3 .* 1\.05 +1\.00-1\.10' "$out" && ! grep -q 'A/A' "$out"
result "an A/B runs file: the A/B layout, medians and ranges" $?

bad "--report of a missing file: one line, exit 64" 64 "cannot read '$scratch/none'" -- --report "$scratch/none"
bad "--report with no file: exit 64" 64 "--report: cannot read ''" -- --report
tap_end
