#!/usr/bin/env python3
"""Differential campaign against the real kubectl: random client-side apply cases (stdlib only).

Writes case folders in the oracle's layout (original / modified / current, .yaml or .json, and
apply-flags.txt) into OUT, deterministically from --seed:

    python3 bench/campaign.py --seed 1 --count 200 --out /tmp/campaign/s1
    python3 ../shared/oracle/oracle.py --cases /tmp/campaign/s1 --jobs 1
    python3 bench/campaign_compare.py /tmp/campaign/s1

Each case starts from a realistic object of one kind (workloads with pod templates, Service,
ConfigMap, Secret, Ingress, RBAC, HPA, PDB, NetworkPolicy, a custom resource). The file being
applied is last-applied with random mutations (scalars changed, fields dropped or set to null,
list items added, removed or reordered by merge key, sub-objects replaced); the live object is
last-applied plus server defaults and drift (controllers, injected sidecars, someone's edits,
fields removed from live). Some cases have no annotation (two-way), no live object (create) or
--overwrite=false. Files are YAML (with YAML 1.1 scalars, block scalars, flow lists, both list
indentations) or JSON. `$patch` directives are never written: they are not kubectl input.
"""

import argparse
import copy
import json
import random
import re
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# YAML writing


class Raw(str):
    """A plain YAML scalar written as is (YAML 1.1 resolves it: yes, 0777, 1e3, ~, ...)."""


class Block(str):
    """A multi-line string written as a block scalar; `style` is |, |-, |+, > or >-."""

    def __new__(cls, text, style="|"):
        s = super().__new__(cls, text)
        s.style = style
        return s


PLAIN = re.compile(r"[A-Za-z_/][A-Za-z0-9_./:=-]*")
YAML11 = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"}


def scalar(v, rng):
    if v is None:
        return rng.choice(["null", "null", "~", ""])
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return json.dumps(v)
    if isinstance(v, Raw):
        return str(v)
    if (
        PLAIN.fullmatch(v)
        and v.lower() not in YAML11
        and not v.endswith(":")
        and ": " not in v
        and rng.random() < 0.9
    ):
        return v
    if "'" not in v and "\n" not in v and rng.random() < 0.3:
        return "'" + v + "'"
    return json.dumps(v, ensure_ascii=False)


def key_text(k, rng):
    if isinstance(k, Raw):
        return str(k)
    return scalar(k, rng)


class Yaml:
    def __init__(self, rng):
        self.rng = rng
        self.indent_lists = rng.random() < 0.4  # "key:\n  - a" instead of "key:\n- a"
        self.flow = rng.random() < 0.3  # short primitive lists as [a, b]
        self.flow_maps = rng.random() < 0.15  # small maps of scalars as {a: 1, b: x}
        self.aliases = rng.random() < 0.2  # a repeated map written once with &a and then *a
        self.comments = rng.random() < 0.2
        self.anchors = {}

    def dump(self, v):
        out = []
        self.node(v, 0, out)
        text = "".join(out)
        r = self.rng.random()
        if r < 0.08:
            text = "---\n" + text
        elif r < 0.12:
            text = "# applied by ci\n---\n" + text + "...\n"
        elif r < 0.14:
            text = "\ufeff" + text
        if self.rng.random() < 0.04:
            text = text.replace("\n", "\r\n")
        return text

    def inline(self, v):
        """The text after "key:" for a scalar or empty collection, else None."""
        if isinstance(v, dict):
            return "{}" if not v else None
        if isinstance(v, list):
            if not v:
                return "[]"
            if (
                self.flow
                and len(v) <= 4
                and all(isinstance(x, (str, int, bool)) and not isinstance(x, Block) for x in v)
            ):
                return "[" + ", ".join(json.dumps(x) if isinstance(x, str) and not isinstance(x, Raw)
                                       else scalar(x, self.rng) for x in v) + "]"
            return None
        if isinstance(v, Block):
            return None
        return scalar(v, self.rng)

    def block(self, s, ind, out):
        out.append(" " + s.style + "\n")
        body = str(s)
        if body.endswith("\n"):
            body = body[:-1]
        for line in body.split("\n"):
            out.append((" " * (ind + 2) + line if line else "") + "\n")

    def node(self, v, ind, out):
        pad = " " * ind
        if isinstance(v, dict):
            for k, x in v.items():
                if self.comments and self.rng.random() < 0.05:
                    out.append(pad + "# " + self.rng.choice(["note", "TODO: x", "-- a: b"]) + "\n")
                out.append(pad + key_text(k, self.rng) + ":")
                self.value(x, ind, out)
        elif isinstance(v, list):
            for x in v:
                self.item(x, ind, out)
        else:
            out.append(pad + scalar(v, self.rng) + "\n")

    def value(self, x, ind, out):
        if isinstance(x, Block):
            self.block(x, ind, out)
            return
        if isinstance(x, dict) and x and self.aliases and not has_raw(x):
            key = json.dumps(x, sort_keys=True)
            if key in self.anchors:
                out.append(" *" + self.anchors[key] + "\n")
                return
            if len(self.anchors) < 5 and self.rng.random() < 0.5:
                name = "a%d" % len(self.anchors)
                self.anchors[key] = name
                out.append(" &" + name)
        if (isinstance(x, dict) and x and self.flow_maps and len(x) <= 3
                and all(isinstance(k, str) and not isinstance(k, Raw) for k in x)
                and all(isinstance(y, (str, int, bool)) and not isinstance(y, (Block, Raw))
                        for y in x.values())):
            out.append(" {" + ", ".join(json.dumps(k) + ": " + json.dumps(y)
                                        for k, y in x.items()) + "}\n")
            return
        t = self.inline(x)
        if t is not None:
            out.append((" " + t if t else "") + "\n")
        elif isinstance(x, dict):
            out.append("\n")
            self.node(x, ind + 2, out)
        else:
            out.append("\n")
            self.node(x, ind + 2 if self.indent_lists else ind, out)

    def item(self, x, ind, out):
        pad = " " * ind
        if isinstance(x, dict) and x:
            sub = []
            self.node(x, ind + 2, sub)
            first = "".join(sub)
            out.append(pad + "- " + first[ind + 2:])
        elif isinstance(x, list) and x:
            out.append(pad + "-\n")
            self.node(x, ind + 2, out)
        elif isinstance(x, Block):
            out.append(pad + "-")
            self.block(x, ind, out)
        else:
            out.append(pad + "- " + (self.inline(x) or "null") + "\n")


def plain(v):
    """The value as JSON data (Raw and Block become ordinary strings; Raw is resolved)."""
    if isinstance(v, dict):
        return {str(k): plain(x) for k, x in v.items()}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, Raw):
        return None  # never used: JSON files are written only for trees without Raw
    return v


def has_raw(v):
    if isinstance(v, dict):
        return any(isinstance(k, Raw) or has_raw(x) for k, x in v.items())
    if isinstance(v, list):
        return any(has_raw(x) for x in v)
    return isinstance(v, Raw)


def write_doc(path_stem, v, rng, json_share):
    if not has_raw(v) and rng.random() < json_share:
        text = json.dumps(plain(v), indent=rng.choice([None, 2, 4]), ensure_ascii=False)
        path_stem.with_suffix(".json").write_text(text + "\n")
    else:
        path_stem.with_suffix(".yaml").write_text(Yaml(rng).dump(v))


# ---------------------------------------------------------------------------------------------
# realistic objects

IMAGES = ["nginx:1.25", "redis:7.2-alpine", "ghcr.io/acme/api:2.3.1", "busybox:1.36",
          "registry.k8s.io/pause:3.9", "quay.io/prometheus/node-exporter:v1.7.0",
          "postgres:16", "envoyproxy/envoy:v1.29.0"]
