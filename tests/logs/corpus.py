# SPDX-License-Identifier: GPL-2.0-only
"""The corpus test in one process (python's start-up is the dear part): for each LOG under DIR with a
LOG.expected, run `ROCE_DOCTOR --json explain LOG` and compare. An .expected file holds one
"problem ID FIRST-LINE" per finding and one "fact NAME VALUE" per fact: the problems must be exactly those,
the facts at least those. Prints one "0|1 NAME: detail" line per log for the shell's TAP.
  corpus.py ROCE_DOCTOR DIR             compare
  corpus.py ROCE_DOCTOR DIR --write     (by hand, then review) write each LOG.expected from today's output"""
import json
import pathlib
import subprocess
import sys


def rows(binary, log):
    run = subprocess.run([binary, "--json", "explain", str(log)], capture_output=True, check=False)
    if run.returncode > 2:
        return None, f"exit {run.returncode}: {run.stderr.decode(errors='replace').strip()}"
    doc = json.loads(run.stdout)
    if doc.get("schema") != "roce-doctor/explain/v1":
        return None, "not an explain/v1 document"
    got = {f"problem {f['id']} {f['lines'][0]}" for f in doc["findings"]}
    got |= {f"fact {f['fact']} {f['value']}" for f in doc["facts"]}
    return got, ""


def main():
    binary, top = sys.argv[1], pathlib.Path(sys.argv[2])
    write = "--write" in sys.argv[3:]
    for log in sorted(top.glob("*/*.log")):
        name = log.relative_to(top)
        expected_file = log.with_name(log.name + ".expected")
        got, why = rows(binary, log)
        if got is None:
            print(f"1 {name}: {why}")
            continue
        if write:
            expected_file.write_text("\n".join(sorted(got)) + "\n")
        if not expected_file.exists():
            print(f"1 {name}: no {expected_file.name}")
            continue
        want = {line for line in expected_file.read_text().splitlines() if line.startswith(("problem ", "fact "))}
        missing = sorted(want - got)
        extra = sorted(r for r in got - want if r.startswith("problem "))
        detail = (f" missing {missing}" if missing else "") + (f" extra {extra}" if extra else "")
        print(f"{1 if detail else 0} {name}: the expected findings and facts{detail}")


main()
