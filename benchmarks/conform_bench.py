"""Conformance throughput: checked steps per CPU second, end to end and part by part, side by side in one run.

    python benchmarks/conform_bench.py [--ruleset official] [--scenarios 1000] [--seed 1]
                                       [--gnome-scenarios 500] [--json]

Rows (per CPU second of this process, plus an engine subprocess's where there is one, so a busy
machine does not bend them; wall-clock rates beside them):

* ``generate``: drawing the scenarios (loaded states, actions, the reference's expected outcome of
  each step);
* ``check in-process`` / ``check subprocess``: the same scenarios played against the reference
  engine through each transport and judged (legality, every promised invariant, the successor);
* ``oracle``: the oracle alone on the same steps (the reference's step plus the comparison with an
  answer given: what judging costs whatever the engine);
* ``run: reference``: a whole ``verify conform`` run in this process (generation, checking, no
  deviation to shrink): the end-to-end figure;
* ``run: GNOME``: a whole default run on GNOME (when installed), where most scenarios fail: the share
  of the CPU spent shrinking is printed beside it; ``run: GNOME, fresh process``: the same run in a
  process of its own, so what a run compiles once (the ruleset, the invariants)
  is inside its time, as it is for ``verify conform`` (the other rows share this process's caches).

Targets: at least 1,000 checked steps per CPU second end to end on the reference in-process, at
least 300 on GNOME, at least 2,000 for the oracle alone.
"""

from __future__ import annotations

import argparse
import json
import platform
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.conform.explore import scenario_seed  # noqa: E402
from verify.conform.harness import run  # noqa: E402
from verify.conform.scenarios import scenario  # noqa: E402
from verify.conform.session import Session  # noqa: E402
from verify.conform.transport import EngineSpec  # noqa: E402

REFERENCE = EngineSpec("verify.conform.reference:ReferenceEngine")
TRANSPORTS = {"in-process": REFERENCE, "subprocess": EngineSpec(cmd=f"{sys.executable} -m verify.conform.reference")}
GNOME = EngineSpec("verify.conform.adapters.gnome:GnomeEngine")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _row(name: str, steps: int, cpu: float, wall: float, **extra) -> dict:
    return {"row": name, "steps": steps, "cpu_s": round(cpu, 3), "steps_per_cpu_s": round(steps / cpu) if cpu else 0,
            "steps_per_wall_s": round(steps / wall) if wall else 0, **extra}


def generate(ruleset: str, count: int, seed: int) -> tuple[list, dict]:
    s = Session(REFERENCE, ruleset)
    s.start()
    ctx = s.ctx
    s.close()
    scenario(scenario_seed(seed, 0), ctx)            # z3's boundary queries are cached per process: warm them
    for k in range(1, 60):
        scenario(scenario_seed(seed + 1, k), ctx)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    scs = [scenario(scenario_seed(seed, k), ctx) for k in range(count)]
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return scs, _row("generate", sum(len(sc.actions) for sc in scs), cpu, wall, scenarios=count)


def check(name: str, ruleset: str, scs: list) -> dict:
    s = Session(TRANSPORTS[name], ruleset)
    s.start()
    child0, cpu0, wall0 = _children_cpu(), time.process_time(), time.perf_counter()
    steps = failing = 0
    for sc in scs:
        got = s.run(sc)
        steps += got.steps
        failing += got.violation is not None
    wall = time.perf_counter() - wall0
    s.close()                                        # reaps the engine: its CPU time is counted now
    cpu = time.process_time() - cpu0 + _children_cpu() - child0
    return _row(f"check {name}", steps, cpu, wall, failing=failing)


def oracle(ruleset: str, scs: list) -> dict:
    """The oracle alone: for every step, the reference's outcome and the judgement of an answer equal to
    it (a copy, as an engine would send; made before the clock starts)."""
    import copy
    s = Session(REFERENCE, ruleset)
    s.start()
    plays = []
    for sc in scs:
        ref, steps = sc.state, []
        for action in sc.actions:
            out = s.ctx.expect(ref, action)
            steps.append((ref, action, (out[0], copy.deepcopy(out[1]))))
            if out[0] == "state":
                ref = out[1]
        plays.append((copy.deepcopy(sc.state), steps))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    n = 0
    for state, steps in plays:
        monitor = s.oracle.monitor()
        monitor(None, state, None)
        before = state
        for i, (ref, action, answer) in enumerate(steps, 1):
            expected = s.ctx.expect(ref, action)
            if s.oracle.judge(i, before, action, expected, answer, monitor) is not None:
                raise AssertionError("the reference's own answer was judged a deviation")
            if answer[0] == "state":
                before = answer[1]
            n += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    s.close()
    return _row("oracle", n, cpu, wall)


