#!/usr/bin/env python3
"""Record expected.json for cases whose modified.yaml kubectl cannot read.

The oracle (`../shared/oracle/oracle.py --cases`) first reads every file of a
case with kubectl and refuses the case ("kubectl could not read the case") when
that fails, so it never records what `kubectl apply` does with such a file. This
script records those cases with the oracle's own classes: original.yaml and
current.yaml are read and served exactly as the oracle does (annotation written
by kubectl's dry run), then the real `kubectl apply -f modified.yaml` runs
against the fake API server. The output has the oracle's format.

    python3 tests/cases/record_unreadable.py tests/cases/87-...   [more case folders]

It refuses a case whose modified.yaml kubectl CAN read: record that one with
oracle.py. The oracle folder is $ORACLE_DIR, else ../shared/oracle beside the
package root.
"""

import json
import os
import sys
import tempfile
from pathlib import Path

sys.dont_write_bytecode = True
ROOT = Path(__file__).resolve().parents[2]
ORACLE_DIR = Path(os.environ.get("ORACLE_DIR") or ROOT.parent / "shared" / "oracle")
sys.path.insert(0, str(ORACLE_DIR))
from fakeapi import find_kubectl  # noqa: E402
from oracle import Oracle, case_files  # noqa: E402


def record(oracle, folder):
    files = case_files(folder)
    if "modified" not in files or "current" not in files:
        raise ValueError("needs modified.yaml and current.yaml")
    try:
        oracle.load({"modified": files["modified"]})
    except ValueError:
        pass  # unreadable, as expected
    else:
        raise ValueError("kubectl reads modified.yaml: record this case with oracle.py")
    readable = {role: f for role, f in files.items() if role != "modified"}
    d, objs = oracle.load(readable)  # raises if original/current are unreadable too
    (d / "modified.yaml").write_bytes(files["modified"].read_bytes())
    objs["modified"] = {"metadata": {}}  # only read for a namespace-less live object
    extra = folder / "apply-flags.txt"
    flags = extra.read_text().split() if extra.is_file() else []
    with oracle:
        out = oracle.case(d, objs, flags)
    (folder / "expected.json").write_text(json.dumps(out, indent=2) + "\n")
    return out


def main(argv):
    if not argv:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    failed = 0
    kubectl = find_kubectl()
    for arg in argv:
        folder = Path(arg)
        with tempfile.TemporaryDirectory(prefix="kubectl-oracle-") as tmp:
            try:
                out = record(Oracle(kubectl, tmp), folder)
            except ValueError as e:
                print("%-40s ERROR %s" % (folder.name, e), file=sys.stderr)
                failed += 1
                continue
        print("%-40s exit=%d %s" % (folder.name, out["exit_code"], out["patch_type"]),
              file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
