#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""One check --peer --json document (roce-doctor/pair/v1) as lines a case's check() can grep:
   schema S / verdict V
   rail I RDMA-A RDMA-B RDMA-OUTCOME       (rails[I]: A's device, B's device, rdma or "null")
   bootstrap PURPOSE OUTCOME
   finding ID SEVERITY NODE ORIGIN         (the findings that are not ok, shown or covered; NODE a, b or -)
   covered ID NODE: BY-ID BY-NODE          (a covered one: the finding of its cause that is shown)
   fix ID NODE: LINE                       (each fix line of those)
   message ID NODE: TEXT"""
import json
import sys

doc = json.load(open(sys.argv[1]))
print("schema", doc.get("schema"))
print("verdict", doc.get("verdict"))
for i, r in enumerate(doc.get("rails") or []):
    dev = lambda e: e["device"] if e else "-"
    print("rail", i, dev(r.get("a")), dev(r.get("b")), r.get("rdma") or "null")
for t in doc.get("bootstrap") or []:
    print("bootstrap", t["purpose"], t["outcome"])
for f in (doc.get("findings") or []) + (doc.get("covered") or []):
    if f.get("severity") == "ok":
        continue
    node = f.get("node") or "-"
    print("finding", f["id"], f["severity"], node, f.get("origin"))
    by = f.get("covered_by")
    if by:
        print("covered", f["id"], node + ":", by["id"], by["node"] or "-")
    print("message", f["id"], node + ":", f.get("message"))
    for line in f.get("fix_lines") or []:
        print("fix", f["id"], node + ":", line)
