"""The SMT layer looks for a witness state: one action, every side's transition, a state where they part.

For a probe whose action the SMT layer encodes, every side gets the symbolic
state of ``verify.smt.state`` (the same z3 variables: one situation) and the
action's transition from its own config (``verify.smt.transitions``). z3 is asked
for a state that satisfies each side's promised invariants in which the sides
disagree: one allows the action and another refuses it, or both allow it and
leave different cash, owners, mortgages, buildings, bank stock or pot. The
model is made small (deeds back to the bank, no cards or jail) and read back as
a canonical state; the engine then plays that state for every side.
"""

from __future__ import annotations

import z3

from ..engine.actions import ACTIONS as ENGINE_ACTIONS
from ..errors import GameError, VerifyError
from ..interrupt import raise_if_interrupted
from ..invariants import load_invariants
from ..smt.model import Model
from ..smt.transitions import BY_NAME, Args, canonical
from ..smt.proofs import invariant_before
from ..smt.scenario import _deed_line, _describe_action, _player_line, minimise
from ..smt.state import concrete, domain, fresh
from .parties import TIMEOUT_MS, Found, Party, broken_promise, outcome_key
from .situations import ACTOR, Table, play


class _Step:
    """What ``scenario.minimise`` reads of a step: the state before."""

    def __init__(self, before):
        self.before = before


def _observed(s) -> list:
    out = [p.cash for p in s.players] + [p.owner for p in s.props] + [p.mortgaged for p in s.props]
    out += [p.houses for p in s.props] + [p.hotels for p in s.props] + [s.bank_cash, s.pot]
    out += [x for x in (s.bank_houses, s.bank_hotels) if x is not None]
    return out


def _differ(a: list, b: list):
    return z3.Or([x != y for x, y in zip(a, b) if not (isinstance(x, int) and isinstance(y, int) and x == y)]
                 or [z3.BoolVal(False)])


def smt_situation(probe, parties: list[Party]) -> Found:
    """Found("differs", "smt", ...) with the engine's outcomes, Found("same", "smt") when z3 proves the
    transitions never part, or Found("unknown", reason=...)."""
    name = probe.smt
    action = BY_NAME.get(name) or BY_NAME.get(_current(name))
    if action is None or not _playable(action):
        return Found("unknown", "smt", reason=f"the SMT layer has no engine action {name!r} to play")
    name = action.name
    models = [Model.from_config(p.cfg) for p in parties]
    if len({m.players for m in models}) != 1:
        return Found("unknown", "smt", reason="the sides seat different numbers of players")
    x = Args.fresh("witness", models[0])
    states, guards, afters, pre = [], [], [], []
    invariants = [i for i in load_invariants() if i.kind == "state"]
    for m, p in zip(models, parties):
        if action.disabled(m):
            guard, after, s = z3.BoolVal(False), None, fresh(m, "@w")
        else:
            s = fresh(m, "@w")
            guard, after = action.build(m, s, x)
        states.append(s)
        guards.append(guard)
        afters.append(after)
        pre += domain(m, s)
        promised = set(p.ruleset.promised())
        pre += [invariant_before(m, inv, s) for inv in invariants if inv.id in promised]
    if name == "unmortgage":
        pre.append(z3.Not(x.f1))        # lifted in a later turn, not "just received"
    parts = []
    for i in range(len(parties)):
        for j in range(i + 1, len(parties)):
            both = [z3.And(guards[i], guards[j])]
            if afters[i] is not None and afters[j] is not None:
                both.append(_differ(_observed(afters[i]), _observed(afters[j])))
            else:
                both.append(z3.BoolVal(False))
            parts.append(z3.Or(guards[i] != guards[j], z3.And(both)))
    solver = z3.Solver()
    solver.set("timeout", TIMEOUT_MS)
    solver.add(pre)
    try:
        # the plainer witness first: every side allows the action and they end in different states
        solver.push()
        solver.add(z3.And(guards), z3.Or([_differ(_observed(a), _observed(b)) for i, a in enumerate(afters)
                                          for b in afters[i + 1:] if a is not None and b is not None]
                                         or [z3.BoolVal(False)]))
        res = solver.check()
        if res != z3.sat:
            solver.pop()
            solver.add(z3.Or(parts))
            res = solver.check()
    except z3.Z3Exception as exc:
        raise_if_interrupted()
        return Found("unknown", "smt", reason=f"z3 failed: {exc}")
    if res == z3.unsat:
        return Found("same", "smt", situation="no state the SMT layer models separates them",
                     reason="z3: UNSAT over every state satisfying the invariants")
    if res != z3.sat:
        return Found("unknown", "smt", reason=f"z3 gave up ({solver.reason_unknown() or 'unknown'}) within "
                                              f"{TIMEOUT_MS / 1000:g} s")
    model = minimise(models[0], _Step(states[0]), solver, TIMEOUT_MS)
    return _engine_plays(probe, parties, models[0], states[0], x, model)


