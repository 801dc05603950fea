"""Witnesses: a situation and what the reference engine plays in it, each side in its own game.

A witness answers one probe's question (``verify.compare.probes``) for two or
more sides of a finding. Its situation is found by the SMT layer where that
models the action, else among the probe's situations (``verify.compare.search``);
each side's outcome is what the engine did from that side's own compiled config
(a side whose game cannot hold the situation "does not arise"). Beside them a
witness may carry the one-value play (the situation in one game with only the
finding's values changed, ``OneValue``) and lists what the actions read that no
quote of that side states (``verify.compare.reads``). Each game played is also a
game of a ``verify.trace/2`` file (the situation's state, then every action
applied, an action the rules refused recorded as refused), so ``verify replay
WITNESS.jsonl`` plays the witness again and checks every step.

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

from ..config.parameters import PLACES, Unplayed
from ..output import file_stem, write_text
from .model import OneValue, Outcome, Witness
from .probes import Probe
from .reads import fields_read, params_read
from .search import ABSENT, NOT_SET_UP, Found, Party, find
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
        return probe.amount_text.format(show(number(Fraction(value) * scale) if scale != 1 else value))
    return show(value)


def witness(probe: Probe, parties: list[Party]) -> tuple[Witness | None, bool | None]:
    """(witness, differs): differs is True (a witness), False (proved alike) or None (UNKNOWN: the witness
    carries the reason)."""
    found = find(probe, parties)
    if found.status == "same":
        return None, False
    if found.status == "unknown":
        return unknown(probe, parties, found.method, found.reason), None
    return build(probe, parties, found), True


def unknown(probe: Probe, parties: list[Party], method: str, reason: str | None) -> Witness:
    return Witness(family=probe.id, method=method, question=probe.question, unit=probe.unit, verdict="UNKNOWN",
                   detail=reason, outcomes=(), assumed=_assumed(parties))


def outcomes(probe: Probe, parties: list[Party], found: Found) -> tuple[Outcome, ...]:
    """Each side's outcome in its own money (``Party.scale``), and in classic amounts; a side whose game
    cannot hold the situation says so, and why."""
    out = []
    absent = found.absent or (None,) * len(parties)
    for p, o, pl, why in zip(parties, found.outcomes, found.plays, absent):
        if pl is None:
            out.append(Outcome(p.label, None, None, NOT_SET_UP, arises=False) if why == NOT_SET_UP else
                       Outcome(p.label, None, None, ABSENT, arises=False, why=why))
            continue
        scale = p.scale or p.cfg.setup.scale
        own = o
        if probe.unit == "money" and isinstance(o, (int, float)) and not isinstance(o, bool) \
                and o not in [x for x, _ in probe.special]:
            own = number(Fraction(o) * scale)
        text = outcome_text(probe, o, scale)
        if o is None and pl.refused is not None:
            text = f"refused: {pl.refused[1].split(': ', 1)[-1]}"
        out.append(Outcome(p.label, own, o, text))
    return tuple(out)


def build(probe: Probe, parties: list[Party], found: Found, one: tuple | None = None,
          detail: str | None = None) -> Witness:
    """The witness of ``found``: each side's own game; ``one`` = (game, params, why, parties, found of the
    same situation played in that game with only ``params`` changed) adds the one-value play."""
    games = [_game(p, pl, i) for i, (p, pl) in enumerate(zip(parties, found.plays)) if pl is not None]
    script = [_script(p, pl) for p, pl in zip(parties, found.plays) if pl is not None]
    one_value = None
    if one is not None:
        game, params, why, one_parties, one_found = one
        one_value = OneValue(game, tuple(params), outcomes(probe, one_parties, one_found), why,
                             tuple(_script(p, pl) for p, pl in zip(one_parties, one_found.plays) if pl is not None))
        games += [_game(p, pl, len(games) + i) for i, (p, pl) in enumerate(zip(one_parties, one_found.plays))
                  if pl is not None]
    return Witness(family=probe.id, method=found.method, question=probe.question,
                   situation=dict(found.values or {}), situation_text=found.situation,
                   outcomes=outcomes(probe, parties, found), unit=probe.unit, verdict="DIFFERS", detail=detail,
                   assumed=_assumed(parties), games=tuple(games), script=tuple(script), one_value=one_value,
                   unstated=tuple(u for p, pl in zip(parties, found.plays) if pl is not None
                                  for u in unstated(p, pl)))


def _assumed(parties: list[Party]) -> tuple:
    """The open values a side was played with (the catalogue's fallback stood in for them), once each."""
    seen: dict[tuple[str, str], tuple] = {}
    for p in parties:
        for pid, value in p.set:
            if pid in p.opened:
                seen.setdefault((p.label, pid), (p.label, pid, value))
    return tuple(seen.values())


def evidence(p: Party, pid: str) -> str | None:
    """What ``p``'s value of ``pid`` rests on when it is not a quote (None: its entry quotes it)."""
    if pid in p.opened:
        return "supplied"
    e = p.ruleset.entries.get(pid)
    if e is None or e.kind == "silent":
        return "silent"
    if e.kind == "open":
        return "supplied"
    whole = [c for c in e.claims if c.settles is None and not c.stated]
    if whole:
        return whole[0].evidence
    return None if e.kind == "cited" else "assumed"


def unstated(p: Party, pl) -> list[dict]:
    """Each parameter the played actions read (``verify.compare.reads``) whose evidence on ``p``'s side is
    not a quote, with that evidence and the value played."""
    if p.one_value:
        return []
    refused = pl.refused[0] if pl.refused is not None else None
    read = params_read(fields_read(p.cfg, pl.first, list(pl.applied), refused), p.ruleset)
    out = []
    for pid in sorted(read):
        ev = evidence(p, pid)
        if ev is not None:
            out.append({"ruleset": p.label, "param": pid, "evidence": ev, "value": p.ruleset.value(pid)})
    return out


def _script(p: Party, pl) -> dict:
    out = {"ruleset": p.name, "actions": list(pl.applied)}
    if p.set:
        out["set"] = dict(p.set)
    if p.one_value:
        out["one_value"] = {"for": p.label, "params": list(p.one_value)}
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
    if p.one_value:
        header["one_value"] = {"for": p.label, "game": p.name, "params": list(p.one_value)}
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
    """For a parameter no situation plays: the rulings themselves, side by side (no claim about play), and
    why nothing can be played (``detail``)."""
    return Witness(family="direct:" + param, method="direct", question=question, situation={},
                   situation_text="whenever the question arises",
                   outcomes=tuple(Outcome(r, v, v, show(v)) for r, v in sides), unit="value",
                   detail=why_direct(param))


def why_direct(param: str) -> str:
    """Why no situation plays ``param``: the engine does not play it (and why), or no question of the
    comparison sets up a situation for it yet."""
    place = PLACES.get(param)
    if isinstance(place, Unplayed):
        return f"not played: the engine does not play {param} ({place.reason})"
    return f"no situation of the comparison plays {param} yet: its rulings are shown side by side"


def file_name(finding_id: str) -> str:
    """The trace file of a finding's witness (``verify.output.file_stem``: distinct ids, distinct files)."""
    return file_stem(finding_id) + ".jsonl"


def write(findings, folder: Path) -> list[Path]:
    """Each finding's witness as a trace file ``verify replay`` re-runs (atomically written)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for f in [x for each in findings for x in (each, *each.consequences)]:
        w = f.witness
        if w is None or not w.games:
            continue
        path = folder / file_name(f.id)
        write_text(path, "".join(json.dumps(line, ensure_ascii=False, sort_keys=True) + "\n"
                                 for game in w.games for line in game))
        out.append(path)
    return out


__all__ = ["witness", "build", "unknown", "outcomes", "direct", "write", "file_name", "outcome_text", "Found",
           "Party"]
