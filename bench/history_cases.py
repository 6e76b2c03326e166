#!/usr/bin/env python3
"""Oracle cases from real manifests: each object of a file at one commit applied over the same
object at the commit before, as its maintainers changed it.

    python3 bench/history_cases.py --git REPO.git --path deploy/x.yaml [--path ...] \
        --out /tmp/hist [--max 400] [--seed 1]
    python3 ../shared/oracle/oracle.py --cases /tmp/hist --jobs 1
    python3 bench/campaign_compare.py /tmp/hist

For every pair of consecutive commits that touch a path (`git log`), the file is split into
its documents as kubectl splits it (lines `---`), the objects are matched by apiVersion's
group, kind, namespace and name, and every object whose text changed becomes a case folder:
`original.yaml` and `current.yaml` the document as it was (the live object is the one the last
apply created, the annotation the oracle writes from `original`), `modified.yaml` the document
as it became, byte for byte (comments, quoting and layout as the maintainers wrote them). With
more than `--max` cases, a sample (`--seed`). With `--drift P`, a share P of the live objects
are written as JSON after `campaign.py`'s server defaults and drift. Needs PyYAML (`pip install
pyyaml`) to find each document's kind and name (and to read a live object to drift); the files
applied are the texts from git.
"""

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import yaml

SEPARATOR = re.compile(r"^---[ \t]*(#.*)?$")
# Cluster-scoped kinds, as the oracle's fake API server knows them (Kubernetes 1.36): the live
# object of one has no namespace. A kind that is cluster-scoped at these versions but comes at
# another (`admissionregistration.k8s.io/v1beta1`) is skipped: the fake server would take it for
# a namespaced kind, where a real one would not serve it at all.
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "shared" / "oracle"))
from fakeapi import CLUSTER_SCOPED  # noqa: E402

CLUSTER_KINDS = {kind for _, kind in CLUSTER_SCOPED}

sys.path.insert(0, str(Path(__file__).resolve().parent))
import campaign  # noqa: E402


def git(repo, *args):
    return subprocess.run(["git", "--git-dir", repo, *args], capture_output=True,
                          check=True).stdout


def documents(text):
    """The documents of a file, split on `---` lines as kubectl's YAMLReader splits them."""
    docs, cur = [], []
    for line in text.splitlines(keepends=True):
        if SEPARATOR.match(line.rstrip("\r\n")):
            docs.append("".join(cur))
            cur = []
        else:
            cur.append(line)
    docs.append("".join(cur))
    return [d for d in docs if d.strip()]


LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SEEN = {}


def identity(doc):
    """(group, kind, namespace, name) of a document holding one named object, else None (read
    once per distinct text: most documents stay the same from one commit to the next)."""
    if doc not in SEEN:
        SEEN[doc] = read_identity(doc)
    return SEEN[doc]


def read_identity(doc):
    try:
        obj = yaml.load(doc, Loader=LOADER)
    except yaml.YAMLError:
        return None
    if not isinstance(obj, dict) or not isinstance(obj.get("metadata"), dict):
        return None
    meta = obj["metadata"]
    api, kind, name = obj.get("apiVersion"), obj.get("kind"), meta.get("name")
    if not (isinstance(api, str) and isinstance(kind, str) and isinstance(name, str)):
        return None
    if kind.endswith("List") or (kind in CLUSTER_KINDS and (api, kind) not in CLUSTER_SCOPED):
        return None
    group = api.rsplit("/", 1)[0] if "/" in api else ""
    return (group, kind, str(meta.get("namespace") or ""), name)


def live_text(old, new, kind):
    """The live object as the server would serve it after the last apply: at the version the
    new file asks for, and without a namespace for a cluster-scoped kind. Edited as text (only
    those lines), so that the rest reads as the maintainers wrote it."""
    api = re.search(r"^apiVersion:.*$", new, re.M)
    if api:
        old = re.sub(r"^apiVersion:.*$", lambda _: api.group(0), old, count=1, flags=re.M)
    if kind in CLUSTER_KINDS:
        m = re.search(r"^metadata:[ \t]*\n((?:[ \t]*#.*\n|[ \t]+.*\n)*)", old, re.M)
        if m:
            body = re.sub(r"^([ \t]+)namespace:.*\n", "", m.group(1), count=1, flags=re.M)
            old = old[: m.start(1)] + body + old[m.end(1):]
    return old


def drifted_live(text, g):
    """The live object as JSON after what happens to live objects between applies, or None if
    the document does not read as one. Scalars as PyYAML reads them (the live object only has
    to be plausible: the oracle serves it, and the comparison plans against what it served)."""
    try:
        obj = yaml.load(text, Loader=LOADER)
    except yaml.YAMLError:
        return None
    if not isinstance(obj, dict):
        return None
    obj = json.loads(json.dumps(obj, default=str))
    campaign.server_defaults(obj, g)
    campaign.drift(obj, g)
    return json.dumps(obj, indent=2)


def objects(text):
    out = {}
    for doc in documents(text):
        ident = identity(doc)
        if ident is not None and ident not in out:
            out[ident] = doc
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--git", required=True, help="a git directory (a bare mirror will do)")
    ap.add_argument("--path", action="append", required=True, help="a file in the repository")
    ap.add_argument("--out", required=True)
    ap.add_argument("--max", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--prefix", default="h")
    ap.add_argument("--drift", type=float, default=0.0,
                    help="share of cases whose live object has drifted since the last apply "
                         "(campaign.py's server defaults and drift: scaled replicas, an injected "
                         "sidecar, kubectl set image or label, a finalizer, edits), as JSON")
    a = ap.parse_args()
    cases = []
    for path in a.path:
        commits = git(a.git, "log", "--format=%H", "--reverse", "--", path).decode().split()
        before = None
        for commit in commits:
            try:
                text = git(a.git, "show", f"{commit}:{path}").decode("utf-8")
            except (subprocess.CalledProcessError, UnicodeDecodeError):
                before = None
                continue
            now = objects(text)
            if before is not None:
                for ident, doc in now.items():
                    old = before[1].get(ident)
                    if old is not None and old != doc:
                        cases.append((path, before[0], commit, ident, old, doc))
            before = (commit, now)
    rng = random.Random(a.seed)
    rng.shuffle(cases)
    cases = cases[: a.max]
    g = campaign.Gen(rng)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for i, (path, c0, c1, ident, old, new) in enumerate(cases):
        d = out / f"{a.prefix}-{i:04d}"
        d.mkdir(exist_ok=True)
        (d / "original.yaml").write_text(old, encoding="utf-8")
        live = live_text(old, new, ident[1])
        drifted = drifted_live(live, g) if rng.random() < a.drift else None
        if drifted is None:
            (d / "current.yaml").write_text(live, encoding="utf-8")
        else:
            (d / "current.json").write_text(drifted, encoding="utf-8")
        (d / "modified.yaml").write_text(new, encoding="utf-8")
        (d / "source.txt").write_text(
            f"{path}\n{c0[:12]} -> {c1[:12]}\n{'/'.join(ident)}\n", encoding="utf-8")
    print(f"{len(cases)} cases in {out}")


if __name__ == "__main__":
    main()
