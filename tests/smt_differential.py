"""The differential check of the SMT model against the engine, generated from the transition registry.

For a transition and a ruleset, ``compare`` draws examples from the transition's declared
``example`` (``verify.smt.transitions``: a generated state that satisfies the invariants, the
engine actions that play the transition from it, its arguments), plays the actions on the engine
(``verify.engine.step.apply``) and evaluates the transition on the same state through the oracle
(``verify.smt.oracle``: the formulas ``verify check`` proves things about). They must agree:

* on legality: the engine accepts every action and ends settled (no debt open, no decision
  pending; for a step, the step's event recorded) exactly when the transition's guard allows it;
* on the successor: when both allow it, some choice of the transition's free arguments gives
  exactly the engine's owners, mortgages, buildings, cash, cards, bank stock and ledger, pot and
  jackpot, and no choice gives another (unless the transition says why it is ``loose``: the late-game
  rent tax's share).

Every example is counted: compared and allowed, compared and refused, or skipped with its reason
(the config has no such play). Used by ``tests/test_smt_differential.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from verify.config import EngineConfig
from verify.engine.step import IllegalAction, apply, new_game
from verify.errors import GameError
from verify.invariants import check_state
from verify.smt.model import Model
from verify.smt.oracle import Case, args_for, state_snapshot
from verify.smt.transitions import Transition
from verify.smt.transitions.plays import AUCTION, SETTLE
from verify.spec import load_ruleset

#: phases in which a decision is still open (the play is not settled)
OPEN = frozenset(("debt", "buy", "auction", "casino", "income_tax", "bus", "triples", "jail_choice"))


@dataclass(frozen=True)
class World:
    rid: str
    key: str            # the ruleset's own id: examples are drawn from it, never from where the file lies
    cfg: EngineConfig
    model: Model
    base: dict
    promised: tuple[str, ...]


_WORLDS: dict[str, World] = {}


def world(rid: str) -> World:
    if rid not in _WORLDS:
        r = load_ruleset(rid)
        cfg = EngineConfig.from_ruleset(r)
        players = max(3, cfg.setup.players_min)
        _WORLDS[rid] = World(rid, r.id, cfg, Model.from_config(cfg), new_game(cfg, players=players, seed=7),
                             tuple(r.promised()))
    return _WORLDS[rid]


@dataclass
class Played:
    """What the engine did with an example's actions."""

    allowed: bool
    after: dict
    events: list
    why: str                    # why it is not allowed
    guard_only: bool = False    # a legal build the engine put to a shortage auction
    applied: tuple = ()         # the types of the engine actions applied, auctions and payments played out


def _auction_moves(state: dict, winner: int | None, amount: int, bid_made: bool) -> dict:
    pend = state["pending"]
    if winner is not None and not bid_made and pend["leader"] != winner:
        if pend["turn"] is None or pend["turn"] == winner or winner not in pend["bidders"]:
            return {"type": "bid", "seat": winner, "amount": amount}
    seat = pend["turn"] if pend["turn"] is not None else next(b for b in pend["bidders"] if b != pend["leader"])
    return {"type": "pass", "seat": seat}


def play(cfg: EngineConfig, example) -> Played:
    state, events, applied = example.state, [], []
    for action in example.actions:
        steps = [action]
        if action["type"] == AUCTION:
            if state.get("phase") != "auction":
                return Played(False, state, events, "no auction opened")
            steps = []
        bid_made = False
        while True:
            if action["type"] == AUCTION:
                if state.get("phase") != "auction":
                    break
                act = _auction_moves(state, action["winner"], action["amount"], bid_made)
                bid_made = bid_made or act["type"] == "bid"
            elif action["type"] == SETTLE:
                if state.get("phase") != "debt":
                    break
                act = {"type": "pay", "seat": state["pending"]["debtor"]}
            elif steps:
                act = steps.pop()
            else:
                break
            try:
                state, new = apply(cfg, state, act)
            except IllegalAction as exc:
                return Played(False, state, events, f"{act['type']} refused: {exc}", applied=tuple(applied))
            events += new
            applied.append(act["type"])
    if any(e.get("event") == "auction" and e.get("item") in ("house", "hotel") for e in events):
        # the engine put a legal build to a shortage auction: the model's build is one step (the bounded
        # check covers the shortage itself), so only the guards are compared
        return Played(True, state, events, "", guard_only=True, applied=tuple(applied))
    if (state.get("phase") in OPEN and state.get("phase") not in example.then) \
            or (state["queue"]["debts"] and "debt" not in example.then):
        return Played(False, state, events, f"not settled (phase {state.get('phase')}, debts "
                                            f"{state['queue']['debts']})", applied=tuple(applied))
    if example.event is not None:
        name, fields = example.event
        if not any(e.get("event") == name and all(e.get(k) == v for k, v in fields.items()) for e in events):
            return Played(False, state, events, f"no {name} event {fields}", applied=tuple(applied))
    return Played(True, state, events, "", applied=tuple(applied))


