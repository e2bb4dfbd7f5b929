#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every JSON document roce-doctor writes is valid against its JSON Schema file, docs/schemas/NAME.json for
"schema": "roce-doctor/NAME/v1". The schema names are read from the sources (doc_new("NAME"), the
"roce-doctor/NAME/vN" literals), so a new document without a schema file fails here by name. The documents
are every command's --json on every fixture under tests/fixtures, and --from each fixture's snapshot; compare
of the fixtures' snapshots; explain on each log of tests/logs (each file, each directory as one job, one with
--with-check), on each paste of tests/pastes and on a log with pastes in it; check --peer and nccl-env --peer
on tests/cli/pair_fixtures.py's pairs through --peer-fixture; mesh --plan and --dry-run; a real mesh of 3 and
of 2 ranks on 127.0.0.1 (without RDMA its pairs fail: still a document); the event lines of a serve on
127.0.0.1; bw and lat as tests/cli/formats_data recorded them from the VM pair (they need a live peer). Every
schema file must have been exercised, and mutated documents (a required member removed, a member of the wrong
type) must be rejected, so the schemas can fail. One python process runs everything; the runs go two at a time.

usage: schemas_test.py ROCE_DOCTOR SOURCE_ROOT"""
import concurrent.futures
import copy
import glob
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

BIN, SRC = os.path.realpath(sys.argv[1]), os.path.realpath(sys.argv[2])
FIXTURES = os.path.join(SRC, "tests", "fixtures")
SCHEMAS = os.path.join(SRC, "docs", "schemas")
n = failed = 0


def tap(ok, name, why=()):
    global n, failed
    n += 1
    failed += not ok
    print(("ok" if ok else "not ok") + " %d - %s" % (n, name), flush=True)
    for line in list(why)[:40]:
        print("# " + line)


try:
    import warnings
    import jsonschema
    # RefResolver, which Debian 12's jsonschema (4.10) has and later ones deprecate, resolves host.json and
    # check.json between the files
    warnings.simplefilter("ignore", DeprecationWarning)
except ImportError:
    print("1..0 # SKIP python3-jsonschema is not installed (tools/install-deps installs it)")
    sys.exit(0)


def source_schema_names():
    """The document names the sources write: doc_new("NAME") and every "roce-doctor/NAME/vN" literal."""
    names = set()
    for path in glob.glob(os.path.join(SRC, "src", "**", "*.[ch]"), recursive=True):
        text = open(path, encoding="utf-8").read()
        names.update(re.findall(r'\bdoc_new\("([a-z0-9-]+)"\)', text))
        names.update(re.findall(r'"roce-doctor/([a-z0-9-]+)/v[0-9]+"', text))
    return names


def fixture_trees():
    return sorted(d for d in glob.glob(os.path.join(FIXTURES, "*"))
                  if os.path.isdir(os.path.join(d, "sys")) or os.path.isdir(os.path.join(d, "etc")))


class Runs:
    """Every run to make, each (label, argv, env, stdin); their documents, in order."""

    def __init__(self, scratch):
        self.scratch = scratch
        self.todo = []

    def add(self, label, args, env=None):
        self.todo.append((label, [BIN, *args], env))

    def run_all(self):
        def one(item):
            label, argv, env = item
            p = subprocess.run(argv, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
            return label, p
        with concurrent.futures.ThreadPoolExecutor(2) as pool:
            return list(pool.map(one, self.todo))


def snapshots(trees, scratch):
    """Each fixture's snapshot (a file per tree), taken two at a time: the --from runs and compare read them."""
    def one(tree):
        path = os.path.join(scratch, "snap-" + os.path.basename(tree) + ".json")
        with open(path, "w") as f:
            rc = subprocess.run([BIN, "--root", tree, "snapshot"], stdout=f, stderr=subprocess.DEVNULL).returncode
        return tree, path if rc == 0 and os.path.getsize(path) else None
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, trees))


def log_inputs():
    """tests/logs: each log file alone, and each directory of logs as one job."""
    files, dirs = [], []
    for d in sorted(glob.glob(os.path.join(SRC, "tests", "logs", "*"))):
        logs = sorted(f for f in glob.glob(os.path.join(d, "*"))
                      if os.path.isfile(f) and re.search(r"\.log(\.(gz|xz|zst))?$", f))
        files += logs
        if len(logs) > 1:
            dirs.append(d)
    return files, dirs


