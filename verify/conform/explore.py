"""Exploration: every scenario of a chunk generated and checked; every violation kept, grouped by deviation.

A run is cut into chunks (``plan``); a chunk generates its scenarios from its
seed (scenario *k* from ``scenario_seed(chunk seed, k)``) and plays every one
against the engine: a violation does not stop it. Each violation is filed
under its cause (``cause.py``): a chunk's result counts, per cause, the
scenarios that showed it and where (its contexts), and keeps the shortest of
them (the fewest steps, then the smallest document, then the first) as the
candidate to shrink (for a refusal met on several actions, one per action, to
judge apart whether it is unstated), and the cards its scenarios drew. ``merge_chunks`` adds the chunks up the same way, so the counts and
candidates of a run depend on its seed and size alone, not on how its chunks
were scheduled. Shrinking comes after, once per deviation (``shrink.py``).

A state the engine answers ``unsupported`` is skipped and counted by reason,
and another scenario is drawn in its place (up to ``SKIP_FACTOR`` times the
chunk's size), so ``examples`` counts checked scenarios. Protocol faults are
deviations too; the engine is restarted and the chunk goes on, unless it
faulted on ``MAX_FAULTS`` scenarios in a row (it cannot play at all) or timed
out (each timeout costs the full step timeout): then the chunk stops and
says so. When merging, causes met on several cards alike, and on half the
cards the run drew, become one of any card (``signature.generalize``).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from ..engine.step import new_game
from .coverage import Coverage
from .scenarios import Scenario, scenario
from .session import Session
from .signature import generalize, reason_key
from .transport import EngineSpec, engines_die_with_worker

SCENARIO_SCHEMA = "verify.conform-scenario/1"
#: Scenarios per chunk (fixed, so the chunks of a run depend only on its seed and size).
CHUNK_EXAMPLES = 50
DEFAULT_MAX_STEPS = 12
#: Scenarios in a row ending in a protocol fault after which a chunk gives up (a timeout ends it at once).
MAX_FAULTS = 3
#: Scenarios drawn in all, per scenario to check, when the engine cannot hold some states.
SKIP_FACTOR = 3


@dataclass(frozen=True)
class ChunkSpec:
    engine: EngineSpec
    ruleset: str
    seed: int
    index: int
    examples: int
    max_steps: int = DEFAULT_MAX_STEPS
    settings: tuple = ()                   # (param, value) pairs supplied with --set, sorted by param
    chunks: int = 1                        # the run's chunks (each offers its share of the situations first)


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run seeded ``seed`` (independent streams per chunk)."""
    return int.from_bytes(hashlib.sha256(f"conform:{seed}:{index}".encode()).digest()[:8], "big")


def scenario_seed(chunk: int, k: int) -> int:
    """The seed of scenario ``k`` of a chunk seeded ``chunk``."""
    return int.from_bytes(hashlib.sha256(f"scenario:{chunk}:{k}".encode()).digest()[:8], "big")


def settings_key(settings: dict | tuple | None) -> tuple:
    """``--set`` values as the sorted (param, value) pairs a chunk spec carries."""
    return tuple(sorted(dict(settings or ()).items()))


def plan(engine: EngineSpec, ruleset: str, seed: int, examples: int, max_steps: int = DEFAULT_MAX_STEPS,
         settings: dict | tuple | None = None) -> list[ChunkSpec]:
    starts = range(0, examples, CHUNK_EXAMPLES)
    return [ChunkSpec(engine, ruleset, chunk_seed(seed, i), i, min(CHUNK_EXAMPLES, examples - start), max_steps,
                      settings_key(settings), len(starts))
            for i, start in enumerate(starts)]


def scenario_doc(ruleset: str, sc: Scenario, v, found: dict | None = None,
                 settings: dict | tuple | None = None) -> dict:
    """A scenario and the violation it shows, as the JSON document saved and replayed."""
    doc = {"schema": SCENARIO_SCHEMA, "ruleset": ruleset, "origin": sc.origin, "state": sc.state,
           "actions": sc.actions, "violation": v.to_json(), "found": found or {}}
    if sc.setup is not None:
        doc["setup"] = dict(sc.setup)         # a new game as set up: replayed as new_game where declared
    if sc.history is not None:
        doc["history"] = sc.history           # how the loaded state was reached (read by unstated.explain)
    if settings:
        doc["set"] = dict(settings)           # --set values: a replay supplies them again
    return doc


def doc_size(doc: dict) -> int:
    return len(json.dumps([doc["state"], doc["actions"]], sort_keys=True, separators=(",", ":")))


def _rank(item: dict) -> tuple:
    """Which candidate of a deviation to shrink: the fewest steps, the smallest, the first found."""
    f = item["doc"]["found"]
    return item["doc"]["violation"]["step"], item["size"], f.get("chunk", 0), f.get("scenario", 0)


def explore_chunk(spec: ChunkSpec) -> dict:
    """Generate and check every scenario of a chunk; a JSON-able result for ``merge_chunks``."""
    with engines_die_with_worker():
        return _explore(spec)


