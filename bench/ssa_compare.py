#!/usr/bin/env python3
"""Compares `applyscope plan --server-side` with what `bench/ssa_oracle.py` recorded from the
real kubectl and the API server's field manager, case by case:

    python3 bench/ssa_compare.py /tmp/hist --scenario csa [--bin target/release/applyscope]

For each `ssa-SCENARIO.json`, the plan of `modified.yaml` over its `live` object (with the
scenario's flags) must give:
- the exit status kubectl gave (0, or 1 for a conflict or a refusal);
- the requests kubectl sent, in order: content type, field manager, force, and the body (as
  JSON; times in managedFields aside); a request refused while kubectl went on (the re-apply
  after the csaupgrade, refused by the resourceVersion lock) is the plan's
  `ssa-reapply-refused` warning instead;
- the object kubectl's sequence left: `result`, with each managedFields entry's `time` and
  `metadata.resourceVersion` aside (the fake server counts versions; the plan keeps the live
  one).
Prints each difference (the first few lines of each) and a count.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml


def untimed(v):
    """A value with managedFields times and resourceVersions taken out."""
    if isinstance(v, dict):
        return {k: untimed(x) for k, x in v.items()
                if k not in ("time", "resourceVersion")}
    if isinstance(v, list):
        return [untimed(x) for x in v]
    return v


def body(text):
    if not isinstance(text, str):
        return untimed(text)
    try:
        return untimed(json.loads(text))
    except ValueError:
        return untimed(yaml.safe_load(text))


def first_difference(a, b, path=""):
    if type(a) is not type(b):
        return "%s: %s != %s" % (path or ".", json.dumps(a)[:200], json.dumps(b)[:200])
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s: only in %s: %s" % (path, k, "kubectl" if k in a else "applyscope",
                                                json.dumps(a.get(k, b.get(k)))[:200])
            d = first_difference(a[k], b[k], path + "." + k)
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return "%s: %d items != %d: %s | %s" % (path, len(a), len(b), json.dumps(a)[:300],
                                                  json.dumps(b)[:300])
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    return None if a == b else "%s: %s != %s" % (path, json.dumps(a)[:200], json.dumps(b)[:200])


def compare(binary, case, scenario):
    rec = json.loads((case / ("ssa-%s.json" % scenario)).read_text())
    if "skipped" in rec:
        return "skipped", rec["skipped"]
    with tempfile.TemporaryDirectory() as tmp:
        live = Path(tmp, "live.json")
        live.write_text(json.dumps(rec["live"]))
        modified = next(case / ("modified" + e) for e in (".yaml", ".yml", ".json")
                        if (case / ("modified" + e)).exists())
        p = subprocess.run([binary, "plan", "--server-side", "-f", str(modified),
                            "--live", str(live), "-o", "json", *rec["flags"]],
                           capture_output=True, text=True, timeout=120)
    if p.returncode != rec["exit_code"]:
        return "differ", "exit %d, kubectl %d: %s | kubectl: %s" % (
            p.returncode, rec["exit_code"], p.stderr.strip()[:400], rec["kubectl_stderr"].strip()[:400])
    if p.returncode:
        # The API server's message, as kubectl prints it after `error: `.
        line = (rec["kubectl_stderr"].splitlines() or [""])[0]
        line = line[len("error: "):] if line.startswith("error: ") else line
        if line not in p.stderr:
            return "differ", "stderr %r lacks kubectl's %r" % (p.stderr[:400], line)
        return "same", None
    plan = json.loads(p.stdout)
    force = "true" if "--force-conflicts" in rec["flags"] else "false"
    # A request the API server refused while kubectl went on (exit 0): only the re-apply
    # after the csaupgrade, which kubectl warns about; the plan ends before it and says so.
    refused = [r for r in rec["requests"] if r["method"] == "PATCH" and "error" in r]
    if refused:
        codes = [w["code"] for w in plan.get("warnings", [])]
        if "failed to re-apply configuration" not in rec["kubectl_stderr"] or "ssa-reapply-refused" not in codes:
            return "differ", "kubectl's refused request %s, the plan's warnings %s" % (
                refused[-1]["error"].get("message", "")[:200], codes)
    sent = [(r["content_type"], r["field_manager"], r["force"], body(r["body"]))
            for r in rec["requests"] if r["method"] == "PATCH" and "error" not in r]
    # The csaupgrade's JSON patch replaces the managedFields (the plan's body) and the
    # resourceVersion (the one it read).
    sent = [(t, m, f, b[0]["value"] if t == "application/json-patch+json"
             and [op["path"] for op in b] == ["/metadata/managedFields", "/metadata/resourceVersion"]
             else b) for t, m, f, b in sent]
    mine = [(s["patchType"], s["manager"],
             force if s["request"] in ("apply", "apply-again") else None, body(s["body"]))
            for s in plan["steps"]]
    if [s[:3] for s in sent] != [s[:3] for s in mine]:
        return "differ", "requests: kubectl %s, applyscope %s" % ([s[:3] for s in sent],
                                                                   [s[:3] for s in mine])
    for i, (a, b) in enumerate(zip(sent, mine)):
        d = first_difference(a[3], b[3])
        if d:
            return "differ", "request %d (%s, %s) body: %s" % (i + 1, a[0], a[1], d)
    d = first_difference(untimed(rec["result"]), untimed(plan["result"]))
    if d:
        return "differ", "result: " + d
    return "same", None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", type=Path)
    ap.add_argument("--scenario", default="csa")
    ap.add_argument("--bin", default=str(Path(__file__).resolve().parents[1]
                                         / "target" / "release" / "applyscope"))
    a = ap.parse_args()
    counts = {}
    for case in sorted(a.cases.iterdir()):
        if not (case / ("ssa-%s.json" % a.scenario)).exists():
            continue
        verdict, why = compare(a.bin, case, a.scenario)
        counts[verdict] = counts.get(verdict, 0) + 1
        if verdict == "differ":
            print("%s: %s" % (case.name, why))
    print(", ".join("%d %s" % (n, v) for v, n in sorted(counts.items())))
    return 1 if counts.get("differ") else 0


if __name__ == "__main__":
    sys.exit(main())