def _playable(tr) -> bool:
    """A transition that models one engine action whole, which ``_action`` writes from its arguments: a
    trade, or an action whose only field is the deed it acts on."""
    if tr.step is not None or len(tr.models) != 1:
        return False
    fields = [f.name for f in ENGINE_ACTIONS[tr.models[0]].fields]
    return tr.name == "trade" or fields == ["square"]


def _current(name: str) -> str:
    try:
        return canonical(name)
    except KeyError:
        return name


def _arg(model, v):
    if isinstance(v, (int, bool)):
        return v
    r = model.eval(v, model_completion=True)
    return r.as_long() if z3.is_int_value(r) else z3.is_true(r)


def _engine_plays(probe, parties, m, s, x, model) -> Found:
    st = concrete(m, s, model)
    args = {k: _arg(model, getattr(x, k)) for k in ("a", "b", "sq", "sq2", "amt", "f1", "f2", "f3", "f4",
                                                     "f5", "f6")}
    got = _fixed(probe, parties, m, st, args)
    if got.status in ("differs", "unknown"):
        return got
    return Found("unknown", "smt", reason="the SMT layer found a situation that the engine plays alike "
                                          "for every side (a gap between the two encodings)")


def _fixed(probe, parties, m, st: dict, args: dict) -> Found:
    """The engine's play of one situation the SMT layer found, for ``parties`` (``differs`` or ``same``;
    ``unknown`` when it cannot be played for them); ``replay`` plays it for others."""
    plays, outs = [], []
    for p in parties:
        t = Table(p.cfg, players=m.players)
        try:
            state = _state(t, st)
            act = _action(probe.smt, m, args)
            pl = play(p.cfg, state, [act])
        except (GameError, VerifyError, KeyError, IndexError, ValueError, StopIteration) as exc:
            return Found("unknown", "smt", reason=f"the SMT layer's situation could not be played: {exc}")
        broken = broken_promise(p, pl)
        if broken:
            return Found("unknown", "smt", reason=f"the SMT layer's situation breaks an invariant {p.label} "
                                                  f"promises when the engine plays it: {broken}")
        plays.append(pl)
        outs.append(probe.observe(t, pl, {}))

    def replay(others):
        got = _fixed(probe, others, m, st, args)
        return None if got.status == "unknown" else got
    status = "differs" if len({repr(outcome_key(o)) for o in outs}) > 1 else "same"
    return Found(status, "smt", {}, _describe(m, st, probe.smt, args), tuple(plays), tuple(outs),
                 absent=(None,) * len(plays), replay=replay)


def _state(t: Table, st: dict) -> dict:
    s = t.neutral()
    for p, q in zip(s["players"], st["players"]):
        p.update(cash=q["cash"], in_jail=q["in_jail"], bankrupt=q["bankrupt"], jail_cards=list(q["jail_cards"]))
        if q["in_jail"]:
            p["position"] = t.squares_of_kind("jail")[0]
        for deck in q["jail_cards"]:
            card = next(c.id for c in getattr(t.cfg.cards, deck) if c.effect == "jail_free")
            s["decks"][deck] = [c for c in s["decks"][deck] if c != card]
    by_sq = {p["square"]: p for p in st["properties"]}
    for p in s["properties"]:
        q = by_sq[p["square"]]
        p.update(owner=q["owner"], mortgaged=q["mortgaged"], houses=q["houses"], hotel=q["hotel"],
                 mortgage_rounds=q["mortgage_rounds"] or 0)
    s["bank"].update({k: v for k, v in st["bank"].items() if v is not None or k == "cash"})
    s["pot"], s["jackpot"] = st["pot"], st["jackpot"]
    return s


def _action(name: str, m, args: dict) -> dict:
    square = lambda k: m.deeds[args[k]].square  # noqa: E731
    if name == "trade":
        give: dict = {"squares": [square("sq")] if args["f1"] else [],
                      "cards": [d for f, d in (("f3", "chance"), ("f4", "chest")) if args[f]]}
        take: dict = {"squares": [square("sq2")] if args["f2"] else [],
                      "cards": [d for f, d in (("f5", "chance"), ("f6", "chest")) if args[f]]}
        if args["amt"] > 0:
            give["cash"] = args["amt"]
        elif args["amt"] < 0:
            take["cash"] = -args["amt"]
        return {"type": "trade", "seat": args["a"], "with": args["b"], "give": give, "take": take}
    return {"type": BY_NAME[name].models[0], "seat": args["a"], "square": square("sq")}


def _describe(m, st: dict, name: str, args: dict) -> str:
    lines = [_player_line(p) for p in st["players"] if p["seat"] in (args["a"], args["b"]) or p["jail_cards"]]
    lines += [_deed_line(m, i, p) for i, p in enumerate(st["properties"])
              if p["owner"] is not None or p["mortgaged"] or p["houses"] or p["hotel"]]
    return "; ".join(lines) + ". " + _describe_action(m, name, args)[0].upper() + _describe_action(m, name, args)[1:]


__all__ = ["smt_situation", "ACTOR"]
