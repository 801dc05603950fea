"""Benchmark of `verify check` over every bundled ruleset (a script, not a test).

    python benchmarks/check_bench.py [--jobs J] [--repeat N]

Runs the full check (constraints, inductive steps for every action x invariant,
vacuity, bounded runs) in a fresh process, as a user would, and prints the wall
time, the number of checks and verdicts. The target on the 2-core build machine
is under 30 seconds for all bundled rulesets.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter


def run_once(jobs: int | None) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "verify.cli", "check", "--json"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"verify check failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed, json.loads(proc.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: up to 2)")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    times = []
    doc: dict = {}
    for _ in range(args.repeat):
        elapsed, doc = run_once(args.jobs)
        times.append(elapsed)
    rows = doc["results"]
    verdicts = Counter(r["verdict"] for r in rows)
    rulesets = sorted({r["ruleset"] for r in rows})
    failed = [r for r in rows if r["promised"] and r["verdict"] != "PROVED"]
    print(json.dumps({
        "rulesets": len(rulesets), "checks": len(rows), "verdicts": dict(verdicts),
        "promised_not_proved": len(failed), "jobs": args.jobs or min(2, os.cpu_count() or 1),
        "wall_s": [round(t, 2) for t in times], "median_s": round(statistics.median(times), 2),
        "target_s": 30, "load_average": os.getloadavg()[0],
    }, indent=2))


if __name__ == "__main__":
    main()
