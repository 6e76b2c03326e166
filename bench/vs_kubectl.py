#!/usr/bin/env python3
"""applyscope against kubectl 1.37.1 on the same generated inputs (run bench/vs-kubectl.sh).

See bench/README.md for what is measured. Python stdlib only, plus hyperfine and GNU time.
"""

import argparse
import json
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True
BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
import gen  # noqa: E402
from benchapi import SHARED, BenchAPI, env_for, object_path  # noqa: E402
from fakeapi import find_kubectl  # noqa: E402

KB, MB = 1000, 1000 * 1000
# label, containers (None: sized by bytes), env vars per container, target local.yaml bytes
SIZES = {"1KB": ("1 KB", 1, 6, None), "100KB": ("100 KB", None, 20, 100 * KB),
         "1MB": ("1 MB", None, 20, 1 * MB), "10MB": ("10 MB", None, 20, 10 * MB)}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


class Bench:
    def __init__(self, a):
        self.a = a
        self.work = Path(a.work).resolve()
        if any(c.isspace() for c in str(self.work) + str(BENCH) + a.applyscope + a.kubectl):
            sys.exit("paths with white space are not supported (hyperfine -N splits on it)")
        self.kubectl, self.applyscope, self.py = a.kubectl, a.applyscope, sys.executable
        self.kube = self.work / "kube"
        self.env = env_for(str(self.kube / "home"))
        self.env["BENCH_KUBECTL"] = self.kubectl
        self.rows, self.checks, self.notes = [], [], []
        self.load_start = os.getloadavg()

    # --- measuring ------------------------------------------------------------------------
    def hyperfine(self, name, cmd, runs, warmup):
        """Median (and min, max) wall time of cmd, a whole process, by hyperfine."""
        out = self.work / "hyperfine" / (name + ".json")
        out.parent.mkdir(parents=True, exist_ok=True)
        if not shutil.which("hyperfine"):
            return self.own_loop(cmd, runs, warmup)
        args = ["hyperfine", "-N", "--style", "none", "--export-json", str(out),
                "--warmup", str(warmup), "--runs", str(runs), shlex.join(cmd)]
        subprocess.run(args, env=self.env, check=True, stdout=subprocess.DEVNULL)
        r = json.loads(out.read_text())["results"][0]
        if any(code != 0 for code in r.get("exit_codes", [])):
            sys.exit("%s: non-zero exit status while timing" % name)
        return {"median": r["median"], "min": r["min"], "max": r["max"], "runs": len(r["times"]),
                "cpu": r["user"] + r["system"]}

    def own_loop(self, cmd, runs, warmup):
        """hyperfine's job, without hyperfine: wall time of whole processes, perf_counter."""
        times, cpu = [], 0.0
        for i in range(warmup + runs):
            ru = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            p = subprocess.run(cmd, env=self.env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
            if p.returncode:
                sys.exit("%s: non-zero exit status while timing" % shlex.join(cmd))
            if i >= warmup:
                times.append(time.perf_counter() - t)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu += (after.ru_utime - ru.ru_utime) + (after.ru_stime - ru.ru_stime)
        return {"median": statistics.median(times), "min": min(times), "max": max(times),
                "runs": runs, "cpu": cpu / runs}

    def rss(self, cmd, runs, stdout=None):
        """Peak RSS (GNU time's %M, KiB -> bytes) of cmd, median of `runs` runs. The first run's
        stdout goes to the file `stdout` (for the output checks)."""
        vals = []
        for i in range(runs):
            tf = self.work / "time.txt"
            with open(stdout if (stdout and i == 0) else os.devnull, "wb") as o:
                p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(tf)] + cmd,
                                   env=self.env, stdout=o, stderr=subprocess.PIPE)
            if p.returncode:
                sys.exit("%s failed (%d): %s" % (shlex.join(cmd), p.returncode,
                                                 p.stderr.decode()[-2000:]))
            vals.append(int(tf.read_text().split()[-1]) * 1024)
        return statistics.median(vals)

    def once(self, cmd, stdout=None):
        """One run, timed with perf_counter, under GNU time for its peak RSS (for runs of
        minutes, where a separate run for the memory would double the time)."""
        tf = self.work / "time.txt"
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        with open(stdout or os.devnull, "wb") as o:
            p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(tf)] + cmd,
                               env=self.env, stdout=o, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode:
            sys.exit("%s failed (%d): %s" % (shlex.join(cmd), p.returncode,
                                             p.stderr.decode()[-2000:]))
        cpu = (after.ru_utime - ru.ru_utime) + (after.ru_stime - ru.ru_stime)
        return {"median": wall, "min": wall, "max": wall, "runs": 1, "cpu": cpu,
                "rss": int(tf.read_text().split()[-1]) * 1024}

    def measure(self, key, cmd, heavy, stdout=None, runs=None, warmup=None):
        """RSS runs first (the first one also saves stdout), then hyperfine."""
        log("  %-28s %s" % (key, shlex.join(cmd)[:150]))
        if runs == 1:
            t = self.once(cmd, stdout)
            log("  %-28s %s (1 run)  peak RSS %s" % ("", secs(t["median"]), mib(t["rss"])))
            return t
        rss = self.rss(cmd, 1 if heavy else 3, stdout)
        if runs is None:
            runs, warmup = (3, 0) if heavy else (10, 2)
        t = self.hyperfine(key, cmd, runs, warmup)
        t["rss"] = rss
        log("  %-28s median %s  peak RSS %s" % ("", secs(t["median"]), mib(rss)))
        return t

    # --- per size -------------------------------------------------------------------------
    def size(self, key):
        label, n, envs, target = SIZES[key]
        d = self.work / "cases" / key
        n = n or gen.containers_for(target)
        gen.write_case(d, "bench-" + key.lower(), n, envs)
        f = {x: d / x for x in ("original.yaml", "local.yaml", "live.json", "live-noann.json")}
        live_bytes = f["live.json"].read_bytes()
        self.api.serve(live_bytes)
        path = object_path(json.loads(live_bytes))
        heavy = n > 100
        sz = {"object": f["local.yaml"].stat().st_size, "live": len(live_bytes)}
        sz["plan_input"] = sz["object"] + sz["live"]
        log("%s: %d containers x %d env; local.yaml %s, live.json %s" %
            (label, n, envs, human(sz["object"]), human(sz["live"])))

        m = {}
        plan_cmd = [self.applyscope, "plan", "--local", str(f["local.yaml"]),
                    "--live", str(f["live.json"]), "-o", "json"]
        m["plan"] = self.measure(key + "-applyscope-plan", plan_cmd, heavy, d / "plan.json")
        plan = json.loads((d / "plan.json").read_text())
        (d / "patch.json").write_text(json.dumps(plan["patch"], separators=(",", ":")))
        sz["patch"] = (d / "patch.json").stat().st_size
        sz["patch_input"] = sz["patch"] + sz["live"]

        oracle_cmd = [self.py, str(BENCH / "oracle_nolimit.py"), "--original",
                      str(f["original.yaml"]), "--modified", str(f["local.yaml"]),
                      "--current", str(f["live-noann.json"])]
        m["oracle"] = self.measure(key + "-oracle", oracle_cmd, heavy, d / "oracle.json")
        oracle = json.loads((d / "oracle.json").read_text())

        apply_cmd = [self.kubectl, "--kubeconfig", str(self.kube / "kubeconfig"), "--cache-dir",
                     str(self.kube / "cache"), "apply", "--validate=false", "-f",
                     str(f["local.yaml"])]
        m["kubectl"] = self.measure(key + "-kubectl-apply", apply_cmd, heavy, d / "apply.out")
        ctype, sent = self.api.patches[path]

        sp_cmd = [self.applyscope, "patch", "apply", "--patch", str(d / "patch.json"),
                  "--type", "strategic", str(f["live.json"])]
        m["sp"] = self.measure(key + "-applyscope-patch", sp_cmd, heavy, d / "patched.applyscope.json")
        kp_cmd = [self.kubectl, "patch", "--local", "-f", str(f["live.json"]), "--patch-file",
                  str(d / "patch.json"), "--type", "strategic", "-o", "json"]
        m["kp"] = self.measure(key + "-kubectl-patch", kp_cmd, heavy, d / "patched.kubectl.json")

        # do the outputs agree?
        live = json.loads(live_bytes)
        kp = json.loads((d / "patched.kubectl.json").read_text())
        sp = json.loads((d / "patched.applyscope.json").read_text())
        self.check(label, "live.json (annotation written by gen.py) = live object the oracle "
                   "made with kubectl", oracle["live"] == live)
        self.check(label, "kubectl apply exit 0 (oracle)",
                   oracle["exit_code"] == 0)
        self.check(label, "patch type: applyscope plan = kubectl apply",
                   plan["patchType"] == oracle["patch_type"] == ctype)
        self.check(label, "patch: applyscope plan = kubectl apply (oracle)",
                   plan["patch"] == oracle["patch"])
        self.check(label, "patch: applyscope plan = kubectl apply (bench server)",
                   plan["patch"] == json.loads(sent))
        self.check(label, "result: applyscope plan = oracle (kubectl patch --local)",
                   plan["result"] == oracle["result"])
        self.check(label, "patch apply: applyscope patch apply = kubectl patch --local",
                   sp == kp)
        self.check(label, "patch apply: = plan result", sp == plan["result"])
        self.rows.append({"key": key, "label": label, "containers": n, "env": envs,
                          "bytes": sz, "m": m})

    # --- 1,000 objects --------------------------------------------------------------------
    def object_set(self, count):
        d = self.work / "set"
        shutil.rmtree(d, ignore_errors=True)
        local_dir, live_dir, oracle_dir = d / "local", d / "live", d / "oracle-cases"
        local_dir.mkdir(parents=True)
        live_dir.mkdir()
        log("%d objects of about 1 KB (one container, 6 env vars), each its own name" % count)
        total = {"object": 0, "live": 0}
        for i in range(count):
            c = gen.write_case(d / "cases" / ("%04d" % i), "obj-%04d" % i, 1, 6, uid=i)
            shutil.copyfile(c / "local.yaml", local_dir / ("obj-%04d.yaml" % i))
            shutil.copyfile(c / "live.json", live_dir / ("obj-%04d.json" % i))
            oc = oracle_dir / ("%04d" % i)
            oc.mkdir(parents=True)
            shutil.copyfile(c / "original.yaml", oc / "original.yaml")
            shutil.copyfile(c / "local.yaml", oc / "modified.yaml")
            shutil.copyfile(c / "live-noann.json", oc / "current.json")
            lb = (c / "live.json").read_bytes()
            self.api.serve(lb, answer_live=True)
            total["object"] += (c / "local.yaml").stat().st_size
            total["live"] += len(lb)
        total["plan_input"] = total["object"] + total["live"]
        q = shlex.quote
        loop = "for c in %s/cases/*/; do %%s >/dev/null || exit 1; done\n" % q(str(d))
        (d / "applyscope-plan-each.sh").write_text(loop % (
            q(self.applyscope) + ' plan --local "$c"local.yaml --live "$c"live.json -o json'))
        (d / "kubectl-apply-each.sh").write_text(loop % (
            "%s --kubeconfig %s --cache-dir %s apply --validate=false -f \"$c\"local.yaml" % (
                q(self.kubectl), q(str(self.kube / "kubeconfig")), q(str(self.kube / "cache")))))

        m = {}
        m["plan"] = self.measure("set-applyscope-plan-each", ["bash", str(d / "applyscope-plan-each.sh")],
                                 False, runs=3, warmup=1)
        many = "directory" in subprocess.run([self.applyscope, "plan", "--help"],
                                             capture_output=True, text=True).stdout
        if many:  # applyscope plans many objects in one process
            m["plan_one"] = self.measure("set-applyscope-plan-one-process", [
                self.applyscope, "plan", "-f", str(local_dir), "--live", str(live_dir), "-o",
                "json"], False, d / "plan-all.jsonl", runs=3, warmup=1)
        apply_all = [self.kubectl, "--kubeconfig", str(self.kube / "kubeconfig"), "--cache-dir",
                     str(self.kube / "cache"), "apply", "--validate=false", "-f", str(local_dir)]
        m["kubectl_one"] = self.measure("set-kubectl-apply-one-process", apply_all, True,
                                        d / "apply.out", runs=3, warmup=0)
        if not self.a.quick:
            m["kubectl_each"] = self.measure("set-kubectl-apply-each",
                                             ["bash", str(d / "kubectl-apply-each.sh")], True,
                                             runs=1, warmup=0)
            m["oracle"] = self.measure("set-oracle-batch", [
                self.py, str(BENCH / "oracle_nolimit.py"), "--cases", str(oracle_dir),
                "--jobs", "1"], True, runs=1, warmup=0)
        # outputs: every object's patch, applyscope vs kubectl (and the oracle's)
        same = same_oracle = 0
        for i in range(count):
            c = d / "cases" / ("%04d" % i)
            p = subprocess.run([self.applyscope, "plan", "--local", str(c / "local.yaml"),
                                "--live", str(c / "live.json"), "-o", "json"],
                               capture_output=True, check=True)
            plan = json.loads(p.stdout)
            live = json.loads((c / "live.json").read_text())
            ctype, sent = self.api.patches[object_path(live)]
            same += plan["patch"] == json.loads(sent) and plan["patchType"] == ctype
            if "oracle" in m:
                e = json.loads((oracle_dir / ("%04d" % i) / "expected.json").read_text())
                same_oracle += plan["patch"] == e["patch"] and plan["result"] == e["result"]
        self.check("1,000 objects", "patch: applyscope plan = kubectl apply, %d of %d objects"
                   % (same, count), same == count)
        if "plan_one" in m:
            lines = [json.loads(x) for x in (d / "plan-all.jsonl").read_text().splitlines() if x]
            ok = 0
            for e in lines:
                ctype, sent = self.api.patches[object_path(e["plan"]["result"])]
                ok += e["plan"]["patch"] == json.loads(sent) and e["plan"]["patchType"] == ctype
            self.check("1,000 objects", "patch: applyscope plan in one process = kubectl apply, "
                       "%d of %d objects" % (ok, count), ok == count)
        if "oracle" in m:
            self.check("1,000 objects", "patch and result: applyscope plan = oracle, %d of %d"
                       % (same_oracle, count), same_oracle == count)
        self.set_row = {"count": count, "bytes": total, "m": m}

    def check(self, label, what, ok):
        self.checks.append((label, what, bool(ok)))
        log("  %s %s" % ("ok  " if ok else "DIFF", what))

    # --- main -----------------------------------------------------------------------------
    def run(self):
        self.work.mkdir(parents=True, exist_ok=True)
        self.kube.mkdir(parents=True, exist_ok=True)
        (self.work / "srv").mkdir(exist_ok=True)
        self.api = BenchAPI(self.kubectl, str(self.work / "srv"))
        self.api.start()
        self.api.write_kubeconfig(self.kube / "kubeconfig")
        try:
            for key in self.a.sizes:
                self.size(key)
            if self.a.set:
                self.object_set(self.a.set)
        finally:
            self.api.stop()
        report = self.report()
        (self.work / "table.md").write_text(report)
        (self.work / "results.json").write_text(json.dumps(
            {"machine": machine(), "versions": self.versions(), "sizes": self.rows,
             "set": getattr(self, "set_row", None), "checks": self.checks}, indent=2))
        print(report)
        log("written: %s, %s" % (self.work / "table.md", self.work / "results.json"))
        return 0 if all(ok for _, _, ok in self.checks) else 1

    def versions(self):
        k = subprocess.run([self.kubectl, "version", "--client", "-o", "json"], env=self.env,
                           capture_output=True, text=True)
        a = subprocess.run([self.applyscope, "--version"], capture_output=True, text=True)
        rev = subprocess.run(["git", "-C", str(BENCH.parent), "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(BENCH.parent), "status", "--porcelain", "--",
                                "src"], capture_output=True, text=True).stdout.strip()
        return {"kubectl": json.loads(k.stdout)["clientVersion"]["gitVersion"],
                "applyscope": a.stdout.strip() + " (git %s%s)" % (rev, ", src/ modified" if dirty else ""),
                "hyperfine": subprocess.run(["hyperfine", "--version"], capture_output=True,
                                            text=True).stdout.strip()
                if shutil.which("hyperfine") else "own timing loop (no hyperfine)"}

    def report(self):
        v, mach = self.versions(), machine()
        L = ["Measured %s on %s (%s cores), %s, %s, %s." % (
            time.strftime("%Y-%m-%d"), mach["cpu"], mach["cores"], v["applyscope"],
            "kubectl " + v["kubectl"], v["hyperfine"]),
            "Load average (1 min) %.1f at the start, %.1f at the end: other jobs %s." % (
                self.load_start[0], os.getloadavg()[0],
                "were sharing the cores" if max(self.load_start[0], os.getloadavg()[0]) > 1.5
                else "were few"), ""]
        L += ["| input | bytes read | measurement (whole process) | median wall | CPU user+sys | "
              "peak RSS | kubectl ÷ applyscope (wall) | RSS ÷ bytes read | RSS ÷ object |",
              "|---|---|---|---|---|---|---|---|---|"]
        for r in self.rows:
            b, m = r["bytes"], r["m"]
            lab = "%s (%d container%s)" % (r["label"], r["containers"],
                                          "" if r["containers"] == 1 else "s")
            pi, pa = b["plan_input"], b["patch_input"]
            L.append(row(lab, human(pi), "applyscope plan -o json", m["plan"], None,
                         m["plan"]["rss"] / pi, m["plan"]["rss"] / b["object"]))
            L.append(row("", "", "kubectl apply, oracle (Python + 5 kubectl runs)", m["oracle"],
                         m["oracle"]["median"] / m["plan"]["median"]))
            L.append(row("", "", "kubectl apply alone (1 process, fake server)", m["kubectl"],
                         m["kubectl"]["median"] / m["plan"]["median"]))
            L.append(row("", human(pa), "applyscope patch apply", m["sp"], None,
                         m["sp"]["rss"] / pa, m["sp"]["rss"] / b["object"]))
            L.append(row("", "", "kubectl patch --local", m["kp"],
                         m["kp"]["median"] / m["sp"]["median"]))
        s = getattr(self, "set_row", None)
        if s:
            m, lab = s["m"], "%d objects of ~1 KB" % s["count"]
            L.append(row(lab, human(s["bytes"]["plan_input"]),
                         "applyscope plan, one process per object", m["plan"], None))
            if "plan_one" in m:
                L.append(row("", "", "applyscope plan, one process for all (`-f dir/ --live dir/`)",
                             m["plan_one"], None))
            if "oracle" in m:
                L.append(row("", "", "kubectl apply, oracle batch `--jobs 1`", m["oracle"],
                             m["oracle"]["median"] / m["plan"]["median"]))
            if "kubectl_each" in m:
                L.append(row("", "", "kubectl apply alone, one process per object",
                             m["kubectl_each"], m["kubectl_each"]["median"] / m["plan"]["median"]))
            base = m.get("plan_one", m["plan"])
            L.append(row("", "", "kubectl apply alone, one process for all (`-f dir/`)",
                         m["kubectl_one"], m["kubectl_one"]["median"] / base["median"]))
        L += ["", "Output checks: %d of %d agree." % (
            sum(ok for _, _, ok in self.checks), len(self.checks))]
        L += ["- %s %s: %s" % ("ok" if ok else "**DIFFERS**", lab, what)
              for lab, what, ok in self.checks if not ok]
        big = [r for r in self.rows if r["key"] == "10MB"]
        if big:
            r = big[0]
            m, b = r["m"], r["bytes"]
            alone = m["kubectl"]["median"] / m["plan"]["median"]
            oracle = m["oracle"]["median"] / m["plan"]["median"]
            per_read = m["plan"]["rss"] / b["plan_input"]
            per_object = m["plan"]["rss"] / b["object"]
            verdict = lambda ok: "met" if ok else "NOT met"
            L += ["", "Goal at 10 MB (>= 20x faster than kubectl, peak memory < 10x the input), as "
                  "the issue measures it: %.2fx against kubectl apply through the oracle -> %s; "
                  "%.1fx the bytes read (local.yaml + live.json) -> %s. Read strictly: %.2fx "
                  "against kubectl apply alone -> %s; %.1fx the object (local.yaml) -> %s." % (
                      oracle, verdict(oracle >= 20), per_read, verdict(per_read < 10),
                      alone, verdict(alone >= 20), per_object, verdict(per_object < 10))]
        return "\n".join(L) + "\n"


