#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The options of every command, as four places list them, agree: `roce-doctor COMMAND --help` (the truth:
argp parses what it lists), `roce-doctor help COMMAND`, the man page (the command's entry: its synopsis line
and its indented option list, bw and lat's "Connection options" section, and COMMON OPTIONS, whose
"(bw, lat, serve)" scopes must name exactly the commands that take the option) and each shell's completion
(bash, zsh and fish, driven through tests/lib/complete.sh) of `roce-doctor COMMAND --`. Commands come from
`roce-doctor --help`, so a new command or option is held to all four at once. Each disagreement is named.

usage: options_test.py ROCE_DOCTOR SOURCE_ROOT"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

BIN, SRC = os.path.realpath(sys.argv[1]), sys.argv[2]
MAN = os.path.join(SRC, "man", "roce-doctor.1")
# argp's own: documented once in COMMON OPTIONS, never completed (a shell offers --help only)
ARGP_OWN = {"-?", "-V", "--usage", "--version"}
OPTION = re.compile(r"(?<![\w-])(--[a-z][a-z0-9-]*|-[A-Za-z?])(?![\w-])")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "lib"))
from tap import plan, tap  # noqa: E402


def run(*args):
    return subprocess.run([BIN, *args], capture_output=True, text=True).stdout


def help_options(text):
    """-x and --long of argp's option lines ("  -s, --size=BYTES   ...", "      --bidir   ...")."""
    found = set()
    for line in text.splitlines():
        m = re.match(r"^ {2,6}((?:-[^ ,-], )?(?:--[a-z][a-z0-9-]*|-[^ ,-]))[ =,\[]", line)
        if m:
            found.update(OPTION.findall(m.group(1)))
    return found


def roff_plain(line):
    return re.sub(r"\\f[BIRP]", "", line).replace("\\-", "-").replace("\\(lq", '"').replace("\\(rq", '"')


def man_sections(commands):
    """{command: options of its entry}, {option: set of commands its COMMON OPTIONS scope names, or None}."""
    lines = open(MAN, encoding="utf-8").read().splitlines()
    own = {c: set() for c in commands}
    common = {}
    section = sub = None
    current = None        # the command whose entry (or connection options) we are in
    prev = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SH "):
            section, sub, current = line[4:].strip('"'), None, None
        elif line.startswith(".SS "):
            sub = roff_plain(line[4:]).strip('"')
            # "Connection options of bw and lat": its options belong to the commands it names
            current = [w for w in re.findall(r"[a-z][a-z-]*", sub) if w in own] or None
        elif section == "COMMANDS" and prev == ".TP" and re.match(r"^\.B [a-z]", line):
            name = roff_plain(line).split()[1]
            current = [name] if name in own else None
            if current:   # the synopsis line: [\fB\-\-brief\fR] and the like
                own[name].update(OPTION.findall(roff_plain(line)[len(".B " + name):]))
        elif prev == ".TP" and re.match(r"^\.B[IR]? ", line):
            tags = set(OPTION.findall(roff_plain(line)))
            if section == "COMMON OPTIONS":
                body = []
                j = i + 1
                while j < len(lines) and not lines[j].startswith("."):
                    body.append(roff_plain(lines[j]))
                    j += 1
                scope = None
                # "(bw, lat, serve)", "(check --peer, nccl-env --peer)": a group of command names
                for group in re.findall(r"\(([^()]*)\)", " ".join(body)):
                    items = [w.split()[0] for w in re.split(r",|\band\b", group) if w.strip()]
                    if items and all(w in own for w in items):
                        scope = (scope or set()) | set(items)
                for t in tags:
                    common[t] = scope
            elif section == "COMMANDS" and current:
                for c in current:
                    own[c].update(tags)
        prev = line
        i += 1
    return own, common


