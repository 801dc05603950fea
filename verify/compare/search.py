"""Finding a witness situation: the SMT layer where it models the action, else the probe's own situations.

Where a probe's action is one the SMT layer encodes (``verify.smt.transitions``,
checked against the engine by the differential tests), z3 looks, over every
state that satisfies the ruleset's invariants, for one in which the sides'
transitions differ (one allows the action and another refuses it, or they
leave different cash, deeds, buildings or bank stock); the state is made
small (``verify.smt.scenario.minimise``) and read back as a canonical state.
UNSAT proves that no such state exists in what the SMT layer models. Otherwise
the probe's situations are tried in order, the plainest first.

Either way each side's outcome is what the reference engine plays from that
side's config: a situation the SMT layer finds but the engine plays alike is
no witness (and is said so). A side whose game cannot hold the situation at all
(``probes.Absent``: a card it does not have) has the outcome ``ABSENT``, never
a situation made up for it; a situation is a witness when two sides where it
arises play it differently. ``Found.replay`` plays the same situation for other
sides (the one-value play of a witness).
"""

from __future__ import annotations

import itertools

from ..errors import GameError, VerifyError
from .parties import Found, Party, broken_promise, outcome_key
from .probes import Absent, Probe
from .situations import ACTOR, Table, play
from .smt_search import smt_situation

#: At most this many of a probe's situations are played.
MAX_SITUATIONS = 96
#: The outcome of a side whose game cannot hold the situation.
ABSENT = "does not arise in this game"
#: The outcome of a side where a situation found in another game could not be set up.
NOT_SET_UP = "the situation could not be set up in this game"


def _choices(var, parties: list[Party]) -> tuple:
    extra = []
    if var.around is not None:
        for p in parties:
            for edge in var.around(p.cfg):
                if isinstance(edge, int) and not isinstance(edge, bool):
                    extra += [edge, edge - 1]
    # the plainest value first, then the sides' own edges, then the other values
    return tuple(dict.fromkeys(tuple(var.choices[:1]) + tuple(sorted(extra)) + tuple(var.choices[1:])))


def _combos(probe: Probe, parties: list[Party]):
    """The probe's situations, plainest first: fewest values away from each variable's first choice."""
    choices = [_choices(v, parties) or (None,) for v in probe.vars]
    idx = sorted(itertools.product(*[range(len(c)) for c in choices]),
                 key=lambda ix: (sum(1 for i in ix if i), sum(ix)))
    for ix in idx[:MAX_SITUATIONS]:
        yield {v.name: c[i] for v, c, i in zip(probe.vars, choices, ix)}


def _play_all(probe: Probe, parties: list[Party], values: dict) -> tuple[tuple, tuple, tuple] | None:
    """(plays, outcomes, why absent) per side, or None when the situation cannot be set up; a side whose
    game cannot hold it plays nothing (``None``) and its outcome is ``ABSENT``, the reason beside it."""
    plays, outs, absent = [], [], []
    for p in parties:
        t = Table(p.cfg, players=probe.players)
        try:
            built = probe.build(t, values)
            if built is None:
                return None
            if isinstance(built, Absent):
                plays.append(None)
                outs.append(ABSENT)
                absent.append(built.reason)
                continue
            state, actions = built
            pl = play(p.cfg, state, actions)
            outs.append(probe.observe(t, pl, values))
        except (GameError, VerifyError, StopIteration, IndexError, KeyError, ValueError, TypeError):
            return None
        broken = broken_promise(p, pl)
        if broken:                       # a state no game of this ruleset reaches: not this side's situation
            plays.append(None)
            outs.append(ABSENT)
            absent.append(f"no game of it reaches this situation (it breaks a promise: {broken})")
            continue
        plays.append(pl)
        absent.append(None)
    if all(pl is None for pl in plays):
        return None
    return tuple(plays), tuple(outs), tuple(absent)


def differ(outs) -> bool:
    """Whether two sides where the situation arises, and the question with it, have different outcomes."""
    return len({repr(outcome_key(o)) for o in outs if o != ABSENT and o is not None}) > 1


def by_situations(probe: Probe, parties: list[Party]) -> Found:
    tried = 0
    for values in _combos(probe, parties):
        got = _play_all(probe, parties, values)
        if got is None:
            continue
        tried += 1
        plays, outs, absent = got
        if any(o is None for o in outs):
            continue
        if differ(outs):
            return _found(probe, parties, values, got, tried)
    why = (f"the engine plays the sides alike in each of the {tried} situation(s) tried" if tried else
           "no situation of this question could be set up for these rulesets")
    return Found("unknown", "engine", reason=why, tried=tried)


def _found(probe: Probe, parties: list[Party], values: dict, got: tuple, tried: int = 0) -> Found:
    plays, outs, absent = got
    first = next(p for p, pl in zip(parties, plays) if pl is not None)
    text = situation_text(probe, values, Table(first.cfg, players=probe.players))
    return Found("differs", "engine", values, text, plays, outs, tried=tried, absent=absent,
                 replay=lambda others: _replayed(probe, others, values))


def _replayed(probe: Probe, parties: list[Party], values: dict) -> Found | None:
    """The same situation played for ``parties`` (None when it cannot be set up for them)."""
    got = _play_all(probe, parties, values)
    if got is None:
        return None
    found = _found(probe, parties, values, got)
    return found if differ(got[1]) else Found("same", "engine", found.values, found.situation, found.plays,
                                              found.outcomes, absent=found.absent, replay=found.replay)


def situation_text(probe: Probe, values: dict, t: Table | None = None) -> str:
    parts = [v.text(values[v.name], t) for v in probe.vars if v.name in values]
    text = "; ".join(parts) or "whenever the question arises"
    if any(v.money for v in probe.vars):
        text += " (amounts in classic money; × money.scale for a larger-scale source)"
    return text


def find(probe: Probe, parties: list[Party]) -> Found:
    """A situation where the engine plays the parties differently, proof that none exists, or UNKNOWN."""
    note = None
    if probe.smt is not None and len({p.cfg.setup.scale for p in parties}) == 1:
        got = smt_situation(probe, parties)
        if got.status in ("differs", "same"):
            return got
        note = got.reason
    found = by_situations(probe, parties)
    if found.status == "unknown" and note:
        return Found("unknown", found.method, reason=f"{note}; {found.reason}", tried=found.tried)
    return found


__all__ = ["Party", "Found", "find", "by_situations", "situation_text", "outcome_key", "broken_promise", "ACTOR",
           "ABSENT", "NOT_SET_UP", "differ"]
