#!/usr/bin/env python3
"""Server-side apply oracle: the real `kubectl apply --server-side` against a fake API server
whose writes go through the Kubernetes API server's own field manager (`bench/ssaref`, Go,
k8s.io/apimachinery v0.37.1's managedfields), over oracle case folders (`history_cases.py`,
`campaign.py`):

    (cd bench/ssaref && go build -o ssaref .)
    python3 bench/ssa_oracle.py --cases /tmp/hist --scenario csa [--jobs 2]
    python3 bench/ssa_compare.py /tmp/hist --scenario csa

For each folder holding `original.yaml` and `modified.yaml`, the scenario makes the live
object, then runs `kubectl apply --server-side --validate=false -f modified.yaml` and writes
`ssa-SCENARIO.json`: `live` (the object as it was before that apply, with its managedFields),
`requests` (each PATCH and POST: method, content type, field manager, force, body), `result`
(the object after kubectl's whole sequence), `exit_code`, `kubectl_stdout`, `kubectl_stderr`.

- `csa`: `kubectl apply` (client-side) of `original.yaml` made the object; the server-side
  apply migrates it (csaupgrade) and prunes what the file dropped.
- `ssa`: `kubectl apply --server-side` of `original.yaml` made it.
- `shared`: as `csa`, then another manager took fields: `kubectl label` (manager
  `kubectl-label`) added a label, and a merge patch by manager `autoscaler` set
  `spec.replicas` to 7 where the object has replicas; the apply conflicts where the file sets
  replicas.
- `shared-force`: `shared` with `--force-conflicts`.

The fake server is `../shared/oracle/fakeapi.py`'s (discovery, kubectl's environment) with its
own object handling: a POST and the PATCHes other than apply are computed as the oracle
computes them (`kubectl patch --local`) and their managedFields by the field manager's Update;
an apply by its Apply (a missing object is created, as the API server does); each write
counts `resourceVersion` up, and a write that names another `resourceVersion` gets 409.
Not modelled: defaulting, admission, validation, `generation`, `uid`, times (the field
manager's clock).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared"
sys.path.insert(0, str(SHARED / "oracle"))
from fakeapi import OBJECT_PATH, PATCH_TYPES, FakeAPI, find_kubectl, kubectl_env, status  # noqa: E402
from oracle import Oracle  # noqa: E402

APPLY = "application/apply-patch+yaml"
SCENARIOS = ("csa", "ssa", "shared", "shared-force")


class Reference:
    """The Go field manager, one process answering one JSON request per line."""

    def __init__(self, binary, swagger):
        self.proc = subprocess.Popen([binary, swagger], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.lock = threading.Lock()

    def ask(self, **request):
        with self.lock:
            self.proc.stdin.write(json.dumps(request) + "\n")
            self.proc.stdin.flush()
            return json.loads(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


class ManagedAPI(FakeAPI):
    """FakeAPI whose object writes track managedFields as the API server does."""

    def __init__(self, kubectl, workdir, reference):
        super().__init__(kubectl, workdir)
        self.reference = reference
        self.version = 1

    def reset(self, current):
        """A new case: its object, and resourceVersions counted from 1 again (so that a
        recording does not depend on the cases recorded before it)."""
        super().reset(current)
        self.version = 1

    def apply_patch(self, current, patch, patch_type):
        """As the oracle's, keeping managedFields (a patch may replace them: the csaupgrade)."""
        d = tempfile.mkdtemp(dir=self.workdir)
        try:
            Path(d, "current.json").write_text(json.dumps(current))
            Path(d, "patch.json").write_bytes(patch)
            p = subprocess.run([self.kubectl, "patch", "--local", "-o", "json", "--type", patch_type,
                                "--show-managed-fields", "-f", "current.json",
                                "--patch-file", "patch.json"],
                               cwd=d, env=kubectl_env(d), capture_output=True, text=True, timeout=60)
            if p.returncode:
                return None, p.stderr.strip()
            return json.loads(p.stdout), None
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def handle(self, h, method):
        url = urlsplit(h.path)
        path = url.path.rstrip("/") or "/"
        query = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        body = h.rfile.read(int(h.headers.get("Content-Length") or 0))
        with self.lock:
            self.log.append((method, h.path))
            self.last_seen = time.monotonic()
        if method == "GET":
            doc = self.discovery(path)
            if doc is not None:
                return h.reply(200, doc)
        m = OBJECT_PATH.match(path)
        gv = m and (m["core"] or "%s/%s" % (m["group"], m["version"]))
        kind = m and self.lookup(gv, m["plural"])[0]
        if kind is None:
            return h.reply(404, status(404, "NotFound", "the server could not find " + path))
        with self.lock:
            cur = self.current
        meta = (cur or {}).get("metadata", {})
        name = m["name"] or (json.loads(body or b"{}").get("metadata") or {}).get("name")
        if not (cur and cur.get("kind") == kind and meta.get("name") == name
                and meta.get("namespace", m["ns"] or "") == (m["ns"] or "")):
            cur = None
        if method == "GET":
            if cur is None:
                return h.reply(404, status(404, "NotFound", '%s "%s" not found' % (m["plural"], name)))
            return h.reply(200, cur)
        manager = query.get("fieldManager") or (h.headers.get("User-Agent") or "").split("/")[0]
        ctype = (h.headers.get("Content-Type") or "").split(";")[0].strip()
        capture = {"method": method, "content_type": ctype, "field_manager": query.get("fieldManager"),
                   "force": query.get("force"), "dry_run": query.get("dryRun"),
                   "body": body.decode()}
        with self.lock:
            self.captured.append(capture)
        if method == "POST":
            answer = self.reference.ask(op="update", live=None, new=json.loads(body), manager=manager)
        elif method == "PATCH" and ctype == APPLY:
            answer = self.reference.ask(op="apply", live=cur, body=body.decode(), manager=manager,
                                        force=query.get("force") == "true")
        elif method == "PATCH" and ctype in PATCH_TYPES and cur is not None:
            new, err = self.apply_patch(cur, body, PATCH_TYPES[ctype])
            if new is None:
                return h.reply(500, status(500, "InternalError", err))
            answer = self.reference.ask(op="update", live=cur, new=new, manager=manager)
        elif cur is None:
            return h.reply(404, status(404, "NotFound", '%s "%s" not found' % (m["plural"], name)))
        else:
            return h.reply(405, status(405, "MethodNotAllowed", method + " is not served"))
        if "object" not in answer:
            capture["error"] = answer["status"]
            return h.reply(answer["code"], answer["status"])
        obj = answer["object"]
        if cur is not None:
            refused = lock((obj.get("metadata") or {}).get("resourceVersion"), meta.get("resourceVersion"),
                           m["plural"] + ("." + m["group"] if m["group"] else ""), name)
            if refused:
                capture["error"] = refused[1]
                return h.reply(refused[0], refused[1])
        if not capture["dry_run"]:
            with self.lock:
                self.version += 1
                obj.setdefault("metadata", {})["resourceVersion"] = str(self.version)
                if self.register(obj["apiVersion"], obj["kind"]) and not obj["metadata"].get("namespace"):
                    obj["metadata"]["namespace"] = m["ns"] or "default"
                self.current = obj
        return h.reply(201 if cur is None else 200, obj)


