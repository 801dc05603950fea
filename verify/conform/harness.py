"""A conformance run: explore every scenario of the budget, then shrink each distinct deviation once.

A run is two campaigns of the execution layer (``verify.execute``: this
process, ``--jobs N`` worker processes or a Dask cluster, ``--resume``), on
one backend:

1. **explore** (``explore.py``): the run's scenarios in seeded chunks, every
   one generated and checked, every violation filed under its cause
   (``cause.py``) with a count, its contexts and the shortest scenario that
   showed it;
2. **shrink** (``shrink.py``): one task per cause, its scenario shrunk within
   a counted budget without turning into another cause.

Both are functions of their inputs, so a run's deviations, counts and saved
scenarios depend on its seed and size alone (and the engine, for a
deterministic engine), not on ``--jobs``, ``--scheduler`` or the machine's
load. Most of a run's work is checking: shrinking costs at most
``shrink_runs`` engine runs per cause, whatever the number of
scenarios that showed it. Values supplied with ``--set`` travel in every
task, so a worker compiles the config the command checked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .explore import (CHUNK_EXAMPLES, DEFAULT_MAX_STEPS, SCENARIO_SCHEMA, ChunkSpec, chunk_seed, explore_chunk,
                      merge_chunks, plan, scenario_doc, settings_key)
from .. import __version__
from ..execute import Campaign, CampaignStore, run as execute
from ..execute.backends import make_backend
from ..execute.options import cli_errors
from ..execute.progress import Progress
from .baseline import Baseline, compare as compare_baseline
from .cause import parse as parse_cause
from .oracle import StepViolation
from .scenarios import Scenario
from .session import Session, load_target
from .shrink import DEFAULT_SHRINK_RUNS, shrink
from .transport import EngineSpec, engines_die_with_worker
from .unstated import explain

#: Scenarios checked by default: enough to meet each rule-level bug of the broken-engine suite.
DEFAULT_EXAMPLES = 500


@dataclass(frozen=True)
class ShrinkSpec:
    """One deviation to shrink: its candidate scenario document and the budget."""

    engine: EngineSpec
    ruleset: str
    index: int
    doc: dict
    runs: int = DEFAULT_SHRINK_RUNS
    max_steps: int = DEFAULT_MAX_STEPS
    settings: tuple = ()
    others: tuple = ()          # a refusal met on other actions too: a scenario of each (judged apart)


def shrink_task(spec: ShrinkSpec) -> dict:
    """Shrink one deviation's scenario; its document (``found`` kept) and the engine runs spent."""
    with engines_die_with_worker():
        return _shrink(spec)


def _shrink(spec: ShrinkSpec) -> dict:
    doc = spec.doc
    v = StepViolation.from_json(doc["violation"])
    if spec.runs <= 0 or v.rule == "protocol" and v.signature.endswith(": timeout"):
        return {"index": spec.index, "doc": doc, "runs": 0}       # a hang costs a timeout per run
    session = Session(spec.engine, spec.ruleset, spec.settings, spec.max_steps)
    try:
        if session.start() is not None:
            return {"index": spec.index, "doc": doc, "runs": 0}
        sc = Scenario(doc["state"], list(doc["actions"]), doc.get("origin", "?"), setup=doc.get("setup"),
                      history=doc.get("history"))
        first = (sc, v)
        sc, v, used = shrink(session, sc, v, spec.runs)
        # the shrunk scenario, else the one found (shrinking may have simplified away its history)
        why = explain(session, sc, v) or (explain(session, *first) if first[0].history and not sc.history else None)
        for other in spec.others if why else ():
            # a refusal the engine gives on several actions rests on a silent value only if it does on each
            o = Scenario(other["state"], list(other["actions"]), other.get("origin", "?"), setup=other.get("setup"),
                         history=other.get("history"))
            if explain(session, o, StepViolation.from_json(other["violation"])) is None:
                why = None
                break
        return {"index": spec.index, "doc": scenario_doc(spec.ruleset, sc, v, doc.get("found"), spec.settings),
                "runs": used, "unstated": why}
    finally:
        session.close()