def serve_lines(scratch):
    """A serve on 127.0.0.1: listening (and the rest of its start), a client that connects and leaves without a
    word, then SIGTERM. Returns the event lines it wrote, or an error text."""
    p = subprocess.Popen([BIN, "serve", "--json", "--bind", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    lines, port, end = [], None, time.time() + 30
    try:
        while port is None and time.time() < end:
            if not select.select([p.stdout], [], [], 1)[0]:
                continue
            line = p.stdout.readline()
            if not line:
                break
            lines.append(line)
            m = re.search(r'port ([0-9]+)', line)
            if '"listening"' in line and m:
                port = int(m.group(1))
        if port is None:
            return None, "serve --json wrote no listening event"
        with socket.create_connection(("127.0.0.1", port), timeout=10):
            pass
        time.sleep(0.3)
    finally:
        p.send_signal(signal.SIGTERM)
        rest = p.communicate(timeout=30)[0]
    return lines + rest.splitlines(keepends=True), None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def mesh_run(label, size, args=()):
    """A real mesh of SIZE ranks on 127.0.0.1 (as tests/cli/mesh_run_test.sh runs them): ranks 1.. in the
    background, rank 0 with --json. Without an RDMA device bw fails and each pair is reported failed, which is
    a document as valid as a measured one. Returns (label, rank 0's stdout, an error text or None)."""
    port, env = free_port(), {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}

    def argv(rank):
        return [BIN, *args[:2], "mesh", "--rank", str(rank), "--size", str(size), "--rendezvous",
                "127.0.0.1:%d" % port, "--serve-port", "0", "--seconds", "1", "--register-timeout", "20", *args[2:]]
    others = [subprocess.Popen(argv(r), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                               stdin=subprocess.DEVNULL) for r in range(1, size)]
    try:
        p = subprocess.run(argv(0) + ["--json"], capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL,
                           timeout=60)
        out, error = p.stdout, None if p.stdout.strip() else "%s: rank 0 wrote no document: %s" \
            % (label, p.stderr.strip()[:300])
    except subprocess.TimeoutExpired:
        out, error = "", "%s: rank 0 did not finish within 60 s" % label
    for o in others:
        try:
            o.wait(timeout=30)
        except subprocess.TimeoutExpired:
            o.kill()
            o.wait()
    return label, out, error


def main():
    scratch = tempfile.mkdtemp()
    try:
        return check_all(scratch)
    finally:
        shutil.rmtree(scratch)


def load_schemas(names):
    schemas, why = {}, []
    for name in sorted(names):
        path = os.path.join(SCHEMAS, name + ".json")
        if not os.path.exists(path):
            why.append('"roce-doctor/%s/v1" is written by src/ but docs/schemas/%s.json does not exist' % (name, name))
            continue
        try:
            schema = json.load(open(path))
            jsonschema.Draft202012Validator.check_schema(schema)
            schemas[name] = schema
        except (ValueError, jsonschema.exceptions.SchemaError) as e:
            why.append("docs/schemas/%s.json: %s" % (name, str(e).splitlines()[0]))
    return schemas, why


def validator(schemas, name):
    """A validator of NAME that resolves "$ref": "host.json#..." and the like to the sibling schema files."""
    store = {}
    for other, schema in schemas.items():
        store[schema.get("$id", other + ".json")] = schema
    resolver = jsonschema.RefResolver(base_uri=schemas[name].get("$id", ""), referrer=schemas[name], store=store)
    return jsonschema.Draft202012Validator(schemas[name], resolver=resolver)


def check_all(scratch):
    names = source_schema_names()
    tap(len(names) >= 10, "src/ names the documents it writes (%d: %s)" % (len(names), " ".join(sorted(names))))
    files = {f[:-5] for f in os.listdir(SCHEMAS) if f.endswith(".json")} if os.path.isdir(SCHEMAS) else set()
    schemas, why = load_schemas(names | files)
    for f in sorted(files - names):
        why.append("docs/schemas/%s.json: no document of src/ has this schema" % f)
    tap(not why, "every document src/ writes has a valid JSON Schema file in docs/schemas, and no file is stray",
        why)

    trees = fixture_trees()
    snaps = snapshots(trees, scratch)
    runs = Runs(scratch)
    per_tree = [["devices"], ["gid"], ["gid", "--suggest"], ["gid", "--suggest", "--family", "ipv6"],
                ["check"], ["nccl-env"], ["nccl"], ["topo"]]
    for tree in trees:
        t = os.path.basename(tree)
        for args in per_tree + [["counters"], ["snapshot", "--json-lines"]]:
            runs.add("%s on %s" % (" ".join(args), t), ["--root", tree, "--json", *args])
        if snaps[tree]:
            for args in per_tree:
                runs.add("%s --from %s's snapshot" % (" ".join(args), t), ["--from", snaps[tree], "--json", *args])
    # counters: no fixture has counters of its own; softroce with some, changed by the measured command (a loss,
    # traffic, a reset), and sampled twice
    tree = os.path.join(scratch, "counters-tree")
    shutil.copytree(os.path.join(FIXTURES, "softroce"), tree, symlinks=True)
    port = os.path.join(tree, "sys", "class", "infiniband", "rxe0", "ports", "1")
    for sub, name in (("hw_counters", "sent_pkts"), ("hw_counters", "rcvd_seq_err"), ("hw_counters", "rcvd_pkts"),
                      ("counters", "port_xmit_data")):
        os.makedirs(os.path.join(port, sub), exist_ok=True)
        with open(os.path.join(port, sub, name), "w") as f:
            f.write("100\n")
    bump = "echo 250 > %s/hw_counters/sent_pkts; echo 107 > %s/hw_counters/rcvd_seq_err; echo 5 > %s/hw_counters/rcvd_pkts" \
        % (port, port, port)
    runs.add("counters around a command", ["--root", tree, "--json", "counters", "--", "sh", "-c", bump])
    runs.add("counters --interval 0.1 --count 2", ["--root", tree, "--json", "counters", "--interval", "0.1",
                                                   "--count", "2"])
    good = [s for s in snaps.values() if s]
    runs.add("compare of every fixture's snapshot", ["--json", "compare", *good])
    runs.add("compare -v of two snapshots", ["--json", "compare", "-v", *good[:2]])
    runs.add("explain --list", ["--json", "explain", "--list"])
    runs.add("check --list", ["--json", "check", "--list"])
    logs, jobs = log_inputs()
    for f in logs:
        runs.add("explain %s" % os.path.relpath(f, SRC), ["--json", "explain", f])
    for d in jobs:
        runs.add("explain %s (one job)" % os.path.relpath(d, SRC), ["--json", "explain", d])
    # pastes: each published paste of tests/pastes, and pasted settings and counters inside a real log with
    # NCCL's own NCCL_IB_TC line ("pastes" filled in beside the log's findings); the rdma statistic pasted
    # again with out_of_sequence moved, so a counter worth a line is in it
    pastes = sorted(glob.glob(os.path.join(SRC, "tests", "pastes", "*.txt")))
    for f in pastes:
        runs.add("explain %s" % os.path.relpath(f, SRC), ["--json", "explain", f])
    if logs and pastes:
        mixed = os.path.join(scratch, "mixed.log")
        with open(mixed, "w") as out:
            out.write(open(logs[0], errors="replace").read())
            out.write("node-a:2071:2071 [0] NCCL INFO NCCL_IB_TC set by environment to 106.\n")
            for f in pastes:
                out.write(open(f, errors="replace").read())
                if "rdma-statistic" in f:
                    out.write(open(f).read().replace("out_of_sequence 0", "out_of_sequence 1811"))
        runs.add("explain of a log with pastes in it", ["--json", "explain", mixed])
    # compressed: the same log through gzip and xz ("compression" is set)
    for mod, ext in (("gzip", "gz"), ("lzma", "xz")):
        if logs:
            packed = os.path.join(scratch, "log." + ext)
            with open(logs[0], "rb") as f, __import__(mod).open(packed, "wb") as z:
                z.write(f.read())
            runs.add("explain of a .%s log" % ext, ["--json", "explain", packed])
    if logs:
        runs.add("explain --with-check", ["--root", os.path.join(FIXTURES, "check-env"), "--json", "explain",
                                          "--with-check", logs[0]])
    for kind in ("all-pairs", "ring", "rail"):
        for nodes in ("2", "7", "300"):
            runs.add("mesh --plan %s --plan-kind %s" % (nodes, kind),
                     ["mesh", "--json", "--plan", nodes, "--plan-kind", kind, "--rails", "2"])
    slurm = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "SLURM_PROCID": "1", "SLURM_NTASKS": "3",
             "SLURM_NNODES": "3", "SLURM_NODELIST": "node[01-03]"}
    runs.todo.append(("mesh --dry-run under srun", [BIN, "--root", os.path.join(FIXTURES, "cx6lx-2port"), "--json",
                                                    "mesh", "--dry-run"], slurm))
    pairs = os.path.join(scratch, "pairs")
    made = subprocess.run([sys.executable, os.path.join(SRC, "tests", "cli", "pair_fixtures.py"), BIN, FIXTURES,
                           pairs], capture_output=True, text=True)
    tap(made.returncode == 0, "tests/cli/pair_fixtures.py makes the check --peer pairs", made.stderr.splitlines())
    for case in sorted(glob.glob(os.path.join(pairs, "*", "a.json"))):
        c = os.path.dirname(case)
        peer = os.path.join(c, "peer")
        runs.add("check --peer on pair %s" % os.path.basename(c),
                 ["--from", case, "--json", "check", "--peer", "192.168.88.2", "--peer-fixture", peer])
        runs.add("nccl-env --peer on pair %s" % os.path.basename(c),
                 ["--from", case, "nccl-env", "--format", "json", "--peer", "192.168.88.2", "--peer-fixture", peer])

    # a command the binary lists that none of the runs above makes (serve runs below; bw and lat need a live
    # peer: their documents are the recorded ones) has documents this test never sees
    top = subprocess.run([BIN, "--help"], capture_output=True, text=True).stdout
    listed = re.findall(r"^  ([a-z][a-z-]*)", top.split("Commands:", 1)[-1].split("\n\n", 1)[0], re.M)
    ran = {a for _, argv, _ in runs.todo for a in argv[1:] if not a.startswith("-")} | {"serve", "bw", "lat"}
    missing = [c for c in listed if c not in ran]
    tap(bool(listed) and not missing, "every command roce-doctor --help lists is run here",
        ["%s: add its runs to tests/docs/schemas_test.py" % c for c in missing])

    docs = []   # (where, document)
    bad = []
    for label, p in runs.run_all():
        if not p.stdout.strip():
            continue   # no document: the run refused its input, which other tests hold to its one line
        try:
            docs.append((label, json.loads(p.stdout)))
        except ValueError as e:
            bad.append("%s: stdout is not one JSON document: %s" % (label, e))
    # a real mesh on 127.0.0.1: 3 ranks all-pairs; 2 ranks on a rail plan over cx6lx-2port's two rails
    for label, out, error in (mesh_run("mesh of 3 ranks on 127.0.0.1", 3),
                              mesh_run("mesh of 2 ranks, rail plan", 2,
                                       ("--root", os.path.join(FIXTURES, "cx6lx-2port"), "--plan-kind", "rail"))):
        if error:
            bad.append(error)
            continue
        try:
            docs.append((label, json.loads(out)))
        except ValueError as e:
            bad.append("%s: stdout is not one JSON document: %s" % (label, e))
    lines, error = serve_lines(scratch)
    if error:
        bad.append(error)
    for i, line in enumerate(lines or []):
        try:
            docs.append(("serve --json line %d" % (i + 1), json.loads(line)))
        except ValueError as e:
            bad.append("serve --json line %d is not JSON: %s" % (i + 1, e))
    for f in sorted(glob.glob(os.path.join(SRC, "tests", "cli", "formats_data", "*.json"))):
        docs.append((os.path.relpath(f, SRC) + " (recorded on the VM pair)", json.load(open(f))))
    tap(not bad, "every run with output wrote one JSON document (%d documents)" % len(docs), bad)

    # every document against its schema; the first errors of each kind named with their path
    seen, why = {}, []
    validators = {}
    for where, doc in docs:
        m = re.fullmatch(r"roce-doctor/([a-z0-9-]+)/v1", str(doc.get("schema"))) if isinstance(doc, dict) else None
        if not m:
            why.append("%s: no roce-doctor/NAME/v1 schema member" % where)
            continue
        name = m.group(1)
        if name not in schemas:
            why.append("%s: %s has no docs/schemas/%s.json" % (where, doc["schema"], name))
            continue
        if name not in validators:
            validators[name] = validator(schemas, name)
        seen[name] = seen.get(name, 0) + 1
        for e in sorted(validators[name].iter_errors(doc), key=lambda e: list(e.absolute_path))[:3]:
            path = "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in e.absolute_path)
            why.append("%s: %s%s: %s" % (where, name, path, e.message[:300]))
    tap(not why, "every document is valid against its schema (%s)"
        % ", ".join("%s %d" % (k, v) for k, v in sorted(seen.items())), why)
    # embedded documents: snapshot's host and system are validated through its schema's $ref
    unseen = sorted(set(schemas) - set(seen) - embedded(schemas))
    tap(not unseen, "every schema file is exercised by a document", ["never seen: " + " ".join(unseen)] if unseen else [])

    # the schemas can fail: each document of each name, mutated, must be rejected
    why = []
    firsts = {}
    for where, doc in docs:
        name = str(doc.get("schema", "")).split("/")[1] if "/" in str(doc.get("schema", "")) else None
        if name in validators and name not in firsts:
            firsts[name] = (where, doc)
    for name, (where, doc) in sorted(firsts.items()):
        for what, mutant in mutants(doc):
            if validators[name].is_valid(mutant):
                why.append("%s (%s): %s is accepted" % (name, where, what))
    tap(bool(firsts) and not why, "a document with a required member removed or of the wrong type is rejected "
        "(%d schemas)" % len(firsts), why)
    print("1..%d" % n)
    return 1 if failed else 0


def embedded(schemas):
    """Schemas only referenced from others ("host" and "system" inside a snapshot)."""
    refs = set()
    for schema in schemas.values():
        refs.update(re.findall(r'"\$ref": "([a-z0-9-]+)\.json', json.dumps(schema)))
    return refs


def mutants(doc):
    """(what, document): the schema member removed; warnings of the wrong type; the first member of each
    object at the top level removed (every top-level member is required); a number where a string was."""
    out = []
    d = copy.deepcopy(doc)
    del d["schema"]
    out.append(("the document without its schema member", d))
    if "warnings" in doc:
        d = copy.deepcopy(doc)
        d["warnings"] = "none"
        out.append(("warnings as a string", d))
    for key in doc:
        if key in ("schema", "warnings"):
            continue
        d = copy.deepcopy(doc)
        del d[key]
        out.append(("the document without %s" % key, d))
        d = copy.deepcopy(doc)
        d[key] = {"unexpected": True} if not isinstance(doc[key], dict) else [1]
        out.append(("%s of the wrong type" % key, d))
        break
    d = copy.deepcopy(doc)
    d["no_such_member"] = 1
    out.append(("an unknown top-level member", d))
    # deeper: the first object inside an array (a finding, a port, a row) without its first member, and with
    # that member a list
    d = copy.deepcopy(doc)
    path, inner = nested_object(d)
    if inner:
        key = next(iter(inner))
        del inner[key]
        out.append(("%s without %s" % (path, key), d))
        d = copy.deepcopy(doc)
        path, inner = nested_object(d)
        inner[key] = [[]]
        out.append(("%s.%s of the wrong type" % (path, key), d))
    return out


def nested_object(value, path=""):
    """The first non-empty object met inside an array, depth first, and its path."""
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in children:
        where = "%s[%d]" % (path, k) if isinstance(k, int) else "%s.%s" % (path, k)
        if isinstance(k, int) and isinstance(v, dict) and v:
            return where, v
        found = nested_object(v, where)
        if found[1]:
            return found
    return path, None


sys.exit(main())
