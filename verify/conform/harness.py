"""A conformance run: seeded chunks of scenarios, each failure shrunk, the chunks merged.

A run is cut into independent chunks (``plan``): a picklable ``ChunkSpec``
(engine spec, ruleset, a seed derived from the run seed and the chunk index,
how many scenarios) that ``run_chunk`` turns into a JSON-able result, and
``merge`` folds the results into one ``ConformResult``. A chunk's result
depends only on its spec, so a run gives the same result for a seed however
its chunks are scheduled: ``conform_campaign`` hands them to the execution
layer (``verify.execute``: this process, ``--jobs N`` worker processes or a
Dask cluster, ``--resume``), the one way a run is made, ``run`` included.
Values supplied with ``--set`` travel in every chunk spec, so a worker
compiles the same config as the command that checked them.

Inside a chunk, ``hypothesis.find`` (under ``seeded``: draws that depend on the seed, not on the modules
the process has loaded) searches the scenario strategy for one that
breaks a rule and shrinks it (keeping the same rule), then a last pass drops
single steps while the rule still breaks. Shrinking is bounded in engine runs
(not time, so a busy machine gives the same result); an engine that hangs is
not shrunk at all (every replay would cost a timeout).
A fault (crash, hang, garbage) is a ``protocol`` violation; the engine is
restarted for the next scenario.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis.errors import Flaky, FlakyFailure, NoSuchExample

from ..config import EngineConfig
from ..errors import GameError
from ..spec.open_values import playable
from ..engine.step import new_game
from .. import __version__
from ..execute import Campaign, InProcess, run as execute
from .oracle import ACCEPT, REFUSE, Oracle, StepViolation, expect, fault_violation
from .protocol import EngineFault, Hello
from .scenarios import Context, Scenario, scenarios, simplifications
from .seeded import seeded
from .transport import EngineSpec, _kill_all

SCENARIO_SCHEMA = "verify.conform-scenario/1"
#: Scenarios per chunk (fixed, so the chunks of a run depend only on its seed and size).
CHUNK_EXAMPLES = 25
DEFAULT_EXAMPLES = 100
DEFAULT_MAX_STEPS = 12
#: Engine runs spent shrinking one failure (hypothesis, then the last pass). Counted, not timed, so a
#: chunk's result does not depend on how fast or busy the machine is.
DEFAULT_SHRINK_RUNS = 300


#: Protocol faults after which a chunk gives up on the engine (a single timeout ends it at once).
MAX_FAULTS = 3


class _Stop(BaseException):
    """Raised from inside hypothesis's search to end it: shrinking is out of time, or the engine keeps
    failing (not an Exception, so hypothesis lets it through instead of shrinking it as a failure)."""


def _fault_kind(v: StepViolation) -> str:
    return str(v.actual).split(":")[0]


def _same(a: StepViolation, b: StepViolation) -> bool:
    """The same finding: the same rule (for a protocol fault, the same kind of fault)."""
    return a.rule == b.rule and (a.rule != "protocol" or _fault_kind(a) == _fault_kind(b))


@dataclass(frozen=True)
class ChunkSpec:
    engine: EngineSpec
    ruleset: str
    seed: int
    index: int
    examples: int
    max_steps: int = DEFAULT_MAX_STEPS
    shrink_runs: int = DEFAULT_SHRINK_RUNS
    shrink_seconds: float | None = None    # an optional wall-clock cap on top (hit only on a slow engine)
    settings: tuple = ()                   # (param, value) pairs supplied with --set, sorted by param


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded ``seed`` (independent streams per chunk)."""
    return int.from_bytes(hashlib.sha256(f"conform:{seed}:{index}".encode()).digest()[:8], "big")


def settings_key(settings: dict | tuple | None) -> tuple:
    """``--set`` values as the sorted (param, value) pairs a chunk spec carries."""
    return tuple(sorted(dict(settings or ()).items()))


def plan(engine: EngineSpec, ruleset: str, seed: int, examples: int, max_steps: int = DEFAULT_MAX_STEPS,
         shrink_runs: int = DEFAULT_SHRINK_RUNS, shrink_seconds: float | None = None,
         settings: dict | tuple | None = None) -> list[ChunkSpec]:
    out = []
    for i, start in enumerate(range(0, examples, CHUNK_EXAMPLES)):
        out.append(ChunkSpec(engine, ruleset, chunk_seed(seed, i), i, min(CHUNK_EXAMPLES, examples - start),
                             max_steps, shrink_runs, shrink_seconds, settings_key(settings)))
    return out


# ---- one engine, one ruleset ----------------------------------------------------------------------

