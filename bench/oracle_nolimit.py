#!/usr/bin/env python3
"""../shared/oracle/oracle.py, unchanged, with its 60 s limit per kubectl run lifted.

The oracle gives each kubectl process 60 s (oracle.TIMEOUT, and a literal timeout=60 in
fakeapi.FakeAPI.apply_patch); kubectl 1.37.1 needs more than that for a 10 MB Deployment.
Same arguments and output as oracle.py. kubectl is $BENCH_KUBECTL if set (the oracle's own
$KUBECTL does not survive: the oracle removes KUBE* variables from kubectl's environment, and
the benchmark runs it in that environment), else the oracle's usual search.
"""

import os
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True
shared = Path(os.environ.get("APPLYSCOPE_SHARED") or Path(__file__).resolve().parents[2] / "shared")
sys.path.insert(0, str(shared / "oracle"))
import fakeapi  # noqa: E402
import oracle  # noqa: E402


class NoLimit:
    """subprocess as the oracle uses it, minus the timeout."""
    TimeoutExpired = subprocess.TimeoutExpired
    PIPE = subprocess.PIPE

    @staticmethod
    def run(*args, **kwargs):
        kwargs.pop("timeout", None)
        return subprocess.run(*args, **kwargs)


fakeapi.subprocess = NoLimit
oracle.subprocess = NoLimit
oracle.TIMEOUT = None
if os.environ.get("BENCH_KUBECTL"):
    os.environ["KUBECTL"] = os.environ["BENCH_KUBECTL"]

if __name__ == "__main__":
    sys.exit(oracle.main())
