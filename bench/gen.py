#!/usr/bin/env python3
"""Deterministic inputs for bench/vs-kubectl.sh (Python stdlib only).

One case is a Deployment-like object in four files, the same for applyscope and kubectl:

  original.yaml   the configuration applied last time (becomes the last-applied annotation)
  local.yaml      the file being applied now: original with a few changes
  live.json       the live object as a server returns it: original plus server defaults
                  (imagePullPolicy, terminationMessagePath, ports[].protocol, strategy,
                  metadata.uid/resourceVersion/..., status), and the last-applied annotation
                  written exactly as kubectl writes it (compact JSON, sorted keys,
                  "annotations":{} and "namespace":"default" added, <>& escaped, newline)
  live-noann.json the same live object without the annotation (the oracle adds its own,
                  serialized by kubectl: the benchmark checks both are identical)

Changes from original to local: spec.replicas 3 -> 5, the image of every 50th container,
the value of one env var in every 25th container, one env var removed and one added in the
first container, and (with more than one container) the last container removed and a new
one added. Size is set by the number of containers (each with an env list).

  gen.py case DIR --containers N --env E [--name NAME]
  gen.py sized DIR --bytes B          (containers chosen so that local.yaml is about B bytes)
"""

import argparse
import json
import re
import sys
from pathlib import Path

LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration"
PLAIN = re.compile(r"[A-Za-z][A-Za-z0-9_./:-]*[A-Za-z0-9_./-]")
YAML11_WORDS = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def scalar(v):
    """A YAML scalar that reads back as exactly v (YAML 1.1, as kubectl reads it)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if PLAIN.fullmatch(v) and v.lower() not in YAML11_WORDS:
        return v
    return json.dumps(v)  # a double-quoted YAML scalar


def to_yaml(v, indent=0, out=None):
    """Block-style YAML in the layout kubectl itself writes (lists not indented under keys)."""
    out = [] if out is None else out
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            out[-1] += " {}"
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(pad + scalar(k) + ":")
                to_yaml(x, indent + 2 if isinstance(x, dict) else indent, out)
            else:
                out.append(pad + scalar(k) + ":" + (" " + inline(x)))
    elif isinstance(v, list):
        for x in v:
            if isinstance(x, dict) and x:
                sub = to_yaml(x, indent + 2, [])
                out.append(pad + "- " + sub[0][indent + 2:])
                out.extend(sub[1:])
            elif isinstance(x, list) and x:
                sub = to_yaml(x, indent + 2, [])
                out.append(pad + "- " + sub[0][indent + 2:])
                out.extend(sub[1:])
            else:
                out.append(pad + "- " + inline(x))
    return out


def inline(x):
    if isinstance(x, dict):
        return "{}"
    if isinstance(x, list):
        return "[]"
    return scalar(x)


def container(i, envs, image="1.0.0"):
    return {
        "name": "c%d" % i,
        "image": "registry.example.com/team/app-%d:%s" % (i, image),
        "args": ["--port=8080", "--log-level=info"],
        "ports": [{"name": "http", "containerPort": 8080}],
        "env": [{"name": "VAR_%d" % e, "value": "value-%d-%d-abcdefghij" % (i, e)}
                for e in range(envs)],
        "resources": {"limits": {"cpu": "500m", "memory": "128Mi"},
                      "requests": {"cpu": "100m", "memory": "64Mi"}},
    }


def config(name, containers, replicas):
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "labels": {"app": name, "tier": "backend"}},
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": containers},
            },
        },
    }


def original_config(name, n, envs):
    return config(name, [container(i, envs) for i in range(n)], 3)


def local_config(name, n, envs):
    cs = [container(i, envs, "1.1.0" if i % 50 == 0 else "1.0.0") for i in range(n)]
    for c in cs[::25]:
        if len(c["env"]) > 1:
            c["env"][1]["value"] = "changed"
    first = cs[0]["env"]
    if first:
        del first[0]  # an env var removed ...
    first.append({"name": "ADDED", "value": "new"})  # ... and one added
    if n > 1:
        cs.pop()  # the last container removed
        cs.append(container(n, min(envs, 2), "2.0.0"))  # and a new one
    return config(name, cs, 5)


def live_object(cfg, uid):
    """What the API server stores for cfg: defaults filled in, server metadata, status."""
    obj = json.loads(json.dumps(cfg))
    meta = obj["metadata"]
    meta.update(namespace="default", uid="5b9c%08x-8c8e-4c3e-9a57-1e0f8f1d2a3b" % uid,
                resourceVersion="123456", generation=1,
                creationTimestamp="2026-01-01T00:00:00Z",
                annotations={"deployment.kubernetes.io/revision": "1"})
    spec = obj["spec"]
    spec.update(progressDeadlineSeconds=600, revisionHistoryLimit=10,
                strategy={"type": "RollingUpdate",
                          "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}})
    spec["template"]["metadata"]["creationTimestamp"] = None
    pod = spec["template"]["spec"]
    pod.update(dnsPolicy="ClusterFirst", restartPolicy="Always",
               schedulerName="default-scheduler", securityContext={},
               terminationGracePeriodSeconds=30)
    for c in pod["containers"]:
        c.update(imagePullPolicy="IfNotPresent", terminationMessagePath="/dev/termination-log",
                 terminationMessagePolicy="File")
        for p in c["ports"]:
            p["protocol"] = "TCP"
    obj["status"] = {"observedGeneration": 1, "replicas": 3, "readyReplicas": 3,
                     "availableReplicas": 3, "updatedReplicas": 3,
                     "conditions": [{"type": "Available", "status": "True",
                                     "reason": "MinimumReplicasAvailable",
                                     "lastTransitionTime": "2026-01-01T00:00:10Z",
                                     "lastUpdateTime": "2026-01-01T00:00:10Z",
                                     "message": "Deployment has minimum availability."}]}
    return obj


def go_json(v):
    """Compact JSON as Go's encoding/json writes it (map keys sorted, <>& escaped)."""
    s = json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def annotation(cfg):
    """The last-applied annotation kubectl writes for cfg."""
    a = json.loads(json.dumps(cfg))
    a["metadata"].setdefault("annotations", {})
    a["metadata"].setdefault("namespace", "default")
    return go_json(a) + "\n"