def load_target(ruleset: str, settings: dict | tuple | None = None) -> tuple[EngineConfig, list[str]]:
    """The compiled config and promised invariants of ``ruleset`` with ``settings`` supplied; an open
    value still unsupplied is refused (E020: the reference engine cannot play it)."""
    r = playable(ruleset, dict(settings or ()))
    return EngineConfig.from_ruleset(r), list(r.promised())


class Session:
    """An engine under test and the oracle for one ruleset; runs scenarios, restarting after faults."""

    def __init__(self, engine: EngineSpec, ruleset: str, settings: dict | tuple | None = None):
        self.spec = engine
        self.ruleset = ruleset
        self.config, self.promised = load_target(ruleset, settings)
        self.config_json = self.config.to_json()
        self.engine = engine.open()
        self.hello: Hello | None = None
        self.running = False
        self.oracle: Oracle | None = None

    def start(self) -> StepViolation | None:
        if self.running:
            return None
        try:
            self.hello = self.engine.start()
        except EngineFault as f:
            return fault_violation(0, f)
        self.oracle = Oracle(self.config, self.promised, self.hello)
        self.running = True
        return None

    def close(self) -> None:
        self.engine.close()
        self.running = False

    def _fault(self, step: int, f: EngineFault) -> StepViolation:
        self.running = False
        self.engine.close()
        return fault_violation(step, f)

    def run(self, sc: Scenario) -> tuple[StepViolation | None, int]:
        """Play ``sc`` against the engine: the first violation (or None) and the steps checked."""
        v = self.start()
        if v is not None:
            return v, 0
        oracle = self.oracle
        try:
            self.engine.load(self.config_json, sc.state)
            held = self.engine.state()
        except EngineFault as f:
            return self._fault(0, f), 0
        diff = oracle.same_state(sc.state, held)
        if diff:
            return StepViolation("protocol", 0, "the loaded state", "another state",
                                 "after load the engine does not hold the state it was given", diff), 0
        monitor = oracle.monitor()
        monitor(None, held, None)
        before, ref = held, sc.state
        last = None
        for i, action in enumerate(sc.actions, 1):
            if i <= len(sc.expected):
                expected = sc.expected[i - 1]
            else:
                try:
                    expected = expect(self.config, ref, action)[:3]
                except GameError as exc:
                    expected = (REFUSE, exc.message, action)
            try:
                got = self.engine.apply(action)
            except EngineFault as f:
                return self._fault(i, f), i
            v = oracle.judge(i, before, action, expected, got, monitor)
            if v is not None:
                return v, i
            last = got[0]
            if got[0] == ACCEPT:
                before, ref = got[1], expected[1]
        if last == REFUSE:                 # a refusal must leave the engine's state as it was
            try:
                now = self.engine.state()
            except EngineFault as f:
                return self._fault(len(sc.actions), f), len(sc.actions)
            diff = oracle.same_state(before, now)
            if diff:
                return StepViolation("successor", len(sc.actions), "its state unchanged", "its state changed",
                                     "the engine refused the action but changed its state", diff), len(sc.actions)
        return None, len(sc.actions)


# ---- a chunk ----------------------------------------------------------------------------------------

def scenario_doc(ruleset: str, sc: Scenario, v: StepViolation, found: dict | None = None,
                 settings: dict | tuple | None = None) -> dict:
    doc = {"schema": SCENARIO_SCHEMA, "ruleset": ruleset, "origin": sc.origin, "state": sc.state,
           "actions": sc.actions, "violation": v.to_json(), "found": found or {}}
    if settings:
        doc["set"] = dict(settings)           # --set values: a replay supplies them again
    return doc


def _reduce(session: Session, ctx: Context, sc: Scenario, v: StepViolation,
            runs: int, deadline: float = float("inf")) -> tuple[Scenario, StepViolation]:
    """The last shrinking pass, after hypothesis: drop single steps, then simplify the loaded state
    (``scenarios.simplifications``), for as long as the same rule still breaks, in at most ``runs``
    engine runs."""
    tried: set[str] = set()               # simplifications that did not keep the rule broken

    def candidates(sc: Scenario):
        for i in range(len(sc.actions)):
            yield "", Scenario(sc.state, sc.actions[:i] + sc.actions[i + 1:], sc.origin)
        for label, state in simplifications(ctx, sc.state):
            if state is not None and label not in tried:
                yield label, Scenario(state, list(sc.actions), sc.origin)

    improved = True
    while improved and runs > 0 and time.monotonic() < deadline:
        improved = False
        for label, cand in candidates(sc):
            if runs <= 0 or time.monotonic() >= deadline:
                break
            runs -= 1
            v2, _ = session.run(cand)
            if v2 is not None and _same(v, v2) and v2.step <= v.step:
                sc, v = cand.truncated(v2.step), v2
                improved = True
                break
            tried.add(label)
    return sc, v