WORDS = ["api", "web", "worker", "cache", "db", "metrics", "proxy", "auth", "queue", "search"]


class Gen:
    def __init__(self, rng):
        self.r = rng
        self.n = 0

    def uniq(self, base):
        self.n += 1
        return "%s-%d" % (base, self.n)

    def pick(self, xs):
        return self.r.choice(xs)

    def maybe(self, p=0.5):
        return self.r.random() < p

    def quantity(self, cpu):
        if cpu:
            return self.pick(["100m", "250m", "500m", "1", 1, "0.5", "1500m", 2])
        return self.pick(["64Mi", "128Mi", "256Mi", "1Gi", "512M", "1G", "1.5Gi"])

    def resources(self):
        res = {}
        if self.maybe(0.8):
            res["requests"] = {"cpu": self.quantity(True), "memory": self.quantity(False)}
        if self.maybe(0.6):
            res["limits"] = {"memory": self.quantity(False)}
            if self.maybe():
                res["limits"]["cpu"] = self.quantity(True)
        return res

    def env_var(self, name=None):
        name = name or self.pick(["LOG_LEVEL", "PORT", "MODE", "DB_HOST", "FEATURE_X", "TZ",
                                  "JAVA_OPTS", "REGION"]) + ("_%d" % self.r.randint(1, 99))
        k = self.r.random()
        if k < 0.6:
            return {"name": name, "value": self.pick(["info", "8080", "true", "", "a=b;c=d",
                                                      "Europe/Paris", "-Xmx512m", "yes"])}
        if k < 0.7:
            return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": self.pick(
                ["metadata.name", "status.podIP", "spec.nodeName"])}}}
        if k < 0.8:
            return {"name": name, "valueFrom": {"secretKeyRef": {"name": "app-secret",
                                                                 "key": "password"}}}
        if k < 0.9:
            return {"name": name, "valueFrom": {"configMapKeyRef": {"name": "app-config",
                                                                    "key": "mode",
                                                                    "optional": True}}}
        return {"name": name, "valueFrom": {"resourceFieldRef": {"resource": "limits.memory",
                                                                 "divisor": "1Mi"}}}

    def probe(self):
        k = self.r.random()
        p = {}
        if k < 0.4:
            p["httpGet"] = {"path": self.pick(["/healthz", "/ready", "/"]),
                            "port": self.pick([8080, "http", 9090])}
        elif k < 0.7:
            p["tcpSocket"] = {"port": self.pick([8080, 5432, "grpc"])}
        elif k < 0.9:
            p["exec"] = {"command": ["sh", "-c", self.pick(["pg_isready", "test -f /tmp/ok"])]}
        else:
            p["grpc"] = {"port": 9000}
        for f, vals in [("initialDelaySeconds", [0, 5, 10, 30]), ("periodSeconds", [5, 10]),
                        ("timeoutSeconds", [1, 3]), ("failureThreshold", [3, 5])]:
            if self.maybe(0.4):
                p[f] = self.pick(vals)
        return p

    def container(self, name=None, init=False):
        c = {"name": name or self.uniq(self.pick(WORDS)), "image": self.pick(IMAGES)}
        if self.maybe(0.3):
            c["imagePullPolicy"] = self.pick(["Always", "IfNotPresent"])
        if self.maybe(0.3):
            c["command"] = self.pick([["/bin/sh", "-c"], ["app"], ["python", "-m", "app"]])
        if self.maybe(0.4):
            c["args"] = self.pick([["--port=8080"], ["serve", "--verbose"], ["-c", "sleep 3600"],
                                   ["--config", "/etc/app/config.yaml"]])
        if self.maybe(0.7):
            c["env"] = [self.env_var() for _ in range(self.r.randint(1, 4))]
        if self.maybe(0.15):
            c["envFrom"] = [{"configMapRef": {"name": "app-config"}},
                            {"secretRef": {"name": "app-secret"}, "prefix": "S_"}][:self.r.randint(1, 2)]
        if not init and self.maybe(0.7):
            ports, used = [], set()
            for _ in range(self.r.randint(1, 3)):
                port = self.pick([80, 443, 8080, 8443, 9090, 53, 5432])
                proto = self.pick([None, None, "TCP", "UDP"])
                if (port, proto or "TCP") in used:
                    continue
                used.add((port, proto or "TCP"))
                p = {"containerPort": port}
                if self.maybe(0.6):
                    p["name"] = self.pick(["http", "https", "metrics", "dns", "grpc"]) + str(len(ports))
                if proto:
                    p["protocol"] = proto
                ports.append(p)
            c["ports"] = ports
        if self.maybe(0.7):
            c["resources"] = self.resources()
        if not init:
            for probe in ["livenessProbe", "readinessProbe", "startupProbe"]:
                if self.maybe(0.3):
                    c[probe] = self.probe()
        if self.maybe(0.2):
            c["securityContext"] = {"runAsNonRoot": True, "readOnlyRootFilesystem": self.maybe(),
                                    "capabilities": {"drop": ["ALL"]}}
        if self.maybe(0.1):
            c["lifecycle"] = {"preStop": {"exec": {"command": ["sleep", "5"]}}}
        if self.maybe(0.1):
            c["workingDir"] = "/app"
        return c

    def volume(self, name=None):
        name = name or self.uniq(self.pick(["config", "data", "tmp", "certs", "cache"]))
        k = self.r.random()
        if k < 0.2:
            v = {"configMap": {"name": "app-config"}}
            if self.maybe(0.4):
                v["configMap"]["defaultMode"] = Raw(self.pick(["0644", "0755", "0400"]))
            if self.maybe(0.3):
                v["configMap"]["items"] = [{"key": "app.yaml", "path": "app.yaml"}]
        elif k < 0.4:
            v = {"secret": {"secretName": "app-tls"}}
            if self.maybe(0.3):
                v["secret"]["defaultMode"] = self.pick([420, 256, Raw("0600")])
            if self.maybe(0.2):
                v["secret"]["optional"] = True
        elif k < 0.6:
            v = {"emptyDir": self.pick([{}, {"medium": "Memory"}, {"sizeLimit": "1Gi"}])}
        elif k < 0.75:
            v = {"persistentVolumeClaim": {"claimName": "data-pvc"}}
        elif k < 0.85:
            v = {"hostPath": {"path": self.pick(["/var/log", "/var/run/docker.sock"]),
                              "type": self.pick(["Directory", "Socket", ""])}}
        elif k < 0.93:
            v = {"projected": {"sources": [{"serviceAccountToken": {"path": "token",
                                                                    "expirationSeconds": 3600}},
                                           {"configMap": {"name": "ca"}}]}}
        else:
            v = {"downwardAPI": {"items": [{"path": "labels",
                                            "fieldRef": {"fieldPath": "metadata.labels"}}]}}
        return dict({"name": name}, **v)

    def toleration(self):
        return self.pick([
            {"key": "dedicated", "operator": "Equal", "value": "infra", "effect": "NoSchedule"},
            {"key": "node-role.kubernetes.io/control-plane", "operator": "Exists",
             "effect": "NoSchedule"},
            {"operator": "Exists"},
            {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
             "tolerationSeconds": 300}])

    def affinity(self, app):
        a = {}
        if self.maybe(0.6):
            a["nodeAffinity"] = {"requiredDuringSchedulingIgnoredDuringExecution": {
                "nodeSelectorTerms": [{"matchExpressions": [{
                    "key": "kubernetes.io/arch", "operator": "In",
                    "values": self.pick([["amd64"], ["amd64", "arm64"]])}]}]}}
        if self.maybe(0.6):
            a["podAntiAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [{
                "weight": self.pick([50, 100]),
                "podAffinityTerm": {"labelSelector": {"matchLabels": {"app": app}},
                                    "topologyKey": "kubernetes.io/hostname"}}]}
        return a

    def pod_spec(self, app, job=False):
        spec = {"containers": [self.container() for _ in range(self.r.randint(1, 3))]}
        if self.maybe(0.25):
            spec["initContainers"] = [self.container(init=True)
                                      for _ in range(self.r.randint(1, 2))]
        if self.maybe(0.6):
            vols = [self.volume() for _ in range(self.r.randint(1, 3))]
            spec["volumes"] = vols
            for c in spec["containers"]:
                if self.maybe(0.7):
                    mounts = []
                    for v in vols:
                        if self.maybe(0.7):
                            m = {"name": v["name"], "mountPath": "/mnt/" + v["name"]}
                            if self.maybe(0.3):
                                m["readOnly"] = True
                            if self.maybe(0.1):
                                m["subPath"] = "sub"
                            mounts.append(m)
                    if mounts:
                        c["volumeMounts"] = mounts
        if self.maybe(0.3):
            spec["tolerations"] = [self.toleration() for _ in range(self.r.randint(1, 2))]
        if self.maybe(0.25):
            spec["affinity"] = self.affinity(app)
        if self.maybe(0.25):
            spec["imagePullSecrets"] = [{"name": "regcred"}] + ([{"name": "ghcr"}]
                                                                 if self.maybe() else [])
        if self.maybe(0.3):
            spec["nodeSelector"] = {"kubernetes.io/os": "linux"}
        if self.maybe(0.2):
            spec["serviceAccountName"] = app
        if self.maybe(0.15):
            spec["securityContext"] = {"runAsUser": 1000, "fsGroup": 2000}
        if self.maybe(0.15):
            spec["terminationGracePeriodSeconds"] = self.pick([10, 60])
        if self.maybe(0.1):
            spec["hostAliases"] = [{"ip": "10.0.0.1", "hostnames": ["db.local"]}]
        if self.maybe(0.1):
            spec["topologySpreadConstraints"] = [{
                "maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                "whenUnsatisfiable": "ScheduleAnyway",
                "labelSelector": {"matchLabels": {"app": app}}}]
        if job:
            spec["restartPolicy"] = self.pick(["Never", "OnFailure"])
        return spec

    def meta(self, name, namespaced=True):
        m = {"name": name}
        if namespaced and self.maybe(0.6):
            m["namespace"] = self.pick(["default", "prod", "team-a"])
        if self.maybe(0.8):
            m["labels"] = {"app": name, "app.kubernetes.io/part-of": "shop"}
            if self.maybe(0.3):
                m["labels"]["tier"] = self.pick(["frontend", "backend"])
        if self.maybe(0.3):
            m["annotations"] = {"owner": "team-a@example.com"}
            if self.maybe(0.3):
                m["annotations"]["description"] = self.pick(
                    ["main <api> & co", "multi\nline", "plain text"])
        if self.maybe(0.05):
            m["finalizers"] = ["example.com/cleanup"]
        return m

    def template(self, app, job=False):
        t = {"metadata": {"labels": {"app": app}}, "spec": self.pod_spec(app, job)}
        if self.maybe(0.3):
            t["metadata"]["annotations"] = {"prometheus.io/scrape": "true",
                                            "checksum/config": "%08x" % self.r.getrandbits(32)}
        return t

    # kinds ------------------------------------------------------------------------------------

    def deployment(self, name):
        spec = {"selector": {"matchLabels": {"app": name}}, "template": self.template(name)}
        if self.maybe(0.7):
            spec["replicas"] = self.r.randint(1, 5)
        k = self.r.random()
        if k < 0.3:
            spec["strategy"] = {"type": "Recreate"}
        elif k < 0.6:
            spec["strategy"] = {"type": "RollingUpdate", "rollingUpdate": {
                "maxSurge": self.pick([1, "25%", 0]), "maxUnavailable": self.pick([0, "25%", 1])}}
        if self.maybe(0.2):
            spec["minReadySeconds"] = 10
        if self.maybe(0.15):
            spec["revisionHistoryLimit"] = 3
        return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": self.meta(name),
                "spec": spec}

    def statefulset(self, name):
        spec = {"serviceName": name, "selector": {"matchLabels": {"app": name}},
                "template": self.template(name), "replicas": self.r.randint(1, 3)}
        if self.maybe(0.5):
            spec["volumeClaimTemplates"] = [{"metadata": {"name": "data"}, "spec": {
                "accessModes": ["ReadWriteOnce"],
                "resources": {"requests": {"storage": self.pick(["1Gi", "10Gi"])}}}}]
        if self.maybe(0.4):
            spec["updateStrategy"] = self.pick([{"type": "OnDelete"}, {
                "type": "RollingUpdate", "rollingUpdate": {"partition": self.r.randint(0, 2)}}])
        if self.maybe(0.2):
            spec["podManagementPolicy"] = "Parallel"
        return {"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": self.meta(name),
                "spec": spec}

    def daemonset(self, name):
        spec = {"selector": {"matchLabels": {"app": name}}, "template": self.template(name)}
        if self.maybe(0.4):
            spec["updateStrategy"] = self.pick([{"type": "OnDelete"}, {
                "type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": self.pick([1, "10%"])}}])
        return {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": self.meta(name),
                "spec": spec}

    def job_spec(self, name):
        spec = {"template": self.template(name, job=True)}
        for f, vals in [("backoffLimit", [0, 3, 6]), ("completions", [1, 5]),
                        ("parallelism", [1, 2]), ("ttlSecondsAfterFinished", [100, 3600]),
                        ("activeDeadlineSeconds", [600])]:
            if self.maybe(0.3):
                spec[f] = self.pick(vals)
        return spec

    def job(self, name):
        return {"apiVersion": "batch/v1", "kind": "Job", "metadata": self.meta(name),
                "spec": self.job_spec(name)}

    def cronjob(self, name):
        spec = {"schedule": self.pick(["*/5 * * * *", "0 3 * * *", "@hourly"]),
                "jobTemplate": {"spec": self.job_spec(name)}}
        for f, vals in [("concurrencyPolicy", ["Forbid", "Replace", "Allow"]),
                        ("suspend", [True, False]), ("successfulJobsHistoryLimit", [1, 3]),
                        ("timeZone", ["Etc/UTC"])]:
            if self.maybe(0.3):
                spec[f] = self.pick(vals)
        return {"apiVersion": "batch/v1", "kind": "CronJob", "metadata": self.meta(name),
                "spec": spec}

    def pod(self, name):
        return {"apiVersion": "v1", "kind": "Pod", "metadata": self.meta(name),
                "spec": self.pod_spec(name)}

    def service(self, name):
        ports, used = [], set()
        for _ in range(self.r.randint(1, 3)):
            port = self.pick([80, 443, 53, 8080, 9090])
            proto = self.pick([None, None, "TCP", "UDP"])
            if (port, proto or "TCP") in used:
                continue
            used.add((port, proto or "TCP"))
            p = {"port": port}
            if self.maybe(0.7):
                p["name"] = self.pick(["http", "https", "dns", "metrics"]) + str(len(ports))
            if proto:
                p["protocol"] = proto
            if self.maybe(0.7):
                p["targetPort"] = self.pick([8080, "http", 9090, port])
            ports.append(p)
        spec = {"ports": ports, "selector": {"app": name}}
        t = self.pick([None, "ClusterIP", "NodePort", "LoadBalancer"])
        if t:
            spec["type"] = t
        if self.maybe(0.15):
            spec["sessionAffinity"] = "ClientIP"
        if t in ("NodePort", "LoadBalancer") and self.maybe(0.3):
            spec["externalTrafficPolicy"] = "Local"
        return {"apiVersion": "v1", "kind": "Service", "metadata": self.meta(name), "spec": spec}

    def yaml11_value(self):
        return Raw(self.pick(["yes", "no", "on", "off", "y", "n", "Yes", "TRUE", "~", "null",
                              "0777", "0x1F", "1e3", "1.0", "1_000", ".5", "12:30", "2024-01-01",
                              "-0", "+12", "3.14", "0o17", "1:20:30", "0b101", "NO", "1.5e3"]))

    def data(self):
        d = {}
        for _ in range(self.r.randint(1, 5)):
            k = self.pick(["mode", "log.level", "APP_ENV", "retries", "enabled", "config.yaml",
                           "nginx.conf", "timeout", "ratio"]) + str(self.r.randint(1, 9))
            r = self.r.random()
            if r < 0.3:
                d[k] = self.yaml11_value()
            elif r < 0.5:
                lines = ["server:", "  port: 8080", "  host: 0.0.0.0", "", "debug: true"]
                text = "\n".join(lines[:self.r.randint(2, 5)]) + "\n"
                d[k] = Block(text, self.pick(["|", "|", "|-", "|+", ">"]))
            else:
                d[k] = self.pick(["info", "3", "true", "a b c", "x=1", "", "ünïcödé",
                                  "<html>&amp;</html>", "  padded  "])
        if self.maybe(0.1):
            d[Raw(self.pick(["yes", "8080", "0x10", "on"]))] = "tcp"
        return d

    def configmap(self, name):
        o = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": self.meta(name),
             "data": self.data()}
        if self.maybe(0.1):
            o["binaryData"] = {"blob": "AAEC"}
        if self.maybe(0.1):
            o["immutable"] = False
        return o

    def secret(self, name):
        o = {"apiVersion": "v1", "kind": "Secret", "metadata": self.meta(name),
             "type": self.pick(["Opaque", "Opaque", "kubernetes.io/tls"])}
        if self.maybe(0.7):
            o["data"] = {"password": self.pick(["cGFzcw==", "c2VjcmV0"]), "user": "YWRtaW4="}
        if self.maybe(0.5):
            o["stringData"] = {"token": self.pick(["abc", "yes", "1234"]),
                               "config.json": '{"a": 1}'}
        return o

    def ingress(self, name):
        rules = []
        for host in self.r.sample(["shop.example.com", "api.example.com", "admin.example.com"],
                                  self.r.randint(1, 2)):
            paths = [{"path": p, "pathType": self.pick(["Prefix", "Exact",
                                                         "ImplementationSpecific"]),
                      "backend": {"service": {"name": self.pick(WORDS),
                                              "port": self.pick([{"number": 80},
                                                                 {"name": "http"}])}}}
                     for p in self.r.sample(["/", "/api", "/static", "/v2"], self.r.randint(1, 2))]
            rules.append({"host": host, "http": {"paths": paths}})
        spec = {"rules": rules}
        if self.maybe(0.6):
            spec["ingressClassName"] = "nginx"
        if self.maybe(0.4):
            spec["tls"] = [{"hosts": [rules[0]["host"]], "secretName": "tls-cert"}]
        o = {"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": self.meta(name),
             "spec": spec}
        if self.maybe(0.4):
            o["metadata"].setdefault("annotations", {})[
                "nginx.ingress.kubernetes.io/rewrite-target"] = "/$2"
        return o

    def rules(self):
        return [{"apiGroups": self.pick([[""], ["apps"], ["", "apps"]]),
                 "resources": self.pick([["pods"], ["deployments", "replicasets"], ["configmaps"]]),
                 "verbs": self.pick([["get", "list", "watch"], ["*"], ["get"]])}
                for _ in range(self.r.randint(1, 3))]

    def role(self, name):
        kind = self.pick(["Role", "ClusterRole"])
        return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind,
                "metadata": self.meta(name, kind == "Role"), "rules": self.rules()}

    def rolebinding(self, name):
        kind = self.pick(["RoleBinding", "ClusterRoleBinding"])
        subjects = [{"kind": "ServiceAccount", "name": w, "namespace": "default"}
                    for w in self.r.sample(WORDS, self.r.randint(1, 3))]
        if self.maybe(0.2):
            subjects.append({"kind": "User", "name": "jane@example.com",
                             "apiGroup": "rbac.authorization.k8s.io"})
        return {"apiVersion": "rbac.authorization.k8s.io/v1", "kind": kind,
                "metadata": self.meta(name, kind == "RoleBinding"),
                "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                            "name": "view"}, "subjects": subjects}

    def hpa(self, name):
        metrics = [{"type": "Resource", "resource": {"name": r, "target": {
            "type": "Utilization", "averageUtilization": self.pick([50, 70, 80])}}}
            for r in self.r.sample(["cpu", "memory"], self.r.randint(1, 2))]
        spec = {"scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": name},
                "minReplicas": self.r.randint(1, 3), "maxReplicas": self.r.randint(4, 10),
                "metrics": metrics}
        if self.maybe(0.4):
            spec["behavior"] = {"scaleDown": {"stabilizationWindowSeconds": 300, "policies": [
                {"type": "Percent", "value": 10, "periodSeconds": 60}]}}
        return {"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
                "metadata": self.meta(name), "spec": spec}

    def pdb(self, name):
        spec = {"selector": {"matchLabels": {"app": name}}}
        if self.maybe():
            spec["minAvailable"] = self.pick([1, "50%"])
        else:
            spec["maxUnavailable"] = self.pick([1, "25%"])
        return {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                "metadata": self.meta(name), "spec": spec}

    def netpol(self, name):
        spec = {"podSelector": {"matchLabels": {"app": name}}}
        if self.maybe(0.7):
            spec["ingress"] = [{"from": [{"podSelector": {"matchLabels": {"app": w}}}
                                         for w in self.r.sample(WORDS, self.r.randint(1, 2))],
                                "ports": [{"protocol": "TCP", "port": self.pick([80, 8080, "http"])}]}]
        if self.maybe(0.4):
            spec["egress"] = [{"to": [{"ipBlock": {"cidr": "10.0.0.0/8",
                                                   "except": ["10.1.0.0/16"]}}]}]
        if self.maybe(0.5):
            spec["policyTypes"] = ["Ingress"] + (["Egress"] if "egress" in spec else [])
        return {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
                "metadata": self.meta(name), "spec": spec}

    def widget(self, name):
        spec = {"size": self.pick(["small", "medium", "large"]),
                "replicas": self.r.randint(1, 4),
                "ports": [{"name": "http", "port": 80}, {"name": "metrics", "port": 9090}]
                [:self.r.randint(1, 2)],
                "tags": self.r.sample(["a", "b", "c", "d"], self.r.randint(0, 3)),
                "config": {"enabled": self.maybe(), "level": self.pick([1, 2, 3]),
                           "nested": {"x": "1", "y": None if self.maybe(0.2) else "2"}}}
        if self.maybe(0.3):
            spec["flags"] = {"yes": self.yaml11_value()}
        return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": self.meta(name),
                "spec": spec}

    def serviceaccount(self, name):
        return {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": self.meta(name),
                "imagePullSecrets": [{"name": "regcred"}],
                "automountServiceAccountToken": self.maybe()}