@dataclass
class ConformResult:
    """A run's outcome: the scenarios checked and each distinct deviation once, with its count.

    Each deviation (one per cause) has a status: ``accepted`` (in the baseline), ``unstated`` (it rests only
    on a value the rulebook leaves silent or that was assumed; ``--strict`` makes it fail), ``changed`` (the
    baseline accepted another effect of the same link) or ``new``. The run passes (``ok``) when no
    deviation is new or changed."""

    engine: str
    ruleset: str
    scenarios: int
    steps: int
    deviations: list[dict] = field(default_factory=list)   # {"signature" (the cause), "count", "contexts", "doc"},
    #                                                        most frequent first
    logs: list[str] = field(default_factory=list)
    settings: dict = field(default_factory=dict)            # values supplied with --set
    skipped: dict = field(default_factory=dict)             # reason -> scenarios the engine could not hold
    stopped: list[str] = field(default_factory=list)        # chunks that gave up on a faulty engine
    shrink_runs: int = 0                                    # engine runs spent shrinking
    baseline: Baseline | None = None
    strict: bool = False

    @property
    def violations(self) -> list[dict]:
        """Each deviation's scenario document (its shrunk scenario and violation)."""
        return [d["doc"] for d in self.deviations]

    def judged(self, baseline: Baseline | None = None, strict: bool = False) -> "ConformResult":
        """This result judged against a baseline (accepted deviations) and ``--strict``."""
        self.baseline, self.strict = baseline, strict
        return self

    def _compared(self) -> tuple[dict[str, str], list[str]]:
        return compare_baseline(self.baseline, [d["signature"] for d in self.deviations])

    def status(self, dev: dict) -> str:
        if self.baseline is not None and self.baseline.accepts(dev["signature"]):
            return "accepted"
        if self.baseline is not None and self.baseline.changed_from(dev["signature"]) is not None:
            return "changed"
        if dev.get("unstated") and not self.strict:
            return "unstated"
        return "new"

    @property
    def failing(self) -> list[dict]:
        """The deviations that fail the run (new or changed; unstated ones too with ``--strict``)."""
        return [d for d in self.deviations if self.status(d) in ("new", "changed")]

    @property
    def no_longer_seen(self) -> list[str]:
        """Accepted deviations of the baseline that this run did not meet."""
        return self._compared()[1]

    @property
    def ok(self) -> bool:
        return not self.failing

    def to_json(self, files: list[str | None] | None = None) -> dict:
        files = files or [None] * len(self.deviations)
        out = []
        changed = self._compared()[0]
        for dev, path in zip(self.deviations, files):
            v = dev["doc"]["violation"]
            rule, link, effect = parse_cause(dev["signature"])
            item = {"signature": dev["signature"], "rule": v["rule"], "link": link, "effect": effect,
                    "count": dev["count"], "contexts": dict(dev.get("contexts") or {}), "chain": v.get("chain", ""),
                    "status": self.status(dev), "step": v["step"], "expected": v["expected"], "actual": v["actual"],
                    "unstated": dev.get("unstated"), "scenario_file": path}
            if dev["signature"] in changed:
                item["was"] = changed[dev["signature"]]
            out.append(item)
        doc = {"engine": self.engine, "ruleset": self.ruleset, "scenarios": self.scenarios, "steps": self.steps,
               "ok": self.ok, "strict": self.strict, "skipped": dict(self.skipped), "violations": out,
               "stopped": list(self.stopped)}
        if self.baseline is not None:
            doc["baseline"] = {"file": self.baseline.path, "accepted": len(self.baseline.causes),
                               "no_longer_seen": self.no_longer_seen}
        return doc


def _order(deviations: dict) -> list[tuple[str, dict]]:
    """Most frequent first, then by cause (a function of the counts: the same in every run)."""
    return sorted(deviations.items(), key=lambda kv: (-kv[1]["count"], kv[0]))


def assemble(explored: dict, shrunk: list[dict]) -> ConformResult:
    """The run's result from the merged exploration and the shrink tasks' results (by index)."""
    by_index = {r["index"]: r for r in shrunk}
    devs = []
    runs = 0
    for i, (signature, item) in enumerate(_order(explored["deviations"])):
        r = by_index.get(i)
        doc = r["doc"] if r is not None else item["doc"]
        runs += r["runs"] if r is not None else 0
        doc = dict(doc, found=dict(doc.get("found") or {}, count=item["count"]))
        devs.append({"signature": signature, "count": item["count"], "contexts": dict(item.get("contexts") or {}),
                     "doc": doc, "unstated": r.get("unstated") if r is not None else None})
    return ConformResult(explored["engine"], explored["ruleset"], explored["scenarios"], explored["steps"], devs,
                         explored["logs"], explored["set"], explored["skipped"], explored["stopped"], runs)


def explore_campaign(engine: EngineSpec, ruleset: str = "official", seed: int = 0,
                     examples: int = DEFAULT_EXAMPLES, settings: dict | tuple | None = None,
                     max_steps: int = DEFAULT_MAX_STEPS):
    """The exploration as the execution layer's ``Campaign``; its identity (what ``--resume`` matches)
    names everything a chunk's result depends on."""
    chunks = plan(engine, ruleset, seed, examples, max_steps, settings)
    identity = {"version": __version__, "engine": engine.label, "step_timeout": engine.step_timeout,
                "ruleset": ruleset, "set": dict(settings_key(settings)), "seed": seed, "examples": examples,
                "max_steps": max_steps, "chunk": CHUNK_EXAMPLES}
    return Campaign("conform", identity, chunks, explore_chunk, merge_chunks, weights=[c.examples for c in chunks],
                    unit="scenarios")


