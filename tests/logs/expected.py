# SPDX-License-Identifier: GPL-2.0-only
"""explain --json on stdin, as the lines a log's .expected file holds: one "problem ID FIRST-LINE" per
finding and one "fact NAME VALUE" per fact, sorted. The corpus test compares problems exactly (a new or lost
finding fails) and requires every fact the .expected file lists.
  roce-doctor explain --json LOG | python3 expected.py"""
import json
import sys

doc = json.load(sys.stdin)
rows = [f"problem {f['id']} {f['lines'][0]}" for f in doc["findings"]]
rows += [f"fact {f['fact']} {f['value']}" for f in doc["facts"]]
print("\n".join(sorted(rows)))