KINDS = [("deployment", 14), ("statefulset", 5), ("daemonset", 4), ("job", 4), ("cronjob", 4),
         ("pod", 4), ("service", 8), ("configmap", 8), ("secret", 5), ("ingress", 5),
         ("role", 3), ("rolebinding", 3), ("hpa", 3), ("pdb", 3), ("netpol", 3), ("widget", 5),
         ("serviceaccount", 1)]

# ---------------------------------------------------------------------------------------------
# mutations

IDENT = {("apiVersion",), ("kind",), ("metadata", "name"), ("metadata", "namespace"),
         ("metadata", "creationTimestamp")}
MERGE_KEYS = ["name", "containerPort", "port", "mountPath", "ip", "topologyKey"]


def walk(v, path=()):
    """Every (path, container, key) below v; key is a dict key or a list index."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield path + (k,), v, k
            yield from walk(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield path + (i,), v, i
            yield from walk(x, path + (i,))


def changed(v, g):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + g.r.choice([1, 2, 100])
    if isinstance(v, Block):
        return Block(str(v) + "extra: 1\n", v.style)
    if isinstance(v, Raw):
        return g.yaml11_value()
    if isinstance(v, str):
        if g.maybe(0.1) and v.isdigit():
            return int(v)
        return v + "-" + g.uniq("v")
    if v is None:
        return "set"
    return v


def fresh_item(lst, key, g):
    """A new element for the list lst (found under key)."""
    builders = {"containers": g.container, "initContainers": lambda: g.container(init=True),
                "env": g.env_var, "volumes": g.volume, "tolerations": g.toleration}
    if key in builders:
        return builders[key]()
    if not lst:
        return g.uniq("item")
    item = copy.deepcopy(g.pick(lst))
    if isinstance(item, dict):
        for mk in MERGE_KEYS:
            if mk in item:
                item[mk] = changed(item[mk], g) if isinstance(item[mk], int) else g.uniq(
                    str(item[mk]))
                break
        else:
            for k, x in item.items():
                if isinstance(x, (str, int)) and not isinstance(x, bool):
                    item[k] = changed(x, g)
                    break
        return item
    return changed(item, g)


EXTRA_FIELDS = [
    (("metadata", "labels"), "team", "payments"),
    (("metadata", "annotations"), "note", "rolled by ci"),
    (("metadata", "annotations"), "kubernetes.io/change-cause", "image bump"),
    (("metadata",), "finalizers", ["example.com/protect"]),
    (("spec",), "minReadySeconds", 5),
    (("spec",), "paused", False),
    (("spec",), "progressDeadlineSeconds", 600),
    (("spec", "template", "spec"), "priorityClassName", "high"),
    (("spec", "template", "spec"), "dnsPolicy", "ClusterFirst"),
    (("spec", "template", "spec"), "hostNetwork", True),
    (("spec", "template", "metadata", "annotations"), "checksum/config", "deadbeef"),
]


def get(v, path):
    for p in path:
        if isinstance(v, dict) and p in v:
            v = v[p]
        else:
            return None
    return v


def mutate(obj, g, n):
    """n random edits of obj in place (the file being applied, or drift on live)."""
    for _ in range(n):
        nodes = [(p, c, k) for p, c, k in walk(obj) if p[:2] not in IDENT and p[:1] not in IDENT
                 and p not in IDENT and p[:1] != ("status",) and p != ("metadata",)]
        if not nodes:
            return
        op = g.r.random()
        p, c, k = g.pick(nodes)
        v = c[k]
        if op < 0.25:  # change a scalar
            leaves = [(p, c, k) for p, c, k in nodes if not isinstance(c[k], (dict, list))]
            if leaves:
                p, c, k = g.pick(leaves)
                c[k] = changed(c[k], g)
        elif op < 0.40:  # drop a field (a clear when last-applied had it)
            if isinstance(c, dict):
                del c[k]
            else:
                c.pop(k)
        elif op < 0.47:  # explicit null
            if isinstance(c, dict):
                c[k] = None
        elif op < 0.62:  # add a list item
            lists = [(p, c, k) for p, c, k in nodes if isinstance(c[k], list)]
            if lists:
                p, c, k = g.pick(lists)
                lst = c[k]
                lst.insert(g.r.randint(0, len(lst)), fresh_item(lst, p[-1], g))
        elif op < 0.74:  # reorder a list
            lists = [(p, c, k) for p, c, k in nodes if isinstance(c[k], list) and len(c[k]) > 1]
            if lists:
                p, c, k = g.pick(lists)
                lst = c[k]
                if g.maybe():
                    lst.reverse()
                else:
                    i, j = g.r.sample(range(len(lst)), 2)
                    lst[i], lst[j] = lst[j], lst[i]
        elif op < 0.84:  # add a known field
            path, key, val = g.pick(EXTRA_FIELDS)
            parent = obj
            for step in path:
                if not isinstance(parent, dict):
                    break
                if not isinstance(parent.get(step), dict):
                    if step in ("labels", "annotations") and parent is get(obj, ("metadata",)) \
                            or step == "annotations":
                        parent[step] = {}
                    else:
                        break
                parent = parent[step]
            else:
                if isinstance(parent, dict):
                    parent[key] = copy.deepcopy(val)
        elif op < 0.92:  # replace a sub-object by a fresh one of its kind
            items = [(p, c, k) for p, c, k in nodes if isinstance(c, list)
                     and len(p) >= 2 and p[-2] in ("containers", "volumes", "env")]
            if items:
                p, c, k = g.pick(items)
                old = c[k]
                new = fresh_item(c, p[-2], g)
                if g.maybe(0.7) and isinstance(old, dict) and "name" in old:
                    new["name"] = old["name"]  # same merge key, different content
                c[k] = new
        elif op < 0.96:  # a type change
            if isinstance(v, int) and not isinstance(v, bool):
                c[k] = str(v) if g.maybe() else "http"
            elif isinstance(v, str) and v.isdigit():
                c[k] = int(v)
            elif isinstance(v, dict) and not v:
                c[k] = None
        else:  # duplicate a list item (a common mistake: the same env name twice)
            lists = [(p, c, k) for p, c, k in nodes if isinstance(c[k], list) and c[k]
                     and isinstance(c[k][0], dict)]
            if lists:
                p, c, k = g.pick(lists)
                lst = c[k]
                item = copy.deepcopy(g.pick(lst))
                for kk, x in item.items():
                    if kk not in MERGE_KEYS and isinstance(x, str):
                        item[kk] = x + "-dup"
                        break
                lst.append(item)


STRANGE = ["ünï €", "tab\there", 'say "hi"', "back\\slash", "  lead", "trail  ", "a: b",
           "# not a comment", "- dash", "{x}", "[y]", "*star", "&amp", "!bang", "%pct", "@at",
           "`tick`", "0", "-1", "1e3", "0x10", "true", "null", "~", "", " ", "line1\nline2",
           "\u2028sep", "emoji 🚀", "x" * 300]
NUMBERS = [Raw("1.0"), Raw("1.5"), Raw("1e3"), Raw("-0"), Raw("0.0"), Raw("12345678901234567890"),
           Raw("9007199254740993"), Raw("-9223372036854775808"), Raw("1_000"), Raw("0o17"),
           Raw("+1"), Raw("2.50"), Raw("1.0e+2"), 1.5, 0.1, -3]


def hard(obj, g):
    """One adversarial edit: odd values and shapes kubectl still accepts (or refuses)."""
    nodes = [(p, c, k) for p, c, k in walk(obj) if p[:1] not in IDENT and p[:2] not in IDENT
             and p not in IDENT and p != ("metadata",) and p[:1] != ("status",)]
    if not nodes:
        return
    p, c, k = g.pick(nodes)
    v = c[k]
    op = g.r.random()
    if op < 0.15:  # an odd number where a number is
        ints = [(p, c, k) for p, c, k in nodes if isinstance(c[k], int)
                and not isinstance(c[k], bool)]
        if ints:
            p, c, k = g.pick(ints)
            c[k] = g.pick(NUMBERS)
    elif op < 0.30:  # an odd string where a string is
        strs = [(p, c, k) for p, c, k in nodes if isinstance(c[k], str)
                and not isinstance(c[k], Raw) and (not p or p[-1] not in MERGE_KEYS)]
        if strs:
            p, c, k = g.pick(strs)
            c[k] = g.pick(STRANGE)
    elif op < 0.40:  # empty it
        if isinstance(v, list):
            c[k] = []
        elif isinstance(v, dict):
            c[k] = {}
    elif op < 0.48:  # change its shape
        if isinstance(v, dict):
            c[k] = g.pick([[v], "x", 1])
        elif isinstance(v, list):
            c[k] = g.pick([{"a": v}, "x"]) if g.maybe(0.5) else (v[0] if v else None)
        else:
            c[k] = g.pick([{"value": v}, [v]])
    elif op < 0.56:  # a list item without its merge key, or a null item
        lists = [(p, c, k) for p, c, k in nodes if isinstance(c[k], list) and c[k]
                 and isinstance(c[k][0], dict)]
        if lists:
            p, c, k = g.pick(lists)
            item = g.pick(c[k])
            if g.maybe(0.8):
                for mk in MERGE_KEYS:
                    if mk in item:
                        del item[mk]
                        break
            else:
                c[k].append(None)
    elif op < 0.68:  # finalizers: the one merging list of strings
        m = obj.get("metadata")
        if isinstance(m, dict):
            fins = m.get("finalizers") if isinstance(m.get("finalizers"), list) else []
            choice = g.r.random()
            if choice < 0.3 or not fins:
                fins = fins + [g.pick(["a.example.com/x", "b.example.com/y", "kubernetes",
                                       "foregroundDeletion"])]
            elif choice < 0.5:
                fins = fins + [fins[0]]
            elif choice < 0.7:
                fins = list(reversed(fins)) + ["z.example.com/z"]
            elif choice < 0.85:
                fins = fins[1:]
            else:
                fins = None
            m["finalizers"] = fins
    elif op < 0.80:  # an unknown field somewhere: scalar, map or list
        maps = [(p, c, k) for p, c, k in nodes if isinstance(c[k], dict)]
        if maps:
            p, c, k = g.pick(maps)
            c[k][g.pick(["extra", "customField", "x-note", "Labels", "IMAGE"])] = g.pick(
                ["v", 3, {"a": 1}, [1, 2], None, [{"name": "a"}]])
    elif op < 0.90:  # a null deep inside
        maps = [(p, c, k) for p, c, k in nodes if isinstance(c[k], dict) and c[k]]
        if maps:
            p, c, k = g.pick(maps)
            kk = g.pick(list(c[k]))
            c[k][kk] = None
    else:  # a key with dots, slashes or YAML-significant text
        maps = [(p, c, k) for p, c, k in nodes if isinstance(c[k], dict)
                and p and p[-1] in ("labels", "annotations", "data", "matchLabels",
                                    "nodeSelector", "selector", "stringData", "spec")]
        if maps:
            p, c, k = g.pick(maps)
            c[k][g.pick(["a.b/c", "x:y", "with space", "ünï", "1", "-", "_", "a\\b",
                         "key.with.dots", "UPPER"])] = g.pick(["v", "", "1"])


# ---------------------------------------------------------------------------------------------
# the live object: server defaults and drift


def container_defaults(c, g):
    c.setdefault("imagePullPolicy", "Always" if str(c.get("image", "")).endswith(":latest")
                 else "IfNotPresent")
    c.setdefault("terminationMessagePath", "/dev/termination-log")
    c.setdefault("terminationMessagePolicy", "File")
    c.setdefault("resources", {})
    for p in c.get("ports") or []:
        if isinstance(p, dict):
            p.setdefault("protocol", "TCP")
    for probe in ["livenessProbe", "readinessProbe", "startupProbe"]:
        pr = c.get(probe)
        if isinstance(pr, dict):
            for f, d in [("timeoutSeconds", 1), ("periodSeconds", 10), ("successThreshold", 1),
                         ("failureThreshold", 3)]:
                pr.setdefault(f, d)
            if isinstance(pr.get("httpGet"), dict):
                pr["httpGet"].setdefault("scheme", "HTTP")
    for e in c.get("env") or []:
        if isinstance(e, dict) and isinstance(e.get("valueFrom"), dict):
            fr = e["valueFrom"].get("fieldRef")
            if isinstance(fr, dict):
                fr.setdefault("apiVersion", "v1")


def pod_defaults(spec, g):
    if not isinstance(spec, dict):
        return
    for key in ("containers", "initContainers"):
        for c in spec.get(key) or []:
            if isinstance(c, dict):
                container_defaults(c, g)
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("dnsPolicy", "ClusterFirst")
    spec.setdefault("schedulerName", "default-scheduler")
    spec.setdefault("securityContext", {})
    spec.setdefault("terminationGracePeriodSeconds", 30)
    for v in spec.get("volumes") or []:
        if isinstance(v, dict):
            for src in ("configMap", "secret"):
                if isinstance(v.get(src), dict):
                    v[src].setdefault("defaultMode", 420)


def server_defaults(o, g):
    kind = o.get("kind")
    m = o.setdefault("metadata", {})
    if isinstance(m, dict):
        m["uid"] = "0b5e%04x-1c2d-4e5f-8a9b-%012x" % (g.r.getrandbits(16), g.r.getrandbits(48))
        m["resourceVersion"] = str(g.r.randint(1000, 99999))
        m["creationTimestamp"] = "2026-01-0%dT10:00:00Z" % g.r.randint(1, 9)
        if kind in ("Deployment", "StatefulSet", "DaemonSet", "Widget"):
            m["generation"] = g.r.randint(1, 9)
    spec = o.get("spec")
    if not isinstance(spec, dict):
        return
    tmpl = spec.get("template")
    if isinstance(tmpl, dict):
        pod_defaults(tmpl.get("spec"), g)
    if kind == "Pod":
        pod_defaults(spec, g)
        spec["nodeName"] = "node-%d" % g.r.randint(1, 3)
        o["status"] = {"phase": "Running", "podIP": "10.1.2.3"}
    if kind == "Deployment":
        spec.setdefault("replicas", 1)
        spec.setdefault("revisionHistoryLimit", 10)
        spec.setdefault("progressDeadlineSeconds", 600)
        st = spec.setdefault("strategy", {"type": "RollingUpdate"})
        if isinstance(st, dict) and st.get("type") == "RollingUpdate":
            st.setdefault("rollingUpdate", {"maxSurge": "25%", "maxUnavailable": "25%"})
        o["status"] = {"replicas": spec.get("replicas"), "readyReplicas": spec.get("replicas")}
        m.setdefault("annotations", {})
        if isinstance(m["annotations"], dict):
            m["annotations"]["deployment.kubernetes.io/revision"] = str(g.r.randint(1, 9))
    if kind == "StatefulSet":
        spec.setdefault("podManagementPolicy", "OrderedReady")
        spec.setdefault("updateStrategy", {"type": "RollingUpdate",
                                           "rollingUpdate": {"partition": 0}})
        spec.setdefault("revisionHistoryLimit", 10)
    if kind == "DaemonSet":
        spec.setdefault("updateStrategy", {"type": "RollingUpdate", "rollingUpdate": {
            "maxUnavailable": 1, "maxSurge": 0}})
    if kind == "Job":
        uid = "c0ffee%02x" % g.r.getrandbits(8)
        spec.setdefault("selector", {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}})
        if isinstance(tmpl, dict) and isinstance(tmpl.get("metadata"), dict):
            labels = tmpl["metadata"].setdefault("labels", {})
            if isinstance(labels, dict):
                labels["batch.kubernetes.io/controller-uid"] = uid
                labels["job-name"] = m.get("name")
        spec.setdefault("backoffLimit", 6)
        spec.setdefault("completionMode", "NonIndexed")
    if kind == "CronJob":
        spec.setdefault("concurrencyPolicy", "Allow")
        spec.setdefault("suspend", False)
        spec.setdefault("successfulJobsHistoryLimit", 3)
        spec.setdefault("failedJobsHistoryLimit", 1)
        jt = get(spec, ("jobTemplate", "spec", "template"))
        if isinstance(jt, dict):
            pod_defaults(jt.get("spec"), g)
    if kind == "Service":
        spec["clusterIP"] = "10.96.%d.%d" % (g.r.randint(0, 255), g.r.randint(1, 254))
        spec["clusterIPs"] = [spec["clusterIP"]]
        spec.setdefault("type", "ClusterIP")
        spec.setdefault("sessionAffinity", "None")
        spec["ipFamilies"] = ["IPv4"]
        spec["ipFamilyPolicy"] = "SingleStack"
        for p in spec.get("ports") or []:
            if isinstance(p, dict):
                p.setdefault("protocol", "TCP")
                if "port" in p:
                    p.setdefault("targetPort", p["port"])
                if spec.get("type") in ("NodePort", "LoadBalancer"):
                    p.setdefault("nodePort", g.r.randint(30000, 32767))
        if spec.get("type") == "LoadBalancer":
            o["status"] = {"loadBalancer": {"ingress": [{"ip": "203.0.113.7"}]}}
    if kind == "NetworkPolicy":
        spec.setdefault("policyTypes", ["Ingress"])


def drift(o, g):
    """What happened to the live object since the last apply."""
    kind = o.get("kind")
    spec = o.get("spec") if isinstance(o.get("spec"), dict) else {}
    pod = get(o, ("spec", "template", "spec"))
    if kind == "Pod":
        pod = spec
    k = g.r.random()
    if k < 0.2 and "replicas" in spec:
        spec["replicas"] = g.r.randint(1, 10)  # an HPA or kubectl scale
    elif k < 0.35 and isinstance(pod, dict) and isinstance(pod.get("containers"), list):
        pod["containers"].append({"name": "istio-proxy", "image": "istio/proxyv2:1.20.0",
                                  "args": ["proxy", "sidecar"], "ports": [
                                      {"containerPort": 15090, "name": "http-envoy-prom",
                                       "protocol": "TCP"}]})
        if g.maybe() and isinstance(pod.setdefault("initContainers", []), list):
            if isinstance(pod.get("initContainers"), list):
                pod["initContainers"].append({"name": "istio-init",
                                              "image": "istio/proxyv2:1.20.0"})
        if isinstance(pod.get("volumes", []), list):
            pod.setdefault("volumes", []).append({"name": "istio-envoy",
                                                  "emptyDir": {"medium": "Memory"}})
    elif k < 0.45 and isinstance(pod, dict) and isinstance(pod.get("containers"), list) \
            and pod["containers"] and isinstance(pod["containers"][0], dict):
        pod["containers"][0]["image"] = "registry.example.com/hotfix:1"  # kubectl set image
    elif k < 0.55 and isinstance(o.get("metadata"), dict):
        m = o["metadata"]
        if not isinstance(m.get("labels"), dict):
            m["labels"] = {}
        m["labels"]["edited-by"] = "kubectl-label"
    elif k < 0.62 and isinstance(o.get("metadata"), dict):
        m = o["metadata"]
        if isinstance(m.get("finalizers", []), list):
            m.setdefault("finalizers", []).append("controller.example.com/finalizer")
    elif k < 0.85:
        mutate(o, g, g.r.randint(1, 2))


def shuffle_ops(lst, make, g, n):
    """n random list edits: insert a new item, remove one, move one, swap two."""
    lst = copy.deepcopy(lst)
    for _ in range(n):
        op = g.r.random()
        if op < 0.3 or not lst:
            lst.insert(g.r.randint(0, len(lst)), make())
        elif op < 0.55:
            lst.pop(g.r.randrange(len(lst)))
        elif op < 0.8:
            x = lst.pop(g.r.randrange(len(lst)))
            lst.insert(g.r.randint(0, len(lst)), x)
        elif len(lst) > 1:
            i, j = g.r.sample(range(len(lst)), 2)
            lst[i], lst[j] = lst[j], lst[i]
    return lst


LIST_SIZE = [10]  # the longest env list list_stress starts from (--list-size)


def list_stress(g, name):
    """A Deployment whose merging lists (containers, env, ports, volumeMounts, volumes,
    finalizers) are long and edited several times in the file and in live."""
    o = g.deployment(name)
    pod = o["spec"]["template"]["spec"]
    c0 = pod["containers"][0]
    c0["env"] = [g.env_var("V%d" % i) for i in range(g.r.randint(3, LIST_SIZE[0]))]
    c0["ports"] = [{"containerPort": 8000 + i, "name": "p%d" % i} for i in range(g.r.randint(1, 5))]
    fins = ["f%d.example.com/x" % i for i in range(g.r.randint(0, 5))]
    if fins:
        o["metadata"]["finalizers"] = fins
    m = copy.deepcopy(o)
    mpod = m["spec"]["template"]["spec"]
    mc0 = mpod["containers"][0]
    k = [0]

    def newenv():
        k[0] += 1
        return g.env_var("N%d" % k[0]) if g.maybe(0.8) else g.env_var(
            "V%d" % g.r.randint(0, LIST_SIZE[0] + 2))

    def newport():
        return {"containerPort": 9000 + g.r.randint(0, 9), "name": g.uniq("q")}

    def newfin():
        return g.pick(["f%d.example.com/x" % g.r.randint(0, 7), g.uniq("n.example.com/y")])

    mc0["env"] = shuffle_ops(mc0["env"], newenv, g, g.r.randint(0, 5 + LIST_SIZE[0] // 10))
    mc0["ports"] = shuffle_ops(mc0["ports"], newport, g, g.r.randint(0, 3))
    mpod["containers"] = shuffle_ops(mpod["containers"], g.container, g, g.r.randint(0, 2))
    if fins or g.maybe(0.3):
        m["metadata"]["finalizers"] = shuffle_ops(fins, newfin, g, g.r.randint(0, 4))
    cur = json.loads(json.dumps(plain_with_raw(o)))
    server_defaults(cur, g)
    cpod = cur["spec"]["template"]["spec"]
    cc0 = cpod["containers"][0]
    cc0["env"] = shuffle_ops(cc0["env"], newenv, g, g.r.randint(0, 3))
    cc0["ports"] = shuffle_ops(cc0["ports"], newport, g, g.r.randint(0, 2))
    cpod["containers"] = shuffle_ops(cpod["containers"], g.container, g, g.r.randint(0, 2))
    if fins or g.maybe(0.3):
        cur["metadata"]["finalizers"] = shuffle_ops(fins, newfin, g, g.r.randint(0, 3))
    return o, m, json.loads(json.dumps(plain_with_raw(cur)))


SCALARS = ["yes", "No", "ON", "off", "y", "Y", "n", "N", "True", "FALSE", "~", "null", "Null",
           "0", "-0", "+0", "00", "07", "08", "09", "0777", "0o17", "0x1F", "0X1f", "0b1010",
           "0b_10", "1_000", "1__0", "1:20", "1:20:30", "-1:20", "190:20:30.15", "1.0", "1.",
           ".5", "-.5", "+.5", "1e3", "1E3", "1e+3", "1.0e-3", "1e400", ".inf", "-.Inf", ".NaN",
           "2024-01-01", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "=", "<<",
           "12345678901234567890", "9223372036854775807", "9223372036854775808",
           "-9223372036854775809", "0.1", "3.14159265358979323846", "1e-400", "0x", "1_",
           "_1", "1,000", "$1", "1.2.3", "v1.0", "yes!", "!!str 1", '!!int "1"',
           "!!float 1", "!!bool yes", "!!null ~", "!!str", "!!binary aGk=", "! 1",
           "!!timestamp 2001-12-14", "'single ''quoted'''", r'"esc \x41 \u00e9 \t"',
           r'"\U0001F600 \N \_ \L"', "plain with  spaces", "a #b", "a#b", "x:y", "-x",
           "?x", "100%", "1.5Gi", "0.5", "500m", "+12", "0o", "0b2", "1e", "0x1F.0", "-.0",
           "+.inf", ".Inf", "0.0", "-0.0", "6.02e+23", "1_2.3_4", "0_7", "'0777'", '"1e3"',
           "'multi\n  line'", '"fold\n  ed"', "plain\n  continued", "'a\n\n  b'"]


def yaml_stress(g, name):
    """A custom resource full of YAML 1.1 scalars: as map values, list items and keys."""
    vals = {}
    for i in range(g.r.randint(2, 8)):
        k = g.pick(SCALARS) if g.maybe(0.15) else "k%d" % i
        if "\n" in k or k.startswith(("|", "'", '"', "!", "?", "-x", "=", "<<")):
            k = "k%d" % i
        vals[Raw(k)] = Raw(g.pick(SCALARS))
    items = [Raw(g.pick(SCALARS)) for _ in range(g.r.randint(0, 5))]
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": name},
            "spec": {"values": vals, "items": items, "size": "small"}}


def make_case(g, folder, json_share, hard_share, list_share=0.0, yaml_share=0.0):
    kind = g.r.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]
    name = g.pick(WORDS) + "-" + g.pick(["svc", "app", "main", "v2", "x"])
    if g.maybe(list_share):
        original, modified, current = list_stress(g, name)
        folder.mkdir(parents=True, exist_ok=True)
        roles = {"original": original, "modified": modified, "current": current}
        if g.maybe(0.15):
            del roles["original"]
        for role, v in roles.items():
            write_doc(folder / role, v, g.r, json_share)
        (folder / "description.txt").write_text("campaign %s: list stress\n" % folder.name)
        return
    if g.maybe(yaml_share):
        modified = yaml_stress(g, name)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "modified.yaml").write_text(Yaml(g.r).dump(modified))
        if g.maybe(0.5):
            current = {"apiVersion": "example.com/v1", "kind": "Widget",
                       "metadata": {"name": name, "namespace": "default"},
                       "spec": {"values": {"k0": "x", "k1": 1, "k2": None}, "size": "big"}}
            (folder / "current.json").write_text(json.dumps(current))
        (folder / "description.txt").write_text("campaign %s: yaml scalars\n" % folder.name)
        return
    original = getattr(g, kind)(name)
    if hard_share and g.maybe(hard_share / 3):
        hard(original, g)
    modified = copy.deepcopy(original)
    mutate(modified, g, g.r.choice([0, 1, 1, 2, 2, 3, 4, 6]))
    for _ in range(g.r.choice([0, 0, 1, 1, 2]) if hard_share and g.maybe(hard_share) else 0):
        hard(modified, g)
    scen = g.r.random()
    if scen < 0.10:  # a create
        roles = {"modified": modified}
    else:
        base = copy.deepcopy(modified if g.maybe(0.1) else original)
        current = json.loads(json.dumps(plain_with_raw(base)))
        server_defaults(current, g)
        if g.maybe(0.75):
            drift(current, g)
        if hard_share and g.maybe(hard_share / 3):
            hard(current, g)
            current = json.loads(json.dumps(plain_with_raw(current)))
        if scen < 0.18:  # live created without kubectl apply: no annotation
            roles = {"modified": modified, "current": current}
        else:
            roles = {"original": original, "modified": modified, "current": current}
    folder.mkdir(parents=True, exist_ok=True)
    if "current" in roles and g.maybe(0.06):
        (folder / "apply-flags.txt").write_text("--overwrite=false\n")
    for role, v in roles.items():
        write_doc(folder / role, v, g.r, json_share if role != "current" else 0.5)
    (folder / "description.txt").write_text("campaign %s: %s %s\n" % (
        folder.name, original["kind"], "create" if "current" not in roles else
        ("two-way" if "original" not in roles else "three-way")))


def resolve_raw(s):
    """A YAML 1.1 plain scalar as go-yaml v2 reads it, enough for the live object's copy
    (the live object only needs to be plausible; kubectl reads the file itself)."""
    t = str(s)
    low = t.lower()
    if low in ("y", "yes", "on", "true"):
        return True
    if low in ("n", "no", "off", "false"):
        return False
    if low in ("~", "null"):
        return None
    for base, pre in ((16, "0x"), (8, "0o"), (2, "0b")):
        if low.startswith(pre):
            try:
                return int(t[2:], base)
            except ValueError:
                return t
    if re.fullmatch(r"0[0-7]+", t):
        return int(t, 8)
    if re.fullmatch(r"[-+]?[0-9_]+", t):
        return int(t.replace("_", ""))
    if re.fullmatch(r"[-+]?([0-9][0-9_]*)?\.[0-9_]*([eE][-+][0-9]+)?", t):
        return float(t.replace("_", ""))
    return t


def plain_with_raw(v):
    if isinstance(v, dict):
        return {str(resolve_raw(k)) if isinstance(k, Raw) else k: plain_with_raw(x)
                for k, x in v.items()}
    if isinstance(v, list):
        return [plain_with_raw(x) for x in v]
    if isinstance(v, Raw):
        return resolve_raw(v)
    if isinstance(v, Block):
        return str(v)
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", required=True, help="scratch folder (under /tmp)")
    ap.add_argument("--json-share", type=float, default=0.25,
                    help="share of files written as JSON")
    ap.add_argument("--lists", type=float, default=0.2,
                    help="share of cases that stress merging lists (long, edited on both sides)")
    ap.add_argument("--list-size", type=int, default=10,
                    help="longest env list of the list-stress cases (Go sorts more than 12 with "
                         "pdqsort, more than 50 with its ninther pivot)")
    ap.add_argument("--yaml", type=float, default=0.1,
                    help="share of cases that stress the YAML reader (custom resource)")
    ap.add_argument("--hard", type=float, default=0.5,
                    help="share of cases with adversarial edits (odd numbers, strings, shapes)")
    a = ap.parse_args()
    LIST_SIZE[0] = max(3, a.list_size)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(a.count):
        g = Gen(random.Random("%d/%d" % (a.seed, i)))
        make_case(g, out / ("s%d-%04d" % (a.seed, i)), a.json_share, a.hard, a.lists,
                  a.yaml)
    print("%d cases in %s" % (a.count, out))


if __name__ == "__main__":
    main()
