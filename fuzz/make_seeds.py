#!/usr/bin/env python3
"""Write the seed corpora (fuzz/corpus/<target>/) from the project's own test cases
(tests/cases/*), the oracle examples and the conformance vectors (../shared beside the repo).
Files are named by their SHA-1, so running it again rewrites the same seeds and leaves the
other corpus files (inputs kept from fuzzing runs, see README.md) alone.

Documents of one input are separated by a 0xFF byte (see fuzz_targets/common/mod.rs).
The seeds are committed; this script documents where they came from. Needs python3 with
PyYAML (Debian: python3-yaml), used only to turn the YAML examples into JSON for the
strategic-merge targets.
"""
import hashlib
import json
import pathlib

import yaml

FUZZ = pathlib.Path(__file__).resolve().parent
REPO = FUZZ.parent
SHARED = REPO.parent / "shared"
CASES = sorted((REPO / "tests" / "cases").glob("*/"))
EXAMPLES = sorted((SHARED / "oracle" / "examples").glob("*/"))
CONF = SHARED / "conformance"
SEP = b"\xff"


def js(v):
    return json.dumps({} if v is None else v, separators=(",", ":")).encode()


def yaml_json(path):
    return js(yaml.safe_load(path.read_text()))


def load_cases(name):
    return json.loads((CONF / name).read_text())["cases"]


def write(target, items, limit):
    out = FUZZ / "corpus" / target
    out.mkdir(parents=True, exist_ok=True)
    seen = set()
    for data in items:
        h = hashlib.sha1(data).hexdigest()
        if h in seen:
            continue
        seen.add(h)
        (out / h).write_bytes(data)
        if len(seen) >= limit:
            break
    print(target, len(seen))


def every_other(xs, n):
    """Up to n items spread over the whole list."""
    if len(xs) <= n:
        return xs
    step = len(xs) / n
    return [xs[int(i * step)] for i in range(n)]


# yaml_load: whole files as kubectl would read them, plus loader corner cases.
yaml_items = [p.read_bytes() for c in every_other(CASES, 20) for p in [c / "modified.yaml"]]
yaml_items += [p.read_bytes() for e in EXAMPLES for p in sorted(e.glob("current.yaml"))]
yaml_items += [
    b"a: &x {b: 1}\nc: *x\nd:\n  <<: *x\n  e: 2\n",
    b"---\nkind: A\n...\n---\nkind: B\n--- \n",
    b'{"apiVersion": "v1", "kind": "ConfigMap", "data": {"a": "1"}}\n{"kind": "B"}',
    b"a: !!str 010\nb: 0o17\nc: 1_000\nd: yes\ne: .inf\nf: 2001-12-14t21:59:43.10-05:00\ng: !!binary aGk=\n",
    b"k: \"\\u263A \\x41 \\N\"\nl: 'it''s'\nm: |\n  text\n  more\nn: >-\n  folded\n  line\n",
    b"? complex\n: value\n[1, 2]: x\n",
    b"a:\n- - 1\n  - 2\n- {x: [y, {z: ~}]}\n",
]
write("yaml_load", yaml_items, 45)

# smp_apply: document 0xFF patch.
apply_items = [js(c.get("original")) + SEP + js(c.get("patch")) for c in load_cases("smp-apply.json")]
apply_items += [
    js(c.get("original")) + SEP + js(c.get("twoWay"))
    for c in every_other(load_cases("smp-two-way.json"), 12)
]
apply_items += [
    yaml_json(e / "current.yaml") + SEP + yaml_json(e / "modified.yaml")
    for e in EXAMPLES
    if (e / "current.yaml").exists()
]
write("smp_apply", apply_items, 45)

# smp_three_way: original 0xFF modified 0xFF current.
three = load_cases("smp-three-way.json")
three_items = [
    js(c.get("original")) + SEP + js(c.get("modified")) + SEP + js(c.get("current"))
    for c in every_other(three, 30)
]
for d in EXAMPLES + every_other(CASES, 8):
    if all((d / f).exists() for f in ("original.yaml", "modified.yaml", "current.yaml")):
        three_items.append(
            SEP.join(yaml_json(d / f) for f in ("original.yaml", "modified.yaml", "current.yaml"))
        )
write("smp_three_way", three_items, 45)

# plan: local YAML [0xFF live YAML [0xFF last-applied YAML]].
plan_items = []
for d in EXAMPLES + CASES:
    parts = [d / "modified.yaml"]
    if (d / "current.yaml").exists():
        parts.append(d / "current.yaml")
        if (d / "original.yaml").exists():
            parts.append(d / "original.yaml")
    plan_items.append(SEP.join(p.read_bytes() for p in parts))
write("plan", plan_items, 40)
