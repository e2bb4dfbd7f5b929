#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The README stays a page a newcomer reads in five minutes, and no link of the documentation is dead:
README.md has at most 300 lines, none over 100 characters; its first 40 lines (one screen) hold the two
commands of a fresh machine (`sudo tools/demo`, `sudo tests/run-all`), the install and the two-node quick
start; every relative link of README.md and docs/*.md names a file of the tree, and an anchor in it
(#heading) names a heading of that markdown file, as GitHub spells them.

usage: readme_test.py SOURCE_ROOT [README]   (README: another file to judge in place of README.md)"""
import glob
import os
import re
import sys
import tempfile

SRC = sys.argv[1]
README = sys.argv[2] if len(sys.argv) > 2 else os.path.join(SRC, "README.md")
MAX_LINES, MAX_COLUMNS, SCREEN = 300, 100, 40
LINK = re.compile(r"(?<!!)\[((?:[^\[\]]|\[[^\]]*\])+)\]\(([^)\s]+)\)")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "lib"))
from tap import plan, tap  # noqa: E402


def slug(heading):
    """GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces as -."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())
    text = re.sub(r"[^\w\- ]", "", text.replace("`", "").lower())
    return text.replace(" ", "-")


def anchors(path):
    found, fenced = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
        m = None if fenced else re.match(r"^#{1,6} (.*)", line)
        if m:
            base = slug(m.group(1))
            name, k = base, 0
            while name in found:   # GitHub numbers a repeated heading: name, name-1, name-2
                k += 1
                name = "%s-%d" % (base, k)
            found.add(name)
    return found


def text_outside_code(path):
    """The file with its fenced blocks blanked (links in a shell sample are not links)."""
    out, fenced = [], False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fenced = not fenced
            line = "\n"
        out.append("\n" if fenced else line)
    return "".join(out)


lines = open(README, encoding="utf-8").read().split("\n")
if lines and lines[-1] == "":
    lines.pop()
tap(len(lines) <= MAX_LINES, "README has at most %d lines (it has %d)" % (MAX_LINES, len(lines)))
wide = ["line %d: %d characters" % (i, len(l)) for i, l in enumerate(lines, 1) if len(l) > MAX_COLUMNS]
tap(not wide, "no README line is over %d characters (%d are)" % (MAX_COLUMNS, len(wide)), wide[:20])
screen = "\n".join(lines[:SCREEN])
for want in ("sudo tools/demo", "sudo tests/run-all"):
    tap(want in screen, "README's first %d lines hold `%s`" % (SCREEN, want))
for title in ("Install", "Quick start"):
    tap(re.search(r"^## %s" % title, screen, re.M) is not None,
        "README's first %d lines hold its '## %s' section" % (SCREEN, title))

def dead_links(docs, readme):
    """'FILE: [text](target): why' for each relative link of DOCS that names no file, or no heading there."""
    dead, seen = [], 0
    for doc in docs:
        here = os.path.dirname(os.path.join(SRC, "README.md") if doc == readme else doc)
        shown = "README.md" if doc == readme else os.path.relpath(doc, SRC)
        for m in LINK.finditer(text_outside_code(doc)):
            target = m.group(2)
            if re.match(r"^[a-z][a-z+.-]*:", target):   # http:, https:, mailto:
                continue
            seen += 1
            path, _, anchor = target.partition("#")
            file = os.path.normpath(os.path.join(here, path)) if path else doc
            if not os.path.exists(file):
                dead.append("%s: [%s](%s): no file %s" % (shown, m.group(1), target, os.path.relpath(file, SRC)))
            elif anchor and file.endswith(".md") and anchor not in anchors(file):
                dead.append("%s: [%s](%s): no heading #%s in %s" % (shown, m.group(1), target, anchor,
                                                                    os.path.relpath(file, SRC)))
    return dead, seen


# the checker itself: a planted file with a dead link, a dead anchor and two good ones gives exactly two
with tempfile.TemporaryDirectory() as tmp:
    planted = os.path.join(tmp, "planted.md")
    with open(os.path.join(tmp, "other.md"), "w", encoding="utf-8") as f:
        f.write("# Other\n## Quick start: on --root\n")
    with open(planted, "w", encoding="utf-8") as f:
        f.write("# A `b`, c\n[ok](#a-b-c) [ok](other.md#quick-start-on---root)\n"
                "[no](absent.md) [no](#nowhere)\n```\n[code](absent2.md)\n```\n")
    planted_dead, _ = dead_links([planted], None)
    tap(len(planted_dead) == 2, "the link checker finds a planted dead file and dead anchor, nothing else",
        () if len(planted_dead) == 2 else planted_dead)

dead, seen = dead_links([README] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md"))), README)
tap(seen > 0 and not dead, "every relative link of README.md and docs/*.md (%d) names a file and heading there"
    % seen, dead)
sys.exit(plan())
