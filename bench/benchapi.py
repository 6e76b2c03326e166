"""A fake API server for timing `kubectl apply` alone (see bench/README.md).

It is ../shared/oracle/fakeapi.py's FakeAPI (same discovery, 404 for OpenAPI, same answers),
with three changes so that a timed `kubectl apply` run measures kubectl and little else:

- it serves any number of live objects, each pre-serialized once (a GET costs the server one
  socket write, not a json.dumps of a 10 MB object);
- the live objects never change: every run of `kubectl apply` sees the same live object and
  sends the same PATCH;
- a PATCH is answered with the patched object, computed once by the real
  `kubectl patch --local` (as fakeapi.py does, but with no 60 s limit) and then cached by
  patch body, or, for objects added with `answer_live=True`, with the live object unchanged
  (for the 1,000-object set, where computing 1,000 answers would take minutes; kubectl only
  reads the answer to print "configured").

Every PATCH body is kept in `patches` (path -> (content type, body bytes)) so the benchmark
can compare it with applyscope's.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

SHARED = Path(os.environ.get("APPLYSCOPE_SHARED") or Path(__file__).resolve().parents[2] / "shared")
sys.path.insert(0, str(SHARED / "oracle"))
sys.dont_write_bytecode = True
from fakeapi import PATCH_TYPES, FakeAPI, kubectl_env  # noqa: E402

PLURALS = {"Deployment": "deployments"}


def object_path(obj):
    api_version, kind = obj["apiVersion"], obj["kind"]
    prefix = "/api/v1" if api_version == "v1" else "/apis/" + api_version
    return "%s/namespaces/%s/%s/%s" % (prefix, obj["metadata"].get("namespace", "default"),
                                       PLURALS[kind], obj["metadata"]["name"])


class BenchAPI(FakeAPI):
    def __init__(self, kubectl, workdir):
        super().__init__(kubectl, workdir, idle=3600)
        self.objects = {}   # path -> (live object, live bytes, answer_live)
        self.answers = {}   # (path, patch bytes) -> answer bytes
        self.patches = {}   # path -> (content type, patch bytes): the last PATCH received

    def serve(self, live_bytes, answer_live=False):
        obj = json.loads(live_bytes)
        self.objects[object_path(obj)] = (obj, live_bytes, answer_live)

    def handle(self, h, method):
        path = urlsplit(h.path).path.rstrip("/")
        if path not in self.objects or method not in ("GET", "PATCH"):
            return super().handle(h, method)
        self.last_seen = time.monotonic()
        obj, live_bytes, answer_live = self.objects[path]
        if method == "GET":
            return self.send(h, 200, live_bytes)
        body = h.rfile.read(int(h.headers.get("Content-Length") or 0))
        ctype = (h.headers.get("Content-Type") or "").split(";")[0].strip()
        with self.lock:
            self.patches[path] = (ctype, body)
        if answer_live:
            return self.send(h, 200, live_bytes)
        key = (path, body)
        if key not in self.answers:
            result, err = self.kubectl_patch(obj, body, PATCH_TYPES.get(ctype, "strategic"))
            if result is None:
                return self.send(h, 500, json.dumps({"kind": "Status", "code": 500,
                                                     "message": err}).encode())
            self.answers[key] = result
        return self.send(h, 200, self.answers[key])

    @staticmethod
    def send(h, code, body):
        h.send_response(code)
        h.send_header("Content-Type", "application/json")
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    def kubectl_patch(self, current, patch, patch_type):
        """fakeapi.FakeAPI.apply_patch without its 60 s limit; the answer as bytes."""
        d = tempfile.mkdtemp(dir=self.workdir)
        try:
            Path(d, "current.json").write_text(json.dumps(current))
            Path(d, "patch.json").write_bytes(patch)
            p = subprocess.run([self.kubectl, "patch", "--local", "-o", "json", "--type",
                                patch_type, "-f", "current.json", "--patch-file", "patch.json"],
                               cwd=d, env=kubectl_env(d), capture_output=True)
            if p.returncode:
                return None, p.stderr.decode().strip()
            return p.stdout, None
        finally:
            shutil.rmtree(d, ignore_errors=True)

    def write_kubeconfig(self, path):
        cfg = {"apiVersion": "v1", "kind": "Config", "current-context": "fake",
               "clusters": [{"name": "fake", "cluster": {"server": self.url}}],
               "users": [{"name": "fake", "user": {}}],
               "contexts": [{"name": "fake", "context": {"cluster": "fake", "user": "fake",
                                                         "namespace": "default"}}]}
        Path(path).write_text(json.dumps(cfg))


def env_for(home):
    """kubectl's environment: the oracle's (no KUBE* variables, HOME private, KUBERC=off)."""
    os.makedirs(home, exist_ok=True)
    return kubectl_env(home)
