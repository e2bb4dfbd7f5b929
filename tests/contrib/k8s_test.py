#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""contrib/k8s against the Kubernetes API shapes it uses, with python3-yaml (Debian 12 has no kubeconform or
kubeval, and its kubernetes-client 1.20 needs an API server even for --dry-run=client): every field is one the
API knows, with the type it takes; selectors, volumes, mounts, ports and capabilities are consistent as the
API server would require; the check DaemonSet writes its Prometheus file where the node-exporter sidecar
reads it, with options `roce-doctor check --help` lists. Broken copies of the manifest must be refused.
  k8s_test.py ROCE_DOCTOR SOURCE_ROOT"""
import copy, os, re, subprocess, sys
import yaml

rd, src = sys.argv[1], sys.argv[2]
k8s = os.path.join(src, "contrib", "k8s")
n = failed = 0


def tap(name, errors, skip=None):
    global n, failed
    n += 1
    if skip:
        print(f"ok {n} # SKIP {name}: {skip}")
    elif errors:
        failed += 1
        print(f"not ok {n} - {name}")
        for e in errors[:20]:
            print(f"# {e}")
    else:
        print(f"ok {n} - {name}")


# The subset of the API the recipes use: field -> type, a nested dict, or [item shape]. str/int/bool are
# scalars; "q" a resource quantity; "labels" a map of strings.
QUANTITY = re.compile(r"^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$")
SECURITY = {"privileged": bool, "readOnlyRootFilesystem": bool, "runAsNonRoot": bool, "runAsUser": int,
            "allowPrivilegeEscalation": bool, "capabilities": {"add": [str], "drop": [str]}}
CONTAINER = {
    "name": str, "image": str, "command": [str], "args": [str], "imagePullPolicy": str,
    "env": [{"name": str, "value": str}],
    "ports": [{"name": str, "containerPort": int, "hostPort": int, "protocol": str}],
    "securityContext": SECURITY,
    "volumeMounts": [{"name": str, "mountPath": str, "readOnly": bool, "mountPropagation": str}],
    "resources": {"requests": {"cpu": "q", "memory": "q"}, "limits": {"cpu": "q", "memory": "q"}},
}
META = {"name": str, "namespace": str, "labels": "labels", "annotations": "labels"}
DAEMONSET = {
    "apiVersion": str, "kind": str, "metadata": META,
    "spec": {
        "selector": {"matchLabels": "labels"},
        "template": {
            "metadata": META,
            "spec": {
                "hostNetwork": bool, "hostPID": bool, "dnsPolicy": str, "nodeSelector": "labels",
                "tolerations": [{"operator": str, "key": str, "effect": str, "value": str}],
                "containers": [CONTAINER],
                "volumes": [{"name": str, "hostPath": {"path": str, "type": str},
                             "emptyDir": {"medium": str, "sizeLimit": "q"}}],
            },
        },
    },
}
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def shape(doc, spec, path, errors):
    """Every member of doc is in spec with the type spec gives."""
    if isinstance(spec, dict):
        if not isinstance(doc, dict):
            return errors.append(f"{path}: expected an object")
        for k, v in doc.items():
            if k not in spec:
                errors.append(f"{path}.{k}: not a field of this object")
            else:
                shape(v, spec[k], f"{path}.{k}", errors)
    elif isinstance(spec, list):
        if not isinstance(doc, list):
            return errors.append(f"{path}: expected a list")
        for i, item in enumerate(doc):
            shape(item, spec[0], f"{path}[{i}]", errors)
    elif spec == "labels":
        if not isinstance(doc, dict) or not all(isinstance(v, str) for v in doc.values()):
            errors.append(f"{path}: expected a map of strings (quote \"true\", numbers)")
    elif spec == "q":
        if not QUANTITY.match(str(doc)):
            errors.append(f"{path}: {doc!r} is not a quantity")
    elif spec is int and isinstance(doc, bool) or not isinstance(doc, spec):
        errors.append(f"{path}: expected {spec.__name__}, got {type(doc).__name__}")


def daemonset(ds):
    """What the API server would refuse, and what a DaemonSet for roce-doctor needs."""
    e = []
    shape(ds, DAEMONSET, "", e)
    if e:
        return e
    if (ds.get("apiVersion"), ds.get("kind")) != ("apps/v1", "DaemonSet"):
        e.append("not an apps/v1 DaemonSet")
    if not DNS_LABEL.match(ds["metadata"].get("name", "")):
        e.append(".metadata.name: not a DNS-1123 name")
    tmpl = ds["spec"]["template"]
    labels = tmpl.get("metadata", {}).get("labels", {})
    for k, v in ds["spec"]["selector"].get("matchLabels", {}).items():
        if labels.get(k) != v:
            e.append(f".spec.selector.matchLabels.{k}: not a label of the template (the API refuses it)")
    pod = tmpl["spec"]
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    if len(volumes) != len(pod.get("volumes", [])):
        e.append(".spec.template.spec.volumes: two volumes of one name")
    for name, v in volumes.items():
        if len([s for s in ("hostPath", "emptyDir") if s in v]) != 1:
            e.append(f"volume {name}: exactly one source (hostPath, emptyDir)")
        if "hostPath" in v and not v["hostPath"].get("path", "").startswith("/"):
            e.append(f"volume {name}: hostPath.path must be absolute")
    names = [c.get("name", "") for c in pod["containers"]]
    if len(set(names)) != len(names) or not all(DNS_LABEL.match(x) for x in names):
        e.append("containers: names must be unique DNS-1123 labels")
    for c in pod["containers"]:
        where = f"container {c.get('name')}"
        if not c.get("image"):
            e.append(f"{where}: no image")
        paths = [m["mountPath"] for m in c.get("volumeMounts", [])]
        if len(set(paths)) != len(paths):
            e.append(f"{where}: two mounts at one path")
        for m in c.get("volumeMounts", []):
            if m["name"] not in volumes:
                e.append(f"{where}: mount {m['name']} names no volume")
            if not m["mountPath"].startswith("/"):
                e.append(f"{where}: mountPath {m['mountPath']} is not absolute")
        for cap in c.get("securityContext", {}).get("capabilities", {}).get("add", []):
            if not re.match(r"^[A-Z_]+$", cap) or cap.startswith("CAP_"):
                e.append(f"{where}: capability {cap}: spelled without CAP_, upper case")
        for p in c.get("ports", []):
            if pod.get("hostNetwork") and p.get("hostPort", p["containerPort"]) != p["containerPort"]:
                e.append(f"{where}: with hostNetwork hostPort must equal containerPort")
    # roce-doctor sees the node: its network, /sys (read-only) and RDMA devices, and may lock memory
    rd_c = next((c for c in pod["containers"] if "roce-doctor" in " ".join(c.get("command", []) + [c["image"]])), None)
    if not pod.get("hostNetwork"):
        e.append("hostNetwork is not true: check would see the pod's network")
    if rd_c is None:
        return e + ["no container runs roce-doctor"]
    mounts = {m["mountPath"]: m for m in rd_c.get("volumeMounts", [])}
    sys_m = mounts.get("/sys")
    if not sys_m or not sys_m.get("readOnly") or volumes.get(sys_m["name"], {}).get("hostPath", {}).get("path") != "/sys":
        e.append("roce-doctor does not mount the host's /sys read-only at /sys")
    ib = mounts.get("/dev/infiniband")
    if not ib or volumes.get(ib["name"], {}).get("hostPath", {}).get("path") != "/dev/infiniband":
        e.append("roce-doctor does not mount the host's /dev/infiniband")
    if "IPC_LOCK" not in rd_c.get("securityContext", {}).get("capabilities", {}).get("add", []):
        e.append("roce-doctor lacks IPC_LOCK (memlock.register cannot register memory)")
    return e


def textfile(ds):
    """check's --output lands in an emptyDir the node-exporter sidecar reads as its textfile directory."""
    e = []
    pod = ds["spec"]["template"]["spec"]
    script = next((" ".join(c.get("command", [])) for c in pod["containers"] if "roce-doctor check" in " ".join(c.get("command", []))), "")
    m = re.search(r"roce-doctor check (.*?)--output[ =](\S+)", script)
    if not m or "--format prometheus" not in m.group(0):
        return ["no `roce-doctor check --format prometheus --output FILE` in a container's command"]
    out = m.group(2)
    if not out.endswith(".prom"):
        e.append(f"{out}: the textfile collector reads only *.prom")
    rd_c = next(c for c in pod["containers"] if "roce-doctor check" in " ".join(c.get("command", [])))
    vol = next((mt["name"] for mt in rd_c.get("volumeMounts", []) if mt["mountPath"] == os.path.dirname(out)), None)
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    if vol is None or "emptyDir" not in volumes.get(vol, {}):
        return e + [f"{os.path.dirname(out)} is not an emptyDir mount of the roce-doctor container"]
    ne = [c for c in pod["containers"] if any(a.startswith("--collector.textfile.directory") for a in c.get("args", []))]
    if not ne:
        return e + ["no node-exporter container with --collector.textfile.directory"]
    d = next(a.split("=", 1)[1] for a in ne[0]["args"] if a.startswith("--collector.textfile.directory="))
    if not any(mt["name"] == vol and mt["mountPath"] == d for mt in ne[0].get("volumeMounts", [])):
        e.append(f"node-exporter reads {d}, which is not where it mounts the volume {vol}")
    return e


