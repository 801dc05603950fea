"""Benchmark of `verify check` over every bundled ruleset (a script, not a test).

    python benchmarks/check_bench.py [--jobs J] [--repeat N] [--baseline REV]

Runs the full check (constraints, inductive steps for every action x invariant, vacuity, bounded runs) in
a fresh process, as a user would, and prints the wall time, the number of checks and verdicts. Target on
the 2-core build machine: under 20 seconds with two workers. The CPU seconds (the command and its
workers) are printed too: on a loaded machine they still compare two trees where the wall time cannot.

With ``--baseline REV`` the same check of the tree at git revision REV (exported to a temporary folder) runs
before each run of this tree, so the two are measured side by side under the same load; the ratio is the
median of the per-pair ratios, and the two JSON documents are compared apart from the timings. A
counterexample is minimised by z3's optimiser within a time limit, so a few of them (a dozen of 4,930
rows under load) differ between two runs of the same tree; the comparison says which fields differ.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import Counter
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(tree: Path, jobs: int | None) -> tuple[float, float, dict]:
    """Wall seconds, CPU seconds (the command and its workers) and the JSON document of one full check."""
    cmd = [sys.executable, "-m", "verify.cli", "check", "--json"]
    if jobs:
        cmd += ["--jobs", str(jobs)]
    cpu0, t0 = _children_cpu(), time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=tree, env=dict(os.environ, PYTHONPATH=str(tree)))
    elapsed, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if proc.returncode not in (0, 1):
        raise SystemExit(f"verify check failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed, cpu, json.loads(proc.stdout)


def export(rev: str, into: Path) -> Path:
    """The tree at ``rev`` (``git archive``), unpacked into ``into``."""
    data = subprocess.run(["git", "archive", rev], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def untimed(doc: dict) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in doc["results"]]


def compare(a: dict, b: dict) -> dict:
    ra, rb = untimed(a), untimed(b)
    if len(ra) != len(rb):
        return {"identical": False, "rows": [len(ra), len(rb)]}
    differ = [(x, y) for x, y in zip(ra, rb) if x != y]
    fields = Counter(k for x, y in differ for k in x if x.get(k) != y.get(k))
    return {"identical": not differ, "rows_differing": len(differ), "fields_differing": dict(fields),
            "identical_apart_from_counterexamples": set(fields) <= {"counterexample"}}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=None, help="worker processes (default: up to 2)")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--baseline", default=None, help="a git revision to measure beside this tree")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = export(args.baseline, Path(tmp)) if args.baseline else None
        times, base_times, cpus, base_cpus = [], [], [], []
        doc: dict = {}
        base_doc: dict = {}
        for _ in range(args.repeat):
            if base is not None:
                elapsed, cpu, base_doc = run_once(base, args.jobs)
                base_times.append(elapsed)
                base_cpus.append(cpu)
            elapsed, cpu, doc = run_once(ROOT, args.jobs)
            times.append(elapsed)
            cpus.append(cpu)
    rows = doc["results"]
    verdicts = Counter(r["verdict"] for r in rows)
    failed = [r for r in rows if r["promised"] and r["verdict"] != "PROVED"]
    out = {
        "rulesets": len({r["ruleset"] for r in rows}), "checks": len(rows), "verdicts": dict(verdicts),
        "promised_not_proved": len(failed), "jobs": args.jobs or min(2, os.cpu_count() or 1),
        "wall_s": [round(t, 2) for t in times], "median_s": round(statistics.median(times), 2),
        "cpu_s": [round(t, 2) for t in cpus], "target_s": 20, "load_average": round(os.getloadavg()[0], 2),
    }
    if base is not None:
        out["baseline"] = {"rev": args.baseline, "wall_s": [round(t, 2) for t in base_times],
                           "median_s": round(statistics.median(base_times), 2),
                           "cpu_s": [round(t, 2) for t in base_cpus],
                           "time_vs_baseline": round(statistics.median(t / b for t, b in zip(times, base_times)), 3),
                           "cpu_vs_baseline": round(statistics.median(t / b for t, b in zip(cpus, base_cpus)), 3),
                           "results": compare(base_doc, doc)}
    print(json.dumps(out, indent=2))
    return out


if __name__ == "__main__":
    main()
