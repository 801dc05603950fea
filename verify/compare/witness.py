"""Witnesses: a situation and what the reference engine plays in it, side by side.

A witness answers one probe's question (``verify.compare.probes``) for two or
more sides of a finding. Its situation is found by the SMT layer where that
models the action, else among the probe's situations (``verify.compare.search``);
each side's outcome is what the engine did from that side's compiled config.
Each side is also a game of a ``verify.trace/2`` file (the situation's state,
then every action applied, an action the rules refused recorded as refused), so
``verify replay WITNESS.jsonl`` plays the witness again and checks every step.

The outcome of a search is three-valued: a witness (the sides play
differently), proved alike (z3: no state separates them), or UNKNOWN with the
reason (a solver timeout, no situation that separates them among those tried);
an UNKNOWN is shown, never taken for agreement.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..output import file_stem, write_text
from .model import Outcome, Witness
from .probes import Probe
from .search import Found, Party, find
from .values import number, show

TRACE_SCHEMA = "verify.trace/2"


def outcome_text(probe: Probe, value: Any, scale: int = 1) -> str:
    for special, text in probe.special:
        if value == special:
            return text
    if value is None:
        return "the situation does not arise"
    if probe.unit == "bool":
        return "yes" if value else "no"
    if probe.unit == "money" and isinstance(value, (int, float)) and not isinstance(value, bool):
        return show(number(Fraction(value) * scale) if scale != 1 else value)
    return show(value)


def witness(probe: Probe, parties: list[Party]) -> tuple[Witness | None, bool | None]:
    """(witness, differs): differs is True (a witness), False (proved alike) or None (UNKNOWN: the witness
    carries the reason)."""
    found = find(probe, parties)
    if found.status == "same":
        return None, False
    if found.status == "unknown":
        return Witness(family=probe.id, method=found.method, question=probe.question, unit=probe.unit,
                       verdict="UNKNOWN", detail=found.reason, outcomes=(),
                       assumed=_assumed(parties)), None
    outcomes = []
    for p, out, pl in zip(parties, found.outcomes, found.plays):
        scale = p.scale or p.cfg.setup.scale
        own = out
        if probe.unit == "money" and isinstance(out, (int, float)) and not isinstance(out, bool) \
                and out not in [s for s, _ in probe.special]:
            own = number(Fraction(out) * scale)
        text = outcome_text(probe, out, scale)
        if out is None and pl.refused is not None:
            text = f"refused: {pl.refused[1].split(': ', 1)[-1]}"
        outcomes.append(Outcome(p.label, own, out, text))
    games = tuple(_game(p, pl, i) for i, (p, pl) in enumerate(zip(parties, found.plays)))
    script = tuple(_script(p, pl) for p, pl in zip(parties, found.plays))
    return Witness(family=probe.id, method=found.method, question=probe.question,
                   situation=dict(found.values or {}), situation_text=found.situation,
                   outcomes=tuple(outcomes), unit=probe.unit, verdict="DIFFERS",
                   assumed=_assumed(parties), games=games, script=script), True


def _assumed(parties: list[Party]) -> tuple:
    """The open values a side was played with (the catalogue's fallback stood in for them), once each."""
    seen: dict[tuple[str, str], tuple] = {}
    for p in parties:
        for pid, value in p.set:
            if pid in p.opened:
                seen.setdefault((p.label, pid), (p.label, pid, value))
    return tuple(seen.values())


def _script(p: Party, pl) -> dict:
    out = {"ruleset": p.name, "actions": list(pl.applied)}
    if p.set:
        out["set"] = dict(p.set)
    if pl.refused is not None:
        out["refused"] = {"action": pl.refused[0], "why": pl.refused[1]}
    return out


def _game(p: Party, pl, index: int) -> list[dict]:
    """One side as a game of a trace: header, the situation (step 0), each applied action, the refused one."""
    cfg = p.cfg
    header = {"trace": TRACE_SCHEMA, "state_schema": "verify.state/1", "ruleset": p.name,
              "config_hash": cfg.hash(), "seed": None, "game": index, "players": len(pl.first["players"]),
              "policy": "witness", "label": p.label}
    if p.set:
        header["set"] = dict(p.set)
    lines = [header, {"step": 0, "action": None, "events": [], "state": pl.first}]
    for k, ((action, events), state) in enumerate(zip(pl.steps, pl.states[1:]), 1):
        lines.append({"step": k, "action": action, "events": list(events), "state": state})
    if pl.refused is not None:
        lines.append({"step": len(pl.steps) + 1, "action": pl.refused[0], "refused": pl.refused[1],
                      "events": [], "state": pl.last})
    lines.append({"end": {"steps": len(lines) - 1, "over": pl.last.get("phase") == "over",
                          "result": pl.last.get("result"), "stopped": "witness"}})
    return lines


def direct(question: str, sides: list[tuple[str, Any]], param: str) -> Witness:
    """For a parameter no probe plays: the rulings themselves, side by side (no claim about play)."""
    return Witness(family="direct:" + param, method="direct", question=question, situation={},
                   situation_text="whenever the question arises",
                   outcomes=tuple(Outcome(r, v, v, show(v)) for r, v in sides), unit="value")


def file_name(finding_id: str) -> str:
    """The trace file of a finding's witness (``verify.output.file_stem``: distinct ids, distinct files)."""
    return file_stem(finding_id) + ".jsonl"


def write(findings, folder: Path) -> list[Path]:
    """Each finding's witness as a trace file ``verify replay`` re-runs (atomically written)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for f in findings:
        w = f.witness
        if w is None or not w.games:
            continue
        path = folder / file_name(f.id)
        write_text(path, "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n"
                                 for game in w.games for line in game))
        out.append(path)
    return out


__all__ = ["witness", "direct", "write", "file_name", "outcome_text", "Found", "Party"]
