"""Conformance throughput: checked steps per second through the in-process and the subprocess transport.

    python benchmarks/conform_bench.py [--ruleset official] [--scenarios 400] [--seed 1] [--json]

Generates one seeded set of scenarios (hypothesis, the reference engine
recording each expected outcome), then checks the same scenarios against the
reference engine through each transport, side by side in one run:

* ``in-process``: ``verify.conform.reference:ReferenceEngine`` in this process;
* ``subprocess``: ``python -m verify.conform.reference`` over JSON Lines.

A checked step is one action sent to the engine and judged: legality, every
promised invariant on the reported state, the successor compared on the keys
the engine maintains (each scenario also loads its state and reads it back).
Rates are per CPU second (this process, plus the engine's process for the
subprocess row), so a busy machine does not bend them; wall-clock rates are
shown beside them. Then a whole ``verify conform`` run (generation, checking,
no violation to shrink) gives the end-to-end rate. Issue 9's target: at least
1,000 checked steps/s in-process on one core.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import resource
import time

from hypothesis import HealthCheck, Phase, find, settings

from verify.conform.harness import Session, run
from verify.conform.scenarios import Context, scenarios
from verify.conform.transport import EngineSpec

TRANSPORTS = {"in-process": EngineSpec("verify.conform.reference:ReferenceEngine"),
              "subprocess": EngineSpec(cmd="python -m verify.conform.reference")}


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def generate(ruleset: str, count: int, seed: int) -> tuple[list, float]:
    s = Session(TRANSPORTS["in-process"], ruleset)
    ctx = Context(s.config, s.promised)
    out: list = []
    cpu0 = time.process_time()
    try:
        find(scenarios(ctx), lambda sc: out.append(sc) and False,
             settings=settings(max_examples=count, database=None, suppress_health_check=list(HealthCheck),
                               phases=[Phase.generate]), random=random.Random(seed))
    except Exception:  # noqa: BLE001 - find ends with NoSuchExample: nothing failed, as intended
        pass
    return out, time.process_time() - cpu0


def check(name: str, ruleset: str, scs: list) -> dict:
    s = Session(TRANSPORTS[name], ruleset)
    s.start()
    child0, cpu0, wall0 = _children_cpu(), time.process_time(), time.perf_counter()
    steps = violations = 0
    for sc in scs:
        v, n = s.run(sc)
        steps += n
        violations += v is not None
    wall = time.perf_counter() - wall0
    s.close()                                        # reaps the engine: its CPU time is counted now
    cpu = time.process_time() - cpu0 + _children_cpu() - child0
    return {"transport": name, "scenarios": len(scs), "steps": steps, "violations": violations,
            "cpu_s": round(cpu, 3), "steps_per_cpu_s": round(steps / cpu), "wall_s": round(wall, 3),
            "steps_per_wall_s": round(steps / wall)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--scenarios", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    check("in-process", a.ruleset, [])               # warm caches (config, rules, invariants) for both rows
    scs, gen_cpu = generate(a.ruleset, a.scenarios, a.seed)
    rows = [check(name, a.ruleset, scs) for name in TRANSPORTS]
    steps = sum(len(sc.actions) for sc in scs)
    cpu0 = time.process_time()
    whole = run(TRANSPORTS["in-process"], a.ruleset, seed=a.seed, examples=a.scenarios)
    run_cpu = time.process_time() - cpu0
    doc = {"ruleset": a.ruleset, "machine": platform.processor() or platform.machine(),
           "python": platform.python_version(), "generated": {"scenarios": len(scs), "steps": steps,
                                                              "cpu_s": round(gen_cpu, 3),
                                                              "steps_per_cpu_s": round(steps / gen_cpu)},
           "checked": rows,
           "whole_run": {"scenarios": whole.scenarios, "steps": whole.steps, "violations": len(whole.violations),
                         "cpu_s": round(run_cpu, 3), "steps_per_cpu_s": round(whole.steps / run_cpu)}}
    if a.json:
        print(json.dumps(doc, indent=1))
        return
    print(f"{a.ruleset}: {len(scs)} scenarios, {steps} steps (generated at {doc['generated']['steps_per_cpu_s']:,} "
          "steps per CPU second)")
    print(f"{'transport':<12} {'steps':>7} {'viol.':>5} {'steps/CPU s':>12} {'steps/wall s':>13}")
    for r in rows:
        print(f"{r['transport']:<12} {r['steps']:>7} {r['violations']:>5} {r['steps_per_cpu_s']:>12,} "
              f"{r['steps_per_wall_s']:>13,}")
    ratio = rows[0]["steps_per_cpu_s"] / rows[1]["steps_per_cpu_s"]
    print(f"in-process / subprocess per CPU second: {ratio:.2f}x")
    w = doc["whole_run"]
    print(f"whole run (generate + check, {w['scenarios']} scenarios): {w['steps_per_cpu_s']:,} steps per CPU second")


if __name__ == "__main__":
    main()
