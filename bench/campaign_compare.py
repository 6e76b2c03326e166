#!/usr/bin/env python3
"""Compare `applyscope plan -o json` with what kubectl did, for every case the oracle recorded.

    python3 bench/campaign_compare.py DIR [--bin target/release/applyscope] [--show N]

DIR holds case folders (bench/campaign.py writes them; the oracle writes expected.json beside
each). A case is run as tests/it/oracle_cases.rs runs it through the CLI: `--local` the
modified file, `--live` the live object the oracle served (or `--no-live`), the flags of
apply-flags.txt. Compared: the exit status (kubectl's 0 against ours 0, a failure against a
failure), and on success patchType, patch, result, created and the annotation bytes, numbers
decoded as Go decodes them (an integer beyond int64 is a float64; 1 is not 1.0). A case the
oracle could not record (no expected.json) is one kubectl could not read: if kubectl cannot read
the modified file alone, we must fail too; otherwise the case is invalid and skipped.

Prints one line per differing case, `CLASS case: detail`, then a count per class.
"""

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
INT64 = 1 << 63


def go_int(text):
    n = int(text)
    return n if -INT64 <= n < INT64 else float(text)


def go_loads(text):
    return json.loads(text, parse_int=go_int)


def canon(v):
    return json.dumps(v, sort_keys=True, ensure_ascii=False)


def first_diff(a, b, path="$"):
    """The path of the first difference between two JSON values, with both sides."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return "%s.%s: ours %s, kubectl %s" % (
                    path, k, "absent" if k not in a else canon(a[k])[:120],
                    "absent" if k not in b else canon(b[k])[:120])
            if canon(a[k]) != canon(b[k]):
                return first_diff(a[k], b[k], "%s.%s" % (path, k))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            if canon(x) != canon(y):
                return first_diff(x, y, "%s[%d]" % (path, i))
    return "%s: ours %s, kubectl %s" % (path, canon(a)[:200], canon(b)[:200])


def role_file(d, role):
    for ext in (".yaml", ".yml", ".json"):
        if (d / (role + ext)).is_file():
            return d / (role + ext)
    return None


def kubectl_reads(path):
    sys.path.insert(0, "/work/shared/oracle")
    from fakeapi import find_kubectl  # noqa: E402
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([find_kubectl(), "patch", "--local", "--type", "merge", "-p", "{}",
                            "-o", "json", "-f", str(path)], capture_output=True, text=True,
                           cwd=tmp, env={"HOME": tmp, "KUBERC": "off", "PATH": "/usr/bin:/bin"})
    return p.returncode == 0, p.stderr.strip()


def ours(binary, d, e):
    flags = (d / "apply-flags.txt").read_text().split() if (d / "apply-flags.txt").is_file() \
        else []
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [binary, "plan", "-o", "json", "--local", str(role_file(d, "modified"))]
        if e is None or e.get("live") is None:
            if e is None and role_file(d, "current"):
                cmd += ["--live", str(role_file(d, "current"))]
            else:
                cmd.append("--no-live")
        else:
            live = Path(tmp, "live.json")
            live.write_text(json.dumps(e["live"]))
            cmd += ["--live", str(live)]
        if "--overwrite=false" in flags:
            cmd.append("--overwrite=false")
        p = subprocess.run(cmd, capture_output=True, text=True)
    return p


def compare(binary, d):
    """(class, detail) of the first difference, or None."""
    exp = d / "expected.json"
    if not exp.is_file():
        readable, why = kubectl_reads(role_file(d, "modified"))
        if readable:
            return "skip-invalid", "the oracle could not record it (original or current)"
        p = ours(binary, d, None)
        if p.returncode == 0:
            return "unreadable-we-plan", why[:200]
        return None
    e = go_loads(exp.read_text())
    if e.get("kubectl_version") != "v1.37.1":
        return "skip-version", str(e.get("kubectl_version"))
    p = ours(binary, d, e)
    if e["exit_code"] != 0:
        if p.returncode == 0:
            return "kubectl-fails-we-plan", e["kubectl_stderr"].strip().splitlines()[-1][:200]
        return None
    if p.returncode != 0:
        return "we-fail-kubectl-plans", p.stderr.strip()[:200]
    got = go_loads(p.stdout)
    for ours_key, k_key in [("patchType", "patch_type"), ("patch", "patch"),
                            ("created", "created"), ("result", "result")]:
        a, b = got.get(ours_key), e.get(k_key)
        if canon(a) != canon(b):
            return "%s-differs" % k_key, first_diff(a, b)
    sent = None
    for where in ("patch", "created"):
        ann = ((e.get(where) or {}).get("metadata") or {}).get("annotations") or {}
        if isinstance(ann.get(LAST_APPLIED), str):
            sent = ann[LAST_APPLIED]
    if sent is not None and got.get("annotation") != sent:
        return "annotation-differs", "ours %r kubectl %r" % (got.get("annotation"), sent)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--bin", default="target/release/applyscope")
    a = ap.parse_args()
    classes, total = Counter(), 0
    for root in a.dirs:
        for d in sorted(p for p in Path(root).iterdir() if role_file(p, "modified")):
            total += 1
            r = compare(a.bin, d)
            if r:
                classes[r[0]] += 1
                print("%-22s %s: %s" % (r[0], d, r[1]))
    skipped = sum(n for c, n in classes.items() if c.startswith("skip"))
    print("%d cases, %d compared, %d differ" % (total, total - skipped,
                                              sum(classes.values()) - skipped))
    for c, n in classes.most_common():
        print("  %-24s %d" % (c, n))
    return 1 if sum(classes.values()) - skipped else 0


if __name__ == "__main__":
    sys.exit(main())