manifests = {}
for f in sorted(os.listdir(k8s)):
    if f.endswith(".yaml"):
        with open(os.path.join(k8s, f)) as fh:
            manifests[f] = list(yaml.safe_load_all(fh))
tap("contrib/k8s has the check and snapshot DaemonSets",
    [] if {"roce-doctor-check.yaml", "roce-doctor-snapshot.yaml"} <= set(manifests) else [f"found {sorted(manifests)}"])
for f, docs in manifests.items():
    tap(f"{f}: a DaemonSet the API accepts, seeing the node", [f"{f}: {x}" for d in docs for x in daemonset(d)])
check = manifests.get("roce-doctor-check.yaml", [{}])[0]
tap("roce-doctor-check.yaml: check's Prometheus file is in node-exporter's textfile directory", textfile(check))

# The options the DaemonSet gives check are ones check has (--format/--output arrive with the formats work)
script = " ".join(c for c in check["spec"]["template"]["spec"]["containers"][0]["command"])
used = sorted(set(re.findall(r"roce-doctor check ((?:--[a-z-]+[ =]?\S* ?)+)", script)[0].split()) - {"prometheus"})
used = [u for u in used if u.startswith("--")]
helptext = subprocess.run([rd, "check", "--help"], capture_output=True, text=True).stdout
missing = [u for u in used if u not in helptext]
tap("roce-doctor-check.yaml: check takes every option the DaemonSet gives it", [f"check --help lacks {u}" for u in missing],
    skip=None if "--format" in helptext else "this roce-doctor's check has no --format yet")