def whole(name: str, engine: EngineSpec, ruleset: str, seed: int, examples: int) -> dict:
    from verify.conform import harness
    spent = {"shrink_cpu": 0.0}
    shrink_task = harness.shrink_task

    def timed(spec):                                  # the CPU the shrinking takes, apart
        t = time.process_time()
        try:
            return shrink_task(spec)
        finally:
            spent["shrink_cpu"] += time.process_time() - t

    harness.shrink_task = timed
    try:
        cpu0, wall0 = time.process_time(), time.perf_counter()
        r = run(engine, ruleset, seed=seed, examples=examples)
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    finally:
        harness.shrink_task = shrink_task
    return _row(f"run: {name}", r.steps, cpu, wall, scenarios=r.scenarios, deviations=len(r.deviations),
                failing_scenarios=sum(d["count"] for d in r.deviations), shrink_share=round(spent["shrink_cpu"] / cpu, 3))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--scenarios", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gnome-scenarios", type=int, default=500, help="0: leave GNOME out")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--cold", action="store_true", help=argparse.SUPPRESS)   # the fresh-process GNOME row
    a = ap.parse_args(argv)
    if a.cold:
        print(json.dumps(whole("GNOME, fresh process", GNOME, a.ruleset, 0, a.gnome_scenarios)))
        return 0
    check("in-process", a.ruleset, [])               # warm caches (config, rules, invariants) for every row
    scs, gen = generate(a.ruleset, a.scenarios, a.seed)
    rows = [gen, check("in-process", a.ruleset, scs), check("subprocess", a.ruleset, scs), oracle(a.ruleset, scs),
            whole("reference", REFERENCE, a.ruleset, a.seed, a.scenarios)]
    import importlib.util
    if a.gnome_scenarios and importlib.util.find_spec("monopoly_simulator") is not None:
        rows.append(whole("GNOME", GNOME, a.ruleset, 0, a.gnome_scenarios))
        # the same run in a process of its own: the ruleset's compilation, loading the engine
        # and the invariants' compilation inside the time (the interpreter's start-up not)
        out = subprocess.run([sys.executable, __file__, "--cold", "--ruleset", a.ruleset,
                              "--gnome-scenarios", str(a.gnome_scenarios)], capture_output=True, text=True, check=True)
        rows.append(json.loads(out.stdout))
    doc = {"ruleset": a.ruleset, "machine": platform.processor() or platform.machine(),
           "python": platform.python_version(), "rows": rows,
           "targets": [{"row": "run: reference", "target": ">= 1,000", "met": rows[4]["steps_per_cpu_s"] >= 1000},
                       {"row": "oracle", "target": ">= 2,000", "met": rows[3]["steps_per_cpu_s"] >= 2000}]}
    if len(rows) > 5:
        doc["targets"].append({"row": "run: GNOME, fresh process", "target": ">= 300",
                               "met": rows[6]["steps_per_cpu_s"] >= 300})
    if a.json:
        print(json.dumps(doc, indent=1))
        return 0
    print(f"{a.ruleset}: {a.scenarios} scenarios ({gen['steps']} steps)")
    print(f"{'row':<28} {'steps':>7} {'steps/CPU s':>12} {'steps/wall s':>13}  notes")
    for r in rows:
        notes = ", ".join(f"{k} {r[k]}" for k in ("failing", "scenarios", "deviations", "failing_scenarios",
                                                  "shrink_share") if k in r)
        print(f"{r['row']:<28} {r['steps']:>7} {r['steps_per_cpu_s']:>12,} {r['steps_per_wall_s']:>13,}  {notes}")
    for t in doc["targets"]:
        print(f"target {t['row']} {t['target']}: {'met' if t['met'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