def lock(sent, stored, group_resource, name):
    """The registry's optimistic lock (apiserver store.go Update) on the merged object's
    resourceVersion: (code, Status) when it refuses, else None."""
    if not sent:
        return None
    if not (sent.isascii() and sent.isdigit()):
        return 500, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                     "message": 'strconv.ParseUint: parsing %s: invalid syntax' % json.dumps(sent), "code": 500}
    if int(sent) >= 1 << 64:
        return 500, {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                     "message": 'strconv.ParseUint: parsing %s: value out of range' % json.dumps(sent), "code": 500}
    if int(sent) == 0 or int(sent) == int(stored or "0"):
        return None
    return 409, status(409, "Conflict", 'Operation cannot be fulfilled on %s "%s": the object has been modified; '
                       "please apply your changes to the latest version and try again" % (group_resource, name))


class SSAOracle(Oracle):
    def __init__(self, kubectl, workdir, reference):
        super().__init__(kubectl, workdir)
        self.api = ManagedAPI(kubectl, str(self.workdir), reference)

    def run(self, d, args):
        return self.remote(args + ["--validate=false"] if args[0] == "apply" else args, d)

    def scenario(self, d, objs, scenario):
        self.api.reset(None)
        first = ["apply", "-f", "original.yaml"]
        if scenario == "ssa":
            first.insert(1, "--server-side")
        p = self.run(d, first)
        if p.returncode:
            raise ValueError("making the live object failed: " + p.stderr.strip())
        if scenario.startswith("shared"):
            o = self.api.current
            ref = "%s.%s/%s" % (o["kind"].lower(), o["apiVersion"].split("/")[0] if "/" in o["apiVersion"] else "", o["metadata"]["name"])
            ref = ref.replace("./", "/")
            ns = ["-n", o["metadata"]["namespace"]] if o["metadata"].get("namespace") else []
            for args in (["label", "--overwrite", ref, "ssa-oracle/extra=1"] + ns,
                         ["patch", ref, "--type", "merge", "--field-manager", "autoscaler",
                          "-p", '{"spec":{"replicas":7}}'] + ns):
                if args[0] == "patch" and "replicas" not in (o.get("spec") or {}):
                    continue
                p = self.run(d, args)
                if p.returncode:
                    raise ValueError("%s failed: %s" % (args[0], p.stderr.strip()))
        live = self.api.current
        self.api.captured = []
        args = ["apply", "--server-side", "-f", "modified.yaml"]
        if scenario == "shared-force":
            args.append("--force-conflicts")
        p = self.run(d, args)
        return {"scenario": scenario, "flags": args[4:], "live": live,
                "requests": self.api.captured, "result": self.api.current,
                "exit_code": p.returncode, "kubectl_stdout": p.stdout,
                "kubectl_stderr": p.stderr.replace(self.api.url, "http://fakeapi"),
                "kubectl_version": self.version}