def completions(commands):
    """{shell: {command: long options offered for "roce-doctor COMMAND --"}}; a shell not installed is absent."""
    answers = {}
    bindir = tempfile.mkdtemp()
    try:
        os.symlink(BIN, os.path.join(bindir, "roce-doctor"))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"])
        queries = ["roce-doctor %s --" % c for c in commands] + ["roce-doctor --"]
        for sh in ("bash", "zsh", "fish"):
            if not shutil.which(sh):
                continue
            script = '. "$1/tests/lib/complete.sh"; sh=$2; shift 2; complete_in "$sh" "$SRC_DIR/completions" "$@"'
            out = subprocess.run(["bash", "-c", script, "-", SRC, sh, *queries], capture_output=True, text=True,
                                 env=dict(env, SRC_DIR=SRC)).stdout
            keys = commands + [""]   # "": roce-doctor's own options, before a command
            got = {c: set() for c in keys}
            for line in out.splitlines():
                k, _, word = line.partition("\t")
                if k.isdigit() and 1 <= int(k) <= len(keys) and word.startswith("--"):
                    got[keys[int(k) - 1]].add(word.split("=")[0])
            answers[sh] = got
    finally:
        shutil.rmtree(bindir)
    return answers


def main():
    top = run("--help")
    block = top.split("Commands:", 1)[1].split("\n\n", 1)[0] if "Commands:" in top else ""
    commands = [m.group(1) for m in re.finditer(r"^  ([a-z][a-z-]*)", block, re.M)]
    tap(bool(commands), "roce-doctor --help lists its commands")
    own, common = man_sections(commands)
    shells = completions(commands)
    for sh in ("bash", "zsh", "fish"):
        if sh not in shells:
            tap(True, "# SKIP %s is not installed (tools/install-deps installs it)" % sh)
    scoped = {o: s for o, s in common.items() if s is not None}

    # roce-doctor --help's own options (before a command): all in COMMON OPTIONS, completed after "roce-doctor"
    # (--version too: it is a top-level request)
    why = []
    want = help_options(top)
    for o in sorted(want - set(common)):
        why.append("COMMON OPTIONS lacks %s (roce-doctor --help lists it)" % o)
    for sh, got in shells.items():
        long_opts = {o for o in want if o.startswith("--")} - {"--usage"}
        for o in sorted(long_opts - got[""]):
            why.append("%s completion lacks %s after roce-doctor" % (sh, o))
        for o in sorted(got[""] - long_opts):
            why.append("%s completion offers %s after roce-doctor, roce-doctor --help does not list it" % (sh, o))
    tap(bool(want) and not why, "roce-doctor --help's options are in COMMON OPTIONS and the completions", why)

    for c in commands:
        why = []
        want = help_options(run(c, "--help"))
        if not want:
            why.append("%s --help lists no options" % c)
        other = help_options(run("help", c))
        for o in sorted(want - other):
            why.append("help %s lacks %s (%s --help lists it)" % (c, o, c))
        for o in sorted(other - want):
            why.append("help %s lists %s, %s --help does not" % (c, o, c))
        # the man page: the command's own entry, the scoped common options naming it, the unscoped ones
        man = own[c] | {o for o, s in scoped.items() if c in s}
        for o in sorted(want - man - {o for o, s in common.items() if s is None}):
            why.append("man page lacks %s for %s (%s --help lists it)" % (o, c, c))
        # COMMON OPTIONS says "(bw, lat, serve)": every command that takes the option, none that does not
        for o in sorted(o for o in want if o in scoped and c not in scoped[o]):
            why.append("COMMON OPTIONS' scope of %s lacks %s (%s --help lists it)" % (o, c, c))
        for o in sorted(man - want):
            where = "COMMON OPTIONS names %s for" % o if o in scoped and c in scoped[o] and o not in own[c] \
                else "man page lists %s for" % o
            why.append("%s %s, %s --help does not" % (where, c, c))
        for sh, got in shells.items():
            long_opts = {o for o in want if o.startswith("--")} - ARGP_OWN
            for o in sorted(long_opts - got[c]):
                why.append("%s completion lacks %s for %s" % (sh, o, c))
            for o in sorted(got[c] - long_opts):
                why.append("%s completion offers %s for %s, %s --help does not list it" % (sh, o, c, c))
        tap(not why, "%s: --help, help %s, the man page and the %s completions list the same options"
            % (c, c, "/".join(shells) or "(no shell)"), why)
    return plan()


sys.exit(main())