def row(lab, size, what, t, ratio=None, rss_in=None, rss_obj=None):
    med = secs(t["median"]) + ("" if t["runs"] > 1 else " (1 run)")
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        lab, size, what, med, secs(t["cpu"]), mib(t["rss"]), "%.1fx" % ratio if ratio else "",
        "%.1fx" % rss_in if rss_in else "", "%.1fx" % rss_obj if rss_obj else "")


def secs(s):
    return "%.1f ms" % (s * 1000) if s < 1 else "%.2f s" % s


def mib(b):
    return "%.1f MiB" % (b / 1024 / 1024)


def human(b):
    return "%.1f MB" % (b / MB) if b >= MB else "%.1f KB" % (b / KB)


def machine():
    cpu = platform.processor() or "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", default=os.path.join(os.environ.get("TMPDIR", "/tmp"),
                                                   "applyscope-bench"))
    ap.add_argument("--sizes", default="1KB,100KB,1MB,10MB",
                    help="comma-separated, from " + ",".join(SIZES))
    ap.add_argument("--set", type=int, default=1000, help="objects in the set (0: none)")
    ap.add_argument("--quick", action="store_true",
                    help="no 10 MB; for the set, no one-kubectl-per-object loop and no oracle batch")
    ap.add_argument("--applyscope", required=True)
    ap.add_argument("--kubectl", default=None)
    a = ap.parse_args()
    a.kubectl = a.kubectl or find_kubectl()
    a.sizes = [s for s in a.sizes.split(",") if s and not (a.quick and s == "10MB")]
    for s in a.sizes:
        if s not in SIZES:
            ap.error("unknown size %s" % s)
    if not (SHARED / "oracle" / "oracle.py").is_file():
        sys.exit("the oracle is not at %s (set APPLYSCOPE_SHARED)" % (SHARED / "oracle"))
    return Bench(a).run()


if __name__ == "__main__":
    sys.exit(main())
