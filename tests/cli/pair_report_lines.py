#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One line per finding of a roce-doctor/pair/v1 report, shown and covered, for grep in the shell tests:
"id|severity|node|fix lines joined by ' / '|ID/NODE of the finding that covers it, empty when shown"."""
import json
import sys

d = json.load(open(sys.argv[1]))
for f in d["findings"] + d["covered"]:
    by = f.get("covered_by")
    print("%s|%s|%s|%s|%s" % (f["id"], f["severity"], f["node"] or "null", " / ".join(f["fix_lines"]),
                              "%s/%s" % (by["id"], by["node"] or "null") if by else ""))