@contextmanager
def _engines_die_with_worker() -> Iterator[None]:
    """In a local worker process (``--jobs N``), SIGTERM is how the campaign stops it (Ctrl-C, a lost
    run): kill the engines' process groups first, so nothing an engine started outlives the run (the
    worker's default would end it at once, past every ``finally``). The command's own process and
    Dask's worker threads keep their handlers."""
    import multiprocessing
    if multiprocessing.parent_process() is None or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, _frame):
        _kill_all()
        os._exit(128 + signum)

    old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def run_chunk(spec: ChunkSpec) -> dict:
    """Run one chunk; a JSON-able result for ``merge``."""
    with _engines_die_with_worker():
        return _run_chunk(spec)


def _run_chunk(spec: ChunkSpec) -> dict:
    session = Session(spec.engine, spec.ruleset, spec.settings)
    found_at = {"seed": spec.seed, "chunk": spec.index}
    result: dict[str, Any] = {"index": spec.index, "seed": spec.seed, "engine": spec.engine.label,
                              "ruleset": spec.ruleset, "set": dict(spec.settings), "scenarios": 0, "steps": 0,
                              "violations": [], "log": ""}
    try:
        v = session.start()
        if v is not None:
            start = new_game(session.config, max(2, session.config.setup.players_min), 0)
            result["violations"].append(scenario_doc(spec.ruleset, Scenario(start, [], "new game"), v, found_at,
                                                     spec.settings))
            result["log"] = session.engine.log_tail()
            return result
        result["engine"] = session.hello.engine
        ctx = Context(session.config, session.promised, session.hello.actions, spec.max_steps)
        first: list = []                               # the first rule violation, then hypothesis shrinks it
        best: dict[str, tuple[Scenario, StepViolation]] = {}
        faults: dict[str, tuple[Scenario, StepViolation]] = {}   # protocol faults by kind, shortest kept
        nfaults = [0]
        shrinks = [0]
        budget = spec.shrink_runs // 2            # the other half is the last pass's
        deadline = [float("inf")]

        def condition(sc: Scenario) -> bool:
            if first:
                shrinks[0] += 1
                # one step is as short as it gets: the last pass simplifies the loaded state faster
                if shrinks[0] > budget or (shrinks[0] > budget // 4 and min(v.step for _, v in best.values()) <= 1) \
                        or time.monotonic() > deadline[0]:
                    raise _Stop
            else:
                result["scenarios"] += 1
            v, steps = session.run(sc)
            if not first:
                result["steps"] += steps
            if v is None:
                return False
            if v.rule == "protocol":                   # recorded; the engine restarts and the search goes on
                if first:
                    return False
                kind = _fault_kind(v)
                if kind not in faults or v.step < faults[kind][1].step:
                    faults[kind] = (sc.truncated(v.step), v)
                nfaults[0] += 1
                if kind == "timeout" or nfaults[0] >= MAX_FAULTS:
                    raise _Stop                        # a hanging engine costs a timeout per scenario
                return False
            if not first:
                first.append((sc.truncated(v.step), v))
                if spec.shrink_seconds is not None:
                    deadline[0] = time.monotonic() + spec.shrink_seconds
            if v.rule != first[0][1].rule:
                return False
            best[sc.key()] = (sc.truncated(v.step), v)
            return True

        cfg = settings(max_examples=spec.examples, database=None, deadline=None, derandomize=False,
                       suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                       report_multiple_bugs=False)
        try:
            with seeded():                     # draws depend on the seed, not on the modules loaded
                found = find(scenarios(ctx), condition, settings=cfg, random=random.Random(spec.seed))
        except NoSuchExample:
            found = None
        except (Flaky, FlakyFailure, _Stop):   # out of shrinking runs, too many faults, or an engine whose
            found = None                       # behaviour depends on its history: keep the smallest seen
        for kind, (sc, v) in sorted(faults.items()):
            if kind != "timeout":              # each run of a faulty engine costs a restart
                sc, v = _reduce(session, ctx, sc, v, min(20, spec.shrink_runs))
            result["violations"].append(scenario_doc(spec.ruleset, sc, v, found_at, spec.settings))
        if first:
            if found is not None and found.key() in best:
                sc, v = best[found.key()]
            else:
                sc, v = min(best.values() or [first[0]], key=lambda x: (x[1].step, len(x[0].key())))
            sc, v = _reduce(session, ctx, sc, v, spec.shrink_runs - budget, deadline[0])
            result["violations"].append(scenario_doc(spec.ruleset, sc, v, found_at, spec.settings))
        result["log"] = session.engine.log_tail()
    finally:
        session.close()
    return result


# ---- merging ----------------------------------------------------------------------------------------

@dataclass
class ConformResult:
    engine: str
    ruleset: str
    scenarios: int
    steps: int
    violations: list[dict] = field(default_factory=list)     # scenario documents (each with its violation)
    logs: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)              # values supplied with --set

    @property
    def ok(self) -> bool:
        return not self.violations

    def to_json(self, files: list[str | None] | None = None) -> dict:
        files = files or [None] * len(self.violations)
        out = []
        for doc, path in zip(self.violations, files):
            v = doc["violation"]
            out.append({"rule": v["rule"], "step": v["step"], "expected": v["expected"], "actual": v["actual"],
                        "scenario_file": path})
        return {"engine": self.engine, "ruleset": self.ruleset, "scenarios": self.scenarios, "steps": self.steps,
                "violations": out}