def _explore(spec: ChunkSpec) -> dict:
    session = Session(spec.engine, spec.ruleset, spec.settings, spec.max_steps)
    result: dict[str, Any] = {"index": spec.index, "seed": spec.seed, "engine": spec.engine.label,
                              "ruleset": spec.ruleset, "set": dict(spec.settings), "scenarios": 0, "steps": 0,
                              "skipped": {}, "deviations": {}, "stopped": None, "log": ""}
    deviations: dict[str, dict] = result["deviations"]

    def keep(sc: Scenario, v, k: int, seed: int) -> None:
        doc = scenario_doc(spec.ruleset, sc.truncated(v.step), v,
                           {"seed": seed, "chunk": spec.index, "scenario": k}, spec.settings)
        item = {"count": 1, "doc": doc, "size": doc_size(doc), "contexts": {v.context: 1}}
        if v.rule == "legality" and v.signature.startswith("legality: refused"):
            item["by_context"] = {v.context: doc}      # one refusal met on several actions: each judged apart
        old = deviations.get(v.signature)
        if old is None:
            deviations[v.signature] = item
            return
        _add(old, item)

    try:
        v = session.start()
        if v is not None:                  # the engine does not start: one replayable new game shows it
            start = new_game(session.config, max(2, session.config.setup.players_min), 0)
            keep(Scenario(start, [], "new game"), v, 0, 0)
            result["stopped"] = "the engine did not start"
            result["log"] = session.engine.log_tail()
            return result
        result["engine"] = session.hello.engine
        faults = 0
        k = 0
        cov = Coverage(spec.index, spec.chunks)      # what this chunk has offered (coverage.py)
        while result["scenarios"] < spec.examples and k < SKIP_FACTOR * spec.examples:
            seed = scenario_seed(spec.seed, k)
            sc = scenario(seed, session.ctx, lazy=True, cov=cov)      # drawn as far as it is played
            run = session.run(sc)
            k += 1
            if run.unsupported is not None:
                why = reason_key(run.unsupported)
                result["skipped"][why] = result["skipped"].get(why, 0) + 1
                continue
            result["scenarios"] += 1
            result["steps"] += run.steps
            v = run.violation
            if v is None:
                faults = 0
                continue
            keep(sc, v, k - 1, seed)
            if v.rule == "protocol" and not session.running:      # a fault: the engine was stopped
                faults += 1
                if v.signature.endswith(": timeout") or faults >= MAX_FAULTS:
                    result["stopped"] = (f"stopped after {faults} protocol faults in a row" if faults >= MAX_FAULTS
                                         else "stopped after a timeout")
                    break
            else:
                faults = 0
        result["log"] = session.engine.log_tail()
        result["drawn"] = cov.drawn()
    finally:
        session.close()
    return result


def _add(old: dict, item: dict) -> None:
    """``item``'s scenarios counted into ``old`` (the same cause): its count, its contexts, the better candidate."""
    old["count"] += item["count"]
    contexts = old.setdefault("contexts", {})
    for where, n in item.get("contexts", {}).items():
        contexts[where] = contexts.get(where, 0) + n
    if _rank(item) < _rank(old):
        old["doc"], old["size"] = item["doc"], item["size"]
    if "by_context" in item:
        mine = old.setdefault("by_context", {})
        for where, doc in item["by_context"].items():
            if where not in mine or _rank({"doc": doc, "size": doc_size(doc)}) < _rank(
                    {"doc": mine[where], "size": doc_size(mine[where])}):
                mine[where] = doc


def merge_chunks(results: list[dict]) -> dict:
    """The chunks of a run added up (in any order): counts summed, each deviation's candidate the best of
    its chunks' (``_rank``)."""
    results = sorted(results, key=lambda r: r["index"])
    if not results:
        raise ValueError("nothing to merge")
    deviations: dict[str, dict] = {}
    skipped: dict[str, int] = {}
    for r in results:
        for why, n in r.get("skipped", {}).items():
            skipped[why] = skipped.get(why, 0) + n
        for signature, item in r["deviations"].items():
            old = deviations.get(signature)
            if old is None:
                deviations[signature] = dict(item, contexts=dict(item.get("contexts", {})),
                                             **({"by_context": dict(item["by_context"])} if "by_context" in item else {}))
            else:
                _add(old, item)
    drawn = sorted({c for r in results for c in r.get("drawn", ())})
    for s, general in generalize({k: v["count"] for k, v in deviations.items()}, drawn).items():
        item = deviations.pop(s)
        old = deviations.get(general)
        if old is None:
            deviations[general] = item
        else:
            _add(old, item)
    for item in deviations.values():
        item["contexts"] = dict(sorted(item.get("contexts", {}).items(), key=lambda kv: (-kv[1], kv[0])))
    return {"engine": next((r["engine"] for r in results if r.get("engine")), ""),
            "ruleset": results[0]["ruleset"], "set": dict(results[0].get("set") or {}),
            "scenarios": sum(r["scenarios"] for r in results), "steps": sum(r["steps"] for r in results),
            "skipped": dict(sorted(skipped.items())), "deviations": dict(sorted(deviations.items())),
            "stopped": [f"chunk {r['index']}: {r['stopped']}" for r in results if r.get("stopped")],
            "logs": [r["log"] for r in results if r.get("log")]}


__all__ = ["ChunkSpec", "plan", "chunk_seed", "scenario_seed", "settings_key", "scenario_doc", "explore_chunk",
           "merge_chunks", "CHUNK_EXAMPLES", "DEFAULT_MAX_STEPS", "SCENARIO_SCHEMA"]
