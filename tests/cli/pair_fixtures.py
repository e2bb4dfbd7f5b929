#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Fixture pairs for check --peer: the field notes' two-node pair (two 25 GbE ConnectX-6 Lx ports each, both rails
in 192.168.88.0/24: a has .1 and .11, b has .2 and .22) made from the cx6lx-2port fixture's snapshot, one case per
directory: OUT/CASE/a.json (node a, for --from), OUT/CASE/peer/snapshot.json (node b) and OUT/CASE/peer/probes.json
(what the traffic probes would have found). Each case changes only what it is about.

usage: pair_fixtures.py ROCE_DOCTOR FIXTURES OUT"""
import copy
import json
import os
import subprocess
import sys

BIN, FIXTURES, OUT = sys.argv[1:4]


def snapshot(tree):
    text = subprocess.run([BIN, "--root", os.path.join(FIXTURES, tree), "snapshot"], check=True,
                          capture_output=True, text=True).stdout
    return json.loads(text)


def gid_of(ip):
    a, b, c, d = (int(x) for x in ip.split("."))
    return "0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x" % (a, b, c, d)


def netdev(snap, name):
    return next(n for n in snap["host"]["netdevs"] if n["netdev"] == name)


def port(snap, i):
    return snap["host"]["devices"][i]["ports"][0]


RAILS = ["ens19f0np0", "ens19f1np1"]


def node(base, hostname, ips):
    s = copy.deepcopy(base)
    s["identity"]["hostname"] = hostname
    for i, ip in enumerate(ips):
        p = port(s, i)
        for g in p["gids"]:
            if g["gid"].startswith("0000:0000:0000:0000:0000:ffff:"):
                g["gid"] = gid_of(ip)
        p["active_mtu"] = p["max_mtu"] = 4096
        netdev(s, RAILS[i])["addresses"] = ["%s/24" % ip]
    netdev(s, "eno1")["addresses"] = []
    netdev(s, "lo")["addresses"] = ["127.0.0.1/8"]
    sysctl = {"all_ignore": 0, "dev_ignore": 1, "all_announce": 0, "dev_announce": 2, "ignore": 1, "announce": 2}
    for a in s["system"]["arp"]:
        a["sysctl"] = dict(sysctl)
    s["system"]["ip_local_port_range"] = "32768-60999"
    s["system"]["firewall_procs"] = {"firewalld_running": False, "firewalld_pid": None, "processes_scanned": 40,
                                     "scan_truncated": False, "iptables_tables": []}
    s["system"]["nftables"] = {"ruleset": {"tables": [], "chains": [], "rules": [], "truncated": False},
                               "errno": None}
    return s


def input_drop(s, proto, dport, other):
    """b's nftables: table inet filter, chain input (policy accept) with one drop rule."""
    s["system"]["nftables"]["ruleset"] = {
        "tables": [{"family": "inet", "name": "filter", "dormant": False}],
        "chains": [{"family": "inet", "table": "filter", "name": "input", "hook": "input", "priority": 0,
                    "policy": "accept", "type": "filter", "first_rule": 0, "rule_count": 1}],
        "rules": [{"chain": 0, "handle": 4, "verdict": "drop", "target": None, "l4proto": proto, "dport": dport,
                   "dport_set": None, "other_matches": other}],
        "truncated": False}


def pin_gid_index(s, value):
    s["system"]["environment"] = [{"name": "NCCL_IB_GID_INDEX", "value": value}]
    s["system"]["nccl"]["settings"] = [{"name": "NCCL_IB_GID_INDEX", "value": value, "origin": "environment",
                                        "file": None, "line": 0, "source": "environment", "effective": True}]


def soft(s):
    """Soft-RoCE: rxe0/rxe1 on the same netdevs (the VM pair's two rails)."""
    for i, d in enumerate(s["host"]["devices"]):
        d.update({"device": "rxe%d" % i, "fw_ver": None, "pci_address": None, "numa_node": None, "driver": None,
                  "parent": RAILS[i]})
    for i, d in enumerate(s["identity"]["devices"]):
        d.update({"device": "rxe%d" % i, "fw_ver": None, "board_id": None, "hca_type": None, "driver": None,
                  "pci_address": None})


def probes(devices=("mlx5_0", "mlx5_1"), rdma=("ok", "ok"), gbps=23.6, tcp=("arrived", "arrived"), path_mtu=4096):
    rails = []
    for i, outcome in enumerate(rdma):
        r = {"a": "%s/1" % devices[i], "b": "%s/1" % devices[i],
             "rdma": {"outcome": outcome, "path_mtu": path_mtu, "round_trip_us": 14.0,
                      "detail": "" if outcome == "ok" else "no completion in 2 s (transport retry counter exceeded)"}}
        if outcome == "ok":
            r["bw"] = {"ok": True, "gbps": gbps}
        rails.append(r)
    return {"rails": rails,
            "tcp": [{"purpose": "ephemeral", "port": 41234, "outcome": tcp[0],
                     "connect_errno": 0 if tcp[0] == "arrived" else 110},
                    {"purpose": "master_port", "port": 29500, "outcome": tcp[1],
                     "connect_errno": 0 if tcp[1] == "arrived" else 110}]}