def _identity(doc: dict) -> tuple:
    """Violations are the same finding when the same rule breaks on the same kind of action (for a
    protocol fault: the same kind of fault)."""
    v = doc["violation"]
    if v["rule"] == "protocol":
        return v["rule"], _fault_kind(StepViolation.from_json(v))
    acts = doc["actions"]
    kind = acts[v["step"] - 1]["type"] if 0 < v["step"] <= len(acts) else None
    return v["rule"], kind


def merge(results: list[dict]) -> ConformResult:
    """One result from chunk results, whatever order they were computed in."""
    results = sorted(results, key=lambda r: r["index"])
    if not results:
        raise ValueError("nothing to merge")
    kept: dict[tuple, dict] = {}
    for r in results:
        for doc in r["violations"]:
            key = _identity(doc)
            size = (doc["violation"]["step"], len(json.dumps(doc, sort_keys=True)))
            if key not in kept or size < kept[key][0]:
                kept[key] = (size, doc)
    docs = [d for _, d in sorted(kept.values(), key=lambda x: (x[1]["violation"]["rule"], x[0]))]
    engine = next((r["engine"] for r in results if r.get("engine")), "")
    return ConformResult(engine, results[0]["ruleset"], sum(r["scenarios"] for r in results),
                         sum(r["steps"] for r in results), docs, [r["log"] for r in results if r.get("log")],
                         dict(results[0].get("set") or {}))


def conform_campaign(engine: EngineSpec, ruleset: str = "official", seed: int = 0,
                     examples: int = DEFAULT_EXAMPLES, settings: dict | tuple | None = None,
                     max_steps: int = DEFAULT_MAX_STEPS, shrink_runs: int = DEFAULT_SHRINK_RUNS,
                     shrink_seconds: float | None = None):
    """A run as the execution layer's ``Campaign`` (``verify.execute``): its chunks, ``run_chunk`` and
    ``merge``; the identity (what ``--resume`` matches) names everything a chunk's result depends on."""
    chunks = plan(engine, ruleset, seed, examples, max_steps, shrink_runs, shrink_seconds, settings)
    identity = {"version": __version__, "engine": engine.label, "step_timeout": engine.step_timeout,
                "ruleset": ruleset, "set": dict(settings_key(settings)), "seed": seed, "examples": examples,
                "max_steps": max_steps, "shrink_runs": shrink_runs, "shrink_seconds": shrink_seconds}
    return Campaign("conform", identity, chunks, run_chunk, merge, weights=[c.examples for c in chunks],
                    unit="scenarios")


def run(engine: EngineSpec, ruleset: str = "official", seed: int = 0, examples: int = DEFAULT_EXAMPLES,
        max_steps: int = DEFAULT_MAX_STEPS, shrink_runs: int = DEFAULT_SHRINK_RUNS,
        settings: dict | tuple | None = None) -> ConformResult:
    """A whole run in this process (the pytest plugin's), through the execution layer like the command's."""
    return execute(conform_campaign(engine, ruleset, seed, examples, settings, max_steps, shrink_runs),
                   InProcess()).result


def replay(engine: EngineSpec, doc: dict, ruleset: str | None = None,
           settings: dict | tuple | None = None) -> ConformResult:
    """Re-run one saved scenario against an engine (``settings``: default the values saved with it)."""
    rid = ruleset or doc["ruleset"]
    settings = dict(doc.get("set") or {}) if settings is None else dict(settings)
    session = Session(engine, rid, settings)
    try:
        sc = Scenario(doc["state"], list(doc["actions"]), doc.get("origin", "replayed"))
        v, steps = session.run(sc)
        name = session.hello.engine if session.hello else engine.label
        log = session.engine.log_tail()
    finally:
        session.close()
    violations = [scenario_doc(rid, sc.truncated(v.step), v, doc.get("found"), settings)] if v else []
    return ConformResult(name, rid, 1, steps, violations, [log] if log else [], settings)


__all__ = ["ChunkSpec", "ConformResult", "Session", "plan", "chunk_seed", "run_chunk", "merge", "run", "replay",
           "conform_campaign", "settings_key", "scenario_doc", "SCENARIO_SCHEMA", "CHUNK_EXAMPLES",
           "DEFAULT_EXAMPLES"]