def served(swagger):
    """The group versions and kinds the document describes, and their groups."""
    kinds = set()
    for d in json.loads(Path(swagger).read_text())["definitions"].values():
        for g in d.get("x-kubernetes-group-version-kind", []):
            kinds.add(("%s/%s" % (g["group"], g["version"])).lstrip("/") + " " + g["kind"])
    return kinds, {k.split(" ")[0].rpartition("/")[0] for k in kinds}


def found(folder, role):
    """A case's file of a role (`original.yaml`, `.yml` or `.json`), or None."""
    return next((folder / (role + e) for e in (".yaml", ".yml", ".json")
                 if (folder / (role + e)).exists()), None)


def run_batch(kubectl, workdir, binary, swagger, folders, scenario, counts):
    kinds, groups = served(swagger)
    ref = Reference(binary, swagger)
    try:
        with SSAOracle(kubectl, workdir, ref) as o:
            for f in folders:
                files = {r: found(f, r) for r in ("original", "modified")}
                try:
                    d, objs = o.load(files)
                    gvk = "%s %s" % (objs["modified"]["apiVersion"], objs["modified"]["kind"])
                    if gvk not in kinds and gvk.split(" ")[0].rpartition("/")[0] in groups:
                        # policy/v1beta1 and the like: a 1.36 API server serves them no more.
                        raise ValueError("not served by a 1.36 API server: " + gvk)
                    if objs["original"]["apiVersion"] != objs["modified"]["apiVersion"]:
                        # The fake server keeps the object as written: it converts nothing.
                        raise ValueError("another apiVersion: " + objs["original"]["apiVersion"])
                    out = o.scenario(d, objs, scenario)
                    counts["done"] += 1
                except (ValueError, subprocess.TimeoutExpired, KeyError) as e:
                    out = {"scenario": scenario, "skipped": str(e)}
                    counts["skipped"] += 1
                (f / ("ssa-%s.json" % scenario)).write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
    finally:
        ref.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", required=True, type=Path)
    ap.add_argument("--scenario", choices=SCENARIOS, default="csa")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--ref", default=str(HERE / "ssaref" / "ssaref"), help="the ssaref binary")
    ap.add_argument("--swagger", default=str(SHARED / "k8s-openapi" / "swagger.json"))
    a = ap.parse_args()
    if not os.access(a.ref, os.X_OK):
        sys.exit("%s: not built (cd bench/ssaref && go build -o ssaref .)" % a.ref)
    folders = sorted(p for p in a.cases.iterdir()
                     if p.is_dir() and found(p, "original") and found(p, "modified"))
    kubectl = find_kubectl()
    counts = {"done": 0, "skipped": 0}
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.jobs) as ex:
        for i in range(a.jobs):
            ex.submit(run_batch, kubectl, Path(tmp, str(i)), a.ref, a.swagger,
                      folders[i::a.jobs], a.scenario, counts).add_done_callback(
                          lambda fut: fut.exception() and print(fut.exception(), file=sys.stderr))
    print("%d cases, %d skipped" % (counts["done"], counts["skipped"]))


if __name__ == "__main__":
    main()