def shrink_campaign(engine: EngineSpec, explored: dict, shrink_runs: int = DEFAULT_SHRINK_RUNS,
                    max_steps: int = DEFAULT_MAX_STEPS, identity: dict | None = None):
    """Shrinking each distinct deviation of ``explored`` once, as a ``Campaign``."""
    settings = settings_key(explored["set"])
    specs = [ShrinkSpec(engine, explored["ruleset"], i, item["doc"], shrink_runs, max_steps, settings,
                        tuple(doc for where, doc in sorted((item.get("by_context") or {}).items())
                              if where != item["doc"]["violation"].get("context")))
             for i, (_, item) in enumerate(_order(explored["deviations"]))]
    ident = dict(identity or {}, shrink_runs=shrink_runs, deviations=[s for s, _ in _order(explored["deviations"])])
    return Campaign("conform-shrink", ident, specs, shrink_task, list, unit="deviations")


def conform(engine: EngineSpec, ruleset: str = "official", seed: int = 0, examples: int = DEFAULT_EXAMPLES,
            settings: dict | tuple | None = None, max_steps: int = DEFAULT_MAX_STEPS,
            shrink_runs: int = DEFAULT_SHRINK_RUNS, jobs: int | None = None, scheduler: str | None = None,
            resume: Path | None = None, quiet: bool = True) -> ConformResult:
    """A whole run (both campaigns) on the backend ``jobs``/``scheduler`` give; ``resume`` keeps the finished
    chunks and shrink tasks in a campaign directory (the shrink tasks in its ``shrink/`` folder)."""
    first = explore_campaign(engine, ruleset, seed, examples, settings, max_steps)
    backend = make_backend(jobs, scheduler)
    mode = "off" if quiet else None
    with cli_errors():
        started = False
        try:
            store = CampaignStore(resume) if resume is not None else None
            total = sum(first.weight(i) for i in range(len(first.chunks)))
            explored = execute(first, backend, store, Progress(total, first.unit, "conform", mode=mode)).result
            second = shrink_campaign(engine, explored, shrink_runs, max_steps, first.identity)
            shrunk: list = []
            if second.chunks:
                if not backend.running:
                    backend.start()
                    started = True
                store = CampaignStore(Path(resume) / "shrink") if resume is not None else None
                shrunk = execute(second, backend, store,
                                 Progress(len(second.chunks), second.unit, "shrink", mode=mode)).result
        finally:
            if started:
                backend.close()
    return assemble(explored, shrunk)


def run(engine: EngineSpec, ruleset: str = "official", seed: int = 0, examples: int = DEFAULT_EXAMPLES,
        max_steps: int = DEFAULT_MAX_STEPS, shrink_runs: int = DEFAULT_SHRINK_RUNS,
        settings: dict | tuple | None = None) -> ConformResult:
    """A whole run in this process (the pytest plugin's, the tests'), through the execution layer."""
    return conform(engine, ruleset, seed, examples, settings, max_steps, shrink_runs)


def replay(engine: EngineSpec, doc: dict, ruleset: str | None = None,
           settings: dict | tuple | None = None) -> ConformResult:
    """Re-run one saved scenario against an engine (``settings``: default the values saved with it)."""
    rid = ruleset or doc["ruleset"]
    settings = dict(doc.get("set") or {}) if settings is None else dict(settings)
    session = Session(engine, rid, settings)
    unsupported = None
    try:
        sc = Scenario(doc["state"], list(doc["actions"]), doc.get("origin", "replayed"), setup=doc.get("setup"),
                      history=doc.get("history"))
        got = session.run(sc)
        v, steps, unsupported = got.violation, got.steps, got.unsupported
        name = session.hello.engine if session.hello else engine.label
        log = session.engine.log_tail()
    finally:
        session.close()
    devs = []
    if v is not None:
        found = dict(doc.get("found") or {}, count=1)
        session = Session(engine, rid, settings)
        try:
            why = explain(session, sc.truncated(v.step), v)
        finally:
            session.close()
        devs = [{"signature": v.signature, "count": 1, "unstated": why, "contexts": {v.context: 1},
                 "doc": scenario_doc(rid, sc.truncated(v.step), v, found, settings)}]
    return ConformResult(name, rid, 0 if unsupported else 1, steps, devs, [log] if log else [], settings,
                         {unsupported: 1} if unsupported else {})


__all__ = ["ChunkSpec", "ShrinkSpec", "ConformResult", "Session", "plan", "chunk_seed", "explore_chunk",
           "merge_chunks", "shrink_task", "assemble", "conform", "run", "replay", "explore_campaign",
           "shrink_campaign", "load_target", "settings_key", "scenario_doc", "SCENARIO_SCHEMA", "CHUNK_EXAMPLES",
           "DEFAULT_EXAMPLES"]