def write_case(d, name, n, envs, uid=0):
    d = Path(d)
    d.mkdir(parents=True, exist_ok=True)
    orig, local = original_config(name, n, envs), local_config(name, n, envs)
    live = live_object(orig, uid)
    (d / "original.yaml").write_text("\n".join(to_yaml(orig)) + "\n")
    (d / "local.yaml").write_text("\n".join(to_yaml(local)) + "\n")
    (d / "live-noann.json").write_text(json.dumps(live, separators=(",", ":")))
    live["metadata"]["annotations"][LAST_APPLIED] = annotation(orig)
    (d / "live.json").write_text(json.dumps(live, separators=(",", ":")))
    return d


def containers_for(target, envs=20):
    """Containers for a local.yaml of about `target` bytes (its size is linear in them)."""
    def size(n):
        return len("\n".join(to_yaml(local_config("big", n, envs))))
    a, b = size(2), size(12)
    return max(2, round(2 + (target - a) * 10 / (b - a)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("case")
    c.add_argument("dir")
    c.add_argument("--containers", type=int, required=True)
    c.add_argument("--env", type=int, default=20)
    c.add_argument("--name", default="big")
    s = sub.add_parser("sized")
    s.add_argument("dir")
    s.add_argument("--bytes", type=int, required=True)
    a = ap.parse_args()
    if a.cmd == "case":
        write_case(a.dir, a.name, a.containers, a.env)
    else:
        write_case(a.dir, "big", containers_for(a.bytes), 20)


if __name__ == "__main__":
    sys.exit(main())