# The checks can fail: each broken copy is refused
def broken(mutate):
    d = copy.deepcopy(check)
    mutate(d)
    return daemonset(d) + textfile(d)

pod = lambda d: d["spec"]["template"]["spec"]
cases = {
    "a misspelt field": lambda d: pod(d)["containers"][0].update(volumeMount=[]),
    "a selector the template lacks": lambda d: d["spec"]["selector"]["matchLabels"].update(app="other"),
    "a mount of no volume": lambda d: pod(d).update(volumes=pod(d)["volumes"][:1]),
    "/sys writable": lambda d: pod(d)["containers"][0]["volumeMounts"][0].update(readOnly=False),
    "no IPC_LOCK": lambda d: pod(d)["containers"][0]["securityContext"]["capabilities"].update(add=["NET_ADMIN"]),
    "no hostNetwork": lambda d: pod(d).update(hostNetwork=False),
    "an unquoted annotation": lambda d: d["spec"]["template"]["metadata"]["annotations"].update({"prometheus.io/scrape": True}),
    "node-exporter reading another directory": lambda d: pod(d)["containers"][1].update(
        args=["--collector.textfile.directory=/elsewhere"]),
}
for name, m in cases.items():
    print(f"# {name}: {(broken(m) or ['NOT REFUSED'])[0]}")
tap("broken copies of roce-doctor-check.yaml are refused",
    [f"not refused: {name}" for name, m in cases.items() if not broken(m)])

# The image: Debian 12, the package dpkg-buildpackage makes, installed with its dependencies by apt
with open(os.path.join(k8s, "Dockerfile")) as fh:
    docker = fh.read()
e = []
if not re.search(r"^FROM debian:(12|bookworm)(-slim)?$", docker, re.M):
    e.append("not FROM debian:12")
if not re.search(r"^COPY roce-doctor_\*\.deb ", docker, re.M):
    e.append("does not COPY roce-doctor_*.deb")
if not re.search(r"apt-get install [^\n]*/tmp/roce-doctor_\*\.deb", docker):
    e.append("does not apt-get install the .deb (dpkg -i would not bring its dependencies)")
tap("Dockerfile: Debian 12 with the roce-doctor .deb", e)

print(f"1..{n}")
sys.exit(1 if failed else 0)
