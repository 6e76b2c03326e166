"""kubectl's time on bench/limit.sh's big object (issue 16's reference): one process of
`kubectl apply --dry-run=client -o json -f local.json` against a loopback fake API server that
answers the GET from memory (bench/benchapi.py), so the time is kubectl's own.

    python3 bench/kubectl_limit.py KUBECTL LOCAL.json LIVE.json WORKDIR [RUNS]

Prints one line: `kubectl WALL_MEDIAN RSS_MB OUTPUT_BYTES` (seconds, the median of RUNS runs,
default 3; peak RSS of the slowest-to-finish run in MB, from wait4). Needs ../shared/oracle (or
APPLYSCOPE_SHARED=DIR) for the fake server.
"""

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.dont_write_bytecode = True
from benchapi import BenchAPI, env_for  # noqa: E402


def main():
    kubectl, local, live, work = sys.argv[1:5]
    runs = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    work = Path(work)
    (work / "srv").mkdir(parents=True, exist_ok=True)
    api = BenchAPI(kubectl, str(work / "srv"))
    api.serve(Path(live).read_bytes(), answer_live=True)
    api.start()
    try:
        api.write_kubeconfig(work / "kubeconfig")
        env = env_for(str(work / "home"))
        cmd = [kubectl, "--kubeconfig", str(work / "kubeconfig"), "--cache-dir",
               str(work / "cache"), "apply", "--validate=false", "--dry-run=client", "-o", "json",
               "-f", local]
        # One warm-up run fills kubectl's discovery cache, as the timed runs then find it.
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls, rss, size = [], 0, 0
        for _ in range(runs):
            with open(work / "kubectl.out", "wb") as out:
                start = time.monotonic()
                p = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.PIPE)
                _, status, usage = os.wait4(p.pid, 0)
                walls.append(time.monotonic() - start)
            if status != 0:
                sys.exit("kubectl failed: %s" % p.stderr.read().decode().strip())
            rss = max(rss, usage.ru_maxrss // 1024)
            size = (work / "kubectl.out").stat().st_size
        print("kubectl %.3f %d %d" % (statistics.median(walls), rss, size))
    finally:
        api.stop()


if __name__ == "__main__":
    main()
