# SPDX-License-Identifier: GPL-2.0-only
"""explain's number tables against the source text they were copied from (tests/logs/catalogue/decode/,
cut by tools/log-catalogue/extract-decode; errno from this host's <asm-generic/errno*.h> and strerror()).
Prints one TAP line per table, "ok"/"not ok" with the differences.
  decode_check.py LOG_DECODE_DUMP DECODE_DIR [ERRNO_HEADER...]"""
import os
import pathlib
import re
import subprocess
import sys


def c_string(lit):
    return bytes(lit, "utf-8").decode("unicode_escape")


def literals(text):
    return "".join(c_string(s) for s in re.findall(r'"((?:[^"\\]|\\.)*)"', text))


def wc_table(d):
    names = re.findall(r"^\s*(IBV_WC_\w+),", (d / "rdma-core-verbs.h").read_text(), re.M)
    texts = dict(re.findall(r"\[(IBV_WC_\w+)\]\s*=\s*\"([^\"]*)\"", (d / "rdma-core-enum_strs.c").read_text()))
    return {(str(v), n, texts[n]) for v, n in enumerate(names)}, {n: v for v, n in enumerate(names)}


def synd_table(d, wc_value):
    values = {n: int(v, 16) for n, v in re.findall(r"(MLX5_CQE_SYNDROME_\w+)\s*=\s*(0x[0-9a-fA-F]+)",
                                                  (d / "rdma-core-mlx5dv.h").read_text())}
    maps = dict(re.findall(r"case (MLX5_CQE_SYNDROME_\w+):\s*return (IBV_WC_\w+);", (d / "rdma-core-cq.c").read_text()))
    words = {n: literals(body) for n, body in re.findall(r"case (MLX5_CQE_SYNDROME_\w+):\s*snprintf\(err_info, "
                                                         r"sizeof\(err_info\),\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)\);",
                                                         (d / "ucx-ib_mlx5_log.c").read_text())}
    return {(str(values[n]), n, str(wc_value[maps[n]]), words[n]) for n in values}


def vend_values(d):
    text = (d / "rdma-core-mlx5dv.h").read_text() + (d / "ucx-ib_mlx5.h").read_text()
    return {str(int(v, 16)) for v in re.findall(r"VENDOR_SYN\w*\s*=?\s*(0x[0-9a-fA-F]+)", text)}


def errno_table(headers):
    names = {}
    for h in headers:
        for n, v in re.findall(r"#define\s+(E\w+)\s+(\d+)", pathlib.Path(h).read_text()):
            names.setdefault(int(v), n)
    return {(str(v), n, os.strerror(v)) for v, n in names.items()}


def tag_key(tag):
    return tuple(int(x) for x in re.findall(r"\d+", tag)[1:])


def nccl_strings(d):
    """[(first, last, {code: string})] oldest first, and {code: value} of the newest nccl.h.in."""
    runs = []
    for f in d.glob("nccl-error-string-*"):
        first, last = f.name[len("nccl-error-string-"):].split("..")
        text = f.read_text()
        strings = {n: c_string(s) for n, s in re.findall(r"case (nccl\w+)\s*:\s*return \"((?:[^\"\\]|\\.)*)\";", text)}
        runs.append((tag_key(first), first, last, strings))
    values = {n: int(v) for n, v in re.findall(r"(nccl\w+)\s*=\s*(\d+)", (d / "nccl-nccl.h.in").read_text())}
    return [r[1:] for r in sorted(runs)], values


def torch_strings(d):
    text = (d / "pytorch-NCCLUtils.cpp").read_text()
    out = {}
    for n, body in re.findall(r"case (nccl\w+):\s*interpret\s*=\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+);", text):
        out[n] = literals(body)
    return out


def main():
    dump, d, headers = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3:]
    rows = [line.split("\t") for line in subprocess.run([dump], capture_output=True, text=True,
                                                        check=True).stdout.splitlines()]
    ours = {k: {tuple(r[1:]) for r in rows if r[0] == k} for k in ("wc", "synd", "vend", "errno", "nccl")}
    checks = []
    wc, wc_value = wc_table(d)
    checks.append(("ibv_wc_status: values, names and ibv_wc_status_str() as rdma-core defines them", wc, ours["wc"]))
    checks.append(("mlx5 CQE syndromes: values, the wc status cq.c maps each to, UCX's words",
                   synd_table(d, wc_value), ours["synd"]))
    checks.append(("mlx5 vendor syndromes: the values rdma-core and UCX name", vend_values(d),
                   {r[0] for r in ours["vend"]}))
    headers = [h for h in headers if pathlib.Path(h).is_file()]
    if headers:
        checks.append(("errno: every value and name of the kernel's headers, glibc's strerror()",
                       errno_table(headers), ours["errno"]))
    runs, values = nccl_strings(d)
    torch = torch_strings(d)
    want = set()
    for name, value in values.items():
        if name == "ncclNumResults":
            continue
        having = [r for r in runs if name in r[2]]
        # the releases before 2.18 printed the short strings: the last of them that has the code
        before = [r for r in having if tag_key(r[0]) < (18, 1, 1)]
        first = "2.0" if having[0] is runs[0] else having[0][0]
        old = before[-1][2][name] if before else ""
        want.add((str(value), name, first, old, having[-1][2][name], torch.get(name, "")))
    checks.append(("ncclResult_t: values, first release, ncclGetErrorString() old and new, PyTorch's detail",
                   want, ours["nccl"]))
    n = 0
    for what, source, table in checks:
        n += 1
        missing, extra = sorted(source - table), sorted(table - source)
        print(f"{'ok' if not missing and not extra else 'not ok'} {n} - {what}")
        for m in missing:
            print(f"# in the source, not in the table: {m}")
        for e in extra:
            print(f"# in the table, not in the source: {e}")
    print(f"1..{n}")


main()
