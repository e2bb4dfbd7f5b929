#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Adds up the TAP results of meson test logs into one closing line: 'N passed, N failed, N skipped'."""
import json
import re
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    with open(path) as log:
        for line in log:
            entry = json.loads(line)
            results = [l for l in entry.get("stdout", "").splitlines() if re.match(r"(not )?ok \d", l)]
            if not results:
                # a test without TAP lines counts once, by its meson result
                r = entry.get("result")
                passed += r == "OK"
                failed += r in ("FAIL", "ERROR", "TIMEOUT", "UNEXPECTEDPASS")
                skipped += r == "SKIP"
                continue
            for l in results:
                if re.search(r"#\s*SKIP", l, re.I):
                    skipped += 1
                elif l.startswith("ok"):
                    passed += 1
                else:
                    failed += 1
            if entry.get("result") in ("FAIL", "ERROR", "TIMEOUT") and not any(l.startswith("not ok") for l in results):
                failed += 1   # crashed or timed out after its last TAP line
print(f"{passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