@dataclass
class Tally:
    """Every example of one transition: compared (allowed or refused by both), skipped (with why), and
    the disagreements found."""

    allowed: int = 0
    refused: int = 0
    guard_only: int = 0         # allowed by both; the engine's shortage auction stands in the way of its successor
    skipped: Counter = field(default_factory=Counter)
    notes: Counter = field(default_factory=Counter)
    engine_actions: set = field(default_factory=set)
    disagreements: list = field(default_factory=list)

    @property
    def compared(self) -> int:
        return self.allowed + self.refused + self.guard_only

    def add(self, other: "Tally") -> None:
        self.allowed += other.allowed
        self.refused += other.refused
        self.guard_only += other.guard_only
        self.skipped.update(other.skipped)
        self.notes.update(other.notes)
        self.engine_actions |= other.engine_actions
        self.disagreements += other.disagreements


def _diff(a: dict, b: dict) -> str:
    out = []
    for k in a:
        if a[k] != b.get(k):
            if isinstance(a[k], dict):
                out += [f"{k}[{q}] SMT {a[k][q]} engine {b[k].get(q)}" for q in a[k] if a[k][q] != b[k].get(q)]
            else:
                out.append(f"{k} SMT {a[k]} engine {b.get(k)}")
    return "; ".join(out)


def compare(rid: str, tr: Transition, n: int, seed: int = 0, stop_at_first: bool = False) -> Tally:
    """``n`` examples of transition ``tr`` on ruleset ``rid``, compared (see the module docstring)."""
    w = world(rid)
    tally = Tally()
    if tr.disabled(w.model):
        tally.skipped[f"disabled: {tr.disabled(w.model)}"] += n
        return tally
    for i in range(n):
        rnd = random.Random(f"{w.key}/{tr.name}/{seed}/{i}")
        ex = tr.example(w.cfg, w.base, rnd)
        if ex is None:
            tally.skipped["this ruleset has no such play (drawn state)"] += 1
            continue
        where = f"{rid} {tr.name} example {seed}/{i}{' (' + ex.note + ')' if ex.note else ''}"
        assert check_state(w.cfg, ex.state, w.promised) == [], f"{where}: the example state breaks an invariant"
        played = play(w.cfg, ex)
        try:
            args = dict(ex.args) if ex.args is not None else args_for(w.model, ex.state, ex.actions[-1])
        except GameError as exc:          # an engine action the transition's arguments cannot say
            tally.skipped[f"not in the model's terms: {exc}"] += 1
            continue
        if ex.args_from is not None:
            args.update(ex.args_from(played.events, played.after))
        case = Case(w.model, tr, ex.state, args)
        try:
            smt = case.judge()
        except GameError as exc:
            tally.disagreements.append(f"{where}: the oracle failed: {exc}")
            continue
        if smt.allowed != played.allowed:
            tally.disagreements.append(
                f"{where}: the engine {'allows' if played.allowed else 'refuses'} "
                f"{[a.get('type') for a in ex.actions]} ({played.why or 'settled'}) but the SMT guard "
                f"{'allows' if smt.allowed else 'refuses'} it (args {args})")
        elif played.allowed and not played.guard_only and case.successor(played.after) is None:
            tally.disagreements.append(f"{where}: different successors: "
                                       f"{_diff(smt.after, state_snapshot(w.model, played.after))}")
        elif played.allowed and not played.guard_only and not tr.loose(w.model) and \
                (other := case.successor(played.after, same=False)) is not None:
            tally.disagreements.append(f"{where}: the SMT transition also allows a successor the engine does not "
                                       f"play (args {other.args}): "
                                       f"{_diff(other.after, state_snapshot(w.model, played.after))}")
        else:
            if played.guard_only:
                tally.guard_only += 1
            elif played.allowed:
                tally.allowed += 1
            else:
                tally.refused += 1
            tally.engine_actions |= set(played.applied)
            tally.notes[ex.note] += 1
        if stop_at_first and tally.disagreements:
            break
    return tally