def write(case, a, b, p):
    d = os.path.join(OUT, case)
    os.makedirs(os.path.join(d, "peer"), exist_ok=True)
    for path, doc in ((os.path.join(d, "a.json"), a), (os.path.join(d, "peer", "snapshot.json"), b),
                      (os.path.join(d, "peer", "probes.json"), p)):
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)


base = snapshot("cx6lx-2port")
A = node(base, "node-a", ["192.168.88.1", "192.168.88.11"])
B = node(base, "node-b", ["192.168.88.2", "192.168.88.22"])

write("clean", A, B, probes())

b = copy.deepcopy(B)
netdev(b, "ens19f1np1")["mtu"] = 1500
port(b, 1)["active_mtu"] = 1024
write("b-mtu-1500", A, b, probes(rdma=("ok", "timeout")))

# an address added before the RoCE one on each of b's ports: b's rail GIDs move from 4/5 to 6/7
b = copy.deepcopy(B)
for i, (first, rail) in enumerate((("10.9.9.2", "192.168.88.2"), ("10.9.8.2", "192.168.88.22"))):
    p = port(b, i)
    p["gids"] = [g for g in p["gids"] if not g["gid"].startswith("0000:0000:0000:0000:0000:ffff:")]
    p["gids"] += [{"index": 4, "gid": gid_of(first), "type": "v1", "netdev": RAILS[i]},
                  {"index": 5, "gid": gid_of(first), "type": "v2", "netdev": RAILS[i]},
                  {"index": 6, "gid": gid_of(rail), "type": "v1", "netdev": RAILS[i]},
                  {"index": 7, "gid": gid_of(rail), "type": "v2", "netdev": RAILS[i]}]
    netdev(b, RAILS[i])["addresses"] = ["%s/24" % first, "%s/24" % rail]
a = copy.deepcopy(A)
pin_gid_index(a, "5")
pin_gid_index(b, "5")
write("b-gid-index-pinned", a, b, probes(rdma=("timeout", "timeout")))

b = copy.deepcopy(B)
input_drop(b, 6, None, False)
write("b-bootstrap-blocked", A, b, probes(tcp=("not_arrived", "not_arrived")))

a, b = copy.deepcopy(A), copy.deepcopy(B)
soft(a)
soft(b)
input_drop(b, 17, 4791, True)     # iifname "ens19f1np1" udp dport 4791 drop
write("b-udp-4791-one-rail", a, b, probes(devices=("rxe0", "rxe1"), rdma=("ok", "timeout"), gbps=1.9))

b = copy.deepcopy(B)
netdev(b, "ens19f1np1").update({"operstate": "down", "carrier": False, "speed_mbps": None})
port(b, 1).update({"state": "DOWN", "state_num": 1, "phys_state": "Disabled", "phys_state_num": 3})
write("b-nic-down", A, b, probes(rdma=("ok",)))

a, b = copy.deepcopy(A), copy.deepcopy(B)
for s in (a, b):
    for x in s["system"]["arp"]:
        x["sysctl"] = {"all_ignore": 0, "dev_ignore": 0, "all_announce": 0, "dev_announce": 0, "ignore": 0,
                       "announce": 0}
write("no-arp-ignore", a, b, probes())

# two nodes with different PFC maps (make-qos-fixtures.sh): a with PFC on 3, b on 4, NCCL_IB_TC=106 (DSCP 26 -> 3)
def qos_node(tree, hostname, a_side):
    return node(snapshot(tree), hostname, ["192.168.88.1", "192.168.88.11"] if a_side else
                ["192.168.88.2", "192.168.88.22"])


write("qos-clean", qos_node("qos-dscp-pfc3", "node-a", True), qos_node("qos-dscp-pfc3", "node-b", False), probes())
write("qos-b-pfc4", qos_node("qos-dscp-pfc3", "node-a", True), qos_node("qos-peer-pfc4", "node-b", False), probes())
write("qos-a-pfc4", qos_node("qos-peer-pfc4", "node-a", True), qos_node("qos-dscp-pfc3", "node-b", False), probes())
write("qos-b-pcp", qos_node("qos-dscp-pfc3", "node-a", True), qos_node("qos-pcp-untagged", "node-b", False), probes())
b = qos_node("qos-dscp-pfc3", "node-b", False)
b["system"]["nccl"]["settings"] = [x for x in b["system"]["nccl"]["settings"] if x["name"] != "NCCL_IB_TC"]
b["system"]["environment"] = [x for x in b["system"]["environment"] if x["name"] != "NCCL_IB_TC"]
write("qos-b-tc-unset", qos_node("qos-dscp-pfc3", "node-a", True), b, probes())
# b with rdma_cm's ToS 106, mlx5_1/1 forcing class 106 and NCCL_IB_FIFO_TC=0 (make-qos-fixtures.sh: qos-peer-tos)
write("qos-b-tos", qos_node("qos-dscp-pfc3", "node-a", True), qos_node("qos-peer-tos", "node-b", False), probes())

# b's serve went away during the first rail's probe: nothing else is asked of it
write("b-serve-gone", A, B, probes(rdma=("peer_gone", "ok")))

# b's serve froze during the first rail's short bw run (its RDMA still answered: rxe's side is the kernel's)
p = probes()
p["rails"][0]["bw"] = {"ok": False, "gbps": 0.0, "serve_gone": True,
                       "detail": "the serve at 192.168.88.2:18516 sent nothing for 10 s"}
write("b-serve-frozen-bw", A, B, p)
