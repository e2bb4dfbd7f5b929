# SPDX-License-Identifier: GPL-2.0-only
"""TAP for the python tests that judge the tree (tests/docs): one line a case, the reasons of a failure as
comments, the plan at the end. Imported after sys.path gets tests/lib.

  tap(ok, name, why=(), limit=None)   "ok N - name" or "not ok N - name", then each line of why (the first
                                      limit of them) as "# line"; a name that starts with "#" is a directive
                                      ("ok N # SKIP reason")
  plan()                              prints "1..N"; returns the exit status: 1 when a case failed"""
_counts = {"n": 0, "failed": 0}


def tap(ok, name, why=(), limit=None):
    _counts["n"] += 1
    _counts["failed"] += not ok
    print(("ok" if ok else "not ok") + (" %d %s" if name.startswith("#") else " %d - %s") % (_counts["n"], name),
          flush=True)
    for line in list(why)[:limit]:
        print("# " + line)


def plan():
    print("1..%d" % _counts["n"])
    return 1 if _counts["failed"] else 0
