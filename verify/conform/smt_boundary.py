"""Boundary states found by z3: states at the edge of the building rules that satisfy every promised invariant.

Some edges are easy to state and tedious to construct: the bank holds exactly one
house while every house on the board still stands evenly and within the limits;
a player's cash is exactly the cost of the next house of a group they may build
on; a group stands unevenly by one level. Here they are asked of z3 over the
symbolic state of ``verify.smt`` (``fresh`` + ``domain`` + the promised state
invariants, compiled from the same expressions the engine is checked with) with
the goal added, for one of three colour groups (cheap, middle, dear); the model is read back with
``concrete`` and becomes the deeds, buildings, bank stock and cash of a loaded
state. Each query is solved once per config and group (cached); an UNKNOWN or
UNSAT answer (no such state in this ruleset) leaves the scenario a mid-game one.
"""

from __future__ import annotations

from functools import lru_cache

import z3

from ..invariants import NOBODY, load_invariants
from ..smt.model import Model
from ..smt.proofs import invariant_before
from ..smt.state import concrete, domain, fresh
from ..engine.step import new_game
from .states import turn

#: The edges asked of z3; the player at the edge is seat 0, whose turn it is.
GOALS = ("last-house", "exact-cash", "uneven-group")
#: z3's budget per query in resource units (its own deterministic step count), not in seconds: a
#: wall-clock timeout made a query time out on a loaded machine only, so the same chunk drew other
#: scenarios there. The bundled rulesets' queries take about 60,000-110,000 units (0.03 s).
RLIMIT = 20_000_000


@lru_cache(maxsize=8)
def _base(config, promised: tuple[str, ...]):
    """The symbolic state and the constraints every query of a config shares (the promised invariants:
    building their formulas is most of a query's cost, so it is done once per config)."""
    m = Model.from_config(config)
    s = fresh(m, "")
    cons = domain(m, s) + [invariant_before(m, i, s) for i in load_invariants()
                           if i.kind == "state" and i.id in promised]
    for p in s.players:
        cons += [z3.Not(p.bankrupt), z3.Not(p.in_jail), z3.Not(p.chance), z3.Not(p.chest),
                 p.cash >= 0, p.cash <= 3 * config.setup.starting_cash]
    cons += [s.pot == 0, s.jackpot == 0]
    b = config.building
    for p in s.props:      # the shapes the engine gives a deed, promised by the ruleset or not
        cons.append(z3.Implies(p.mortgaged, p.owner != NOBODY))
        if p.kind == "street":
            cons.append(z3.Implies(z3.Or(p.houses > 0, p.hotels > 0), z3.And(p.owner != NOBODY, z3.Not(p.mortgaged))))
            cons += [p.hotels <= 1, p.houses <= b.max_houses,
                     z3.Implies(p.hotels == 1, p.houses == (0 if b.hotel_returns_houses else b.hotel_threshold))]
    return m, s, tuple(cons)


@lru_cache(maxsize=64)
def _solve(config, promised: tuple[str, ...], goal: str, group: int) -> dict | None:
    m, s, base = _base(config, promised)
    cons = list(base)
    name, members = m.street_groups[group]
    props = [s.props[i] for i in members]
    cost = m.deeds[members[0]].house_cost
    me = s.players[0]
    cons += [p.owner == 0 for p in props] + [z3.Not(p.mortgaged) for p in props]
    cons.append(z3.Or([z3.And(p.hotels == 0, p.houses < config.building.max_houses) for p in props]))
    if goal == "last-house":
        if s.bank_houses is None:
            return None
        cons += [s.bank_houses == 1, me.cash >= cost]
    elif goal == "exact-cash":
        cons.append(me.cash == cost)
    elif goal == "uneven-group":
        cons.append(z3.Or([z3.And(a.houses != b.houses, a.hotels == 0, b.hotels == 0)
                           for a in props for b in props]))
        cons.append(me.cash >= 2 * cost)
    # A fresh context: z3's answer then depends on this query alone, not on what the process solved before
    # (a chunk's scenarios must not depend on which chunks ran before it in the same process).
    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("rlimit", RLIMIT)
    solver.add([c.translate(ctx) for c in cons])
    if solver.check() != z3.sat:
        return None
    return concrete(m, s, solver.model().translate(z3.main_ctx()))


def smt_state(d, ctx):
    """A game carrying a z3-found boundary state (players, deeds, bank) and its name, or None."""
    m = Model.from_config(ctx.config)
    if not m.street_groups:
        return None
    goal = d.pick(GOALS)
    k = len(m.street_groups)
    group = d.pick(sorted({0, k // 2, k - 1}))   # three groups: each query costs z3 a fraction of a second
    found = _solve(ctx.config, tuple(sorted(ctx.promised)), goal, group)
    if found is None:
        return None
    g = ctx.rules.from_json(new_game(ctx.config, m.players, d.int(0, 2 ** 16)))
    for p in found["players"]:
        g.cash[p["seat"]] = p["cash"]
    for deed, p in zip(m.deeds, found["properties"]):
        s = deed.square
        g.owner[s] = -1 if p["owner"] in (None, NOBODY) else p["owner"]
        g.mortgaged[s] = p["mortgaged"]
        g.houses[s] = p["houses"]
        g.hotel[s] = p["hotel"]
        g.mortgage_rounds[s] = p["mortgage_rounds"] or 0
    bank = found["bank"]
    if bank["houses"] is not None:
        g.bank_houses = bank["houses"]
    if bank["hotels"] is not None:
        g.bank_hotels = bank["hotels"]
    turn(d, g, 0)
    return f"{goal} ({m.street_groups[group][0]})", g


__all__ = ["smt_state", "GOALS"]
