"""Record what the real kubectl (1.37.1) does with kuberc files: which apply it chooses.

tests/kuberc/cases.json maps each case's name to
  {"home": FILE, "env": FILE, "flag": FILE,     # kuberc files of tests/kuberc/files/ (each optional)
   "vars": {"KUBECTL_KUBERC": "false"},         # extra variables
   "args": ["--server-side=false"]}             # extra apply flags
`home` is copied to $HOME/.kube/kuberc; `env` is named by $KUBERC; `flag` by --kuberc (a name
that is not in files/ stands for a missing file).
This script runs `kubectl apply -f object.yaml` against the loopback fake API server of
../shared/oracle (a live ConfigMap exists) and writes tests/kuberc/expected.json, per case: the
content type of the PATCH kubectl sent (application/apply-patch+yaml = server-side,
application/strategic-merge-patch+json = client-side, null = it sent none), the query
(fieldManager, force), kubectl's exit code, its stderr (the files' folder written FILES, $HOME
written HOME), and kubectl_version.

    python3 tests/kuberc/record.py [../shared/oracle]
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ORACLE = Path(sys.argv[1] if len(sys.argv) > 1 else HERE.parents[3] / "shared" / "oracle")
sys.path.insert(0, str(ORACLE))
from fakeapi import FakeAPI, find_kubectl  # noqa: E402

OBJECT = {"apiVersion": "v1", "kind": "ConfigMap",
          "metadata": {"name": "demo", "namespace": "default"}, "data": {"a": "2"}}
LIVE = {"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "demo", "namespace": "default", "uid": "u1",
                     "resourceVersion": "1"}, "data": {"a": "1"}}


def run_case(kubectl, spec, api, work):
    folder = HERE / "files"
    home = Path(tempfile.mkdtemp(dir=work))
    (home / ".kube").mkdir()
    files = spec
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_"))}
    env["HOME"] = str(home)
    if files.get("home") and (folder / files["home"]).exists():
        shutil.copyfile(folder / files["home"], home / ".kube" / "kuberc")
    if files.get("env"):
        env["KUBERC"] = str(folder / files["env"])
    env.update(spec.get("vars", {}))
    cfg = {"apiVersion": "v1", "kind": "Config", "current-context": "fake",
           "clusters": [{"name": "fake", "cluster": {"server": api.url}}],
           "users": [{"name": "fake", "user": {}}],
           "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "fake",
                                                     "namespace": "default"}}]}
    (home / "kubeconfig").write_text(json.dumps(cfg))
    (home / "object.yaml").write_text(json.dumps(OBJECT))
    args = [kubectl, "apply", "--kubeconfig", str(home / "kubeconfig"), "--cache-dir",
            str(home / "cache"), "--validate=false", "-f", "object.yaml"]
    if files.get("flag"):
        args += ["--kuberc", str(folder / files["flag"])]
    args += spec.get("args", [])
    api.reset(json.loads(json.dumps(LIVE)))
    p = subprocess.run(args, cwd=home, env=env, capture_output=True, text=True, timeout=60)
    patches = [c for c in api.captured if c["method"] == "PATCH"]
    first = patches[0] if patches else {}
    query = first.get("query", {})
    return {
        "patch_type": first.get("content_type"),
        "field_manager": (query.get("fieldManager") or [None])[-1],
        "force": (query.get("force") or [None])[-1],
        "exit_code": p.returncode,
        "kubectl_stderr": p.stderr.replace(str(folder), "FILES").replace(api.url, "http://fakeapi")
                                  .replace(str(home), "HOME"),
        "kubectl_version": VERSION[0],
    }


VERSION = []


def main():
    kubectl = find_kubectl()
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("KUBE", "KUBECTL_"))}
    version = subprocess.run([kubectl, "version", "--client", "-o", "json"],
                             env=dict(clean, KUBERC="off"), capture_output=True, text=True)
    VERSION.append(json.loads(version.stdout)["clientVersion"]["gitVersion"])
    work = Path(tempfile.mkdtemp(prefix="kuberc-record-"))
    try:
        with FakeAPI(kubectl, str(work)) as api:
            cases = json.loads((HERE / "cases.json").read_text())
            expected = {}
            for name, spec in cases.items():
                expected[name] = run_case(kubectl, spec, api, work)
                print(name, expected[name]["patch_type"], expected[name]["exit_code"])
            (HERE / "expected.json").write_text(json.dumps(expected, indent=2) + "\n")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
