"""Landing on a square: rent on a street, a station or a utility, the Free Parking pot
(``verify.engine.rules.movement`` ``land``, ``verify.engine.rules.base`` ``rent``)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import z3

from ..model import Model
from ..state import SymState
from .common import (Args, active, add_cash, all_, any_, bank_gets, ite, no_buildings, owned_count, pf, pick,
                     seat_ok, team_of)
from ...config.tables import DERIVED
from .plays import deeds_of, index_of, prop, roll_onto, settle, someone, squares_of
from .registry import Example, transition

#: the engine actions whose move lands a token, as the model takes them: the steps of a landing happen inside
#: a roll (the speed die's bus and triples moves land alike: ``NOT_MODELLED``)
LANDING = ("roll",)


def street_rent(m: Model, s: SymState, i: int) -> Any:
    p, r = s.props[i], m.config.rent
    rents = m.tables.rents[p.square]
    mates = [s.props[t] for t in m.group_members(i)]
    bonus = all_([t.owner == p.owner for t in mates])
    if not r.group_bonus_with_buildings:
        bonus = z3.And(bonus, all_([no_buildings(t) for t in mates]))
    if not r.group_bonus_with_mortgaged_mate:
        bonus = z3.And(bonus, all_([z3.Not(t.mortgaged) for t in mates]))
    rent = ite(bonus, rents[0] * r.group_multiplier, rents[0])
    for k in range(m.config.building.max_houses, 0, -1):
        rent = ite(p.houses == k, rents[min(k, 4)], rent)
    return ite(p.hotel, rents[5], rent)


def station_rent(m: Model, s: SymState, i: int) -> Any:
    n = owned_count(s, s.props[i].owner, "station")
    return pick(n - 1, list(m.config.rent.station_schedule))


def utility_rent(m: Model, s: SymState, i: int, dice) -> Any:
    n = owned_count(s, s.props[i].owner, "utility")
    return pick(n - 1, list(m.config.rent.utility_multipliers)) * dice


def _rent(kind: str):
    def build(m: Model, s: SymState, x: Args):
        """``a`` lands on deed ``sq`` (of this kind) of another player and pays its rent (``dice``: the
        throw, for a utility); the late-game rent tax takes a share of it to the bank."""
        r = m.config.rent
        rent, owner = z3.Int(f"rent_{kind}.due"), z3.Int(f"rent_{kind}.owner")
        tax = z3.Int(f"rent_{kind}.tax")
        cases = []
        for p in s.props:
            if p.kind != kind:
                continue
            i = p.index
            due = (street_rent(m, s, i) if kind == "street" else station_rent(m, s, i) if kind == "station"
                   else utility_rent(m, s, i, x.dice))
            cases.append(z3.And(x.sq == i, owner == p.owner, rent == due,
                                z3.BoolVal(True) if r.mortgaged_collects else z3.Not(p.mortgaged)))
        dice_lo, dice_hi = m.config.movement.dice_count, 6 * m.config.movement.dice_count
        guard = [seat_ok(m, x.a), owner >= 0, owner != x.a, active(s, x.a), any_(cases),
                 pf(s, x.a, "cash") >= rent]
        if kind == "utility":
            guard += [x.dice >= min(2, dice_lo), x.dice <= max(12, dice_hi)]
        if not r.jailed_owner_collects:
            guard.append(z3.Not(pf(s, owner, "in_jail")))
        if m.teams and not m.config.teams.teammates_pay_rent:
            guard.append(team_of(s, x.a) != team_of(s, owner))
        if r.tax_enabled:
            guard += [tax >= 0, tax <= rent]   # the share the late-game rent tax takes (to the bank)
        else:
            guard.append(tax == 0)
        after = add_cash(s, x.a, -rent)
        after = add_cash(after, owner, rent - tax)
        after = bank_gets(after, tax)
        return all_(guard), after
    return build


def _rent_tax(m: Model) -> str | None:
    return "the late-game rent tax takes any share up to the whole rent: the model has no game clock" \
        if m.config.rent.tax_enabled else None


rent_street = transition("rent_street", "pay rent for a street", LANDING + ("claim_rent",), step="rent",
                         variant="street", bank_free=True, aliases=("rent-street",), loose=_rent_tax)(_rent("street"))
rent_station = transition("rent_station", "pay rent for a station", LANDING + ("claim_rent",), step="rent",
                          variant="station", bank_free=True, aliases=("rent-station",),
                          loose=_rent_tax)(_rent("station"))
rent_utility = transition("rent_utility", "pay rent for a utility", LANDING + ("claim_rent",), step="rent",
                          variant="utility", bank_free=True, aliases=("rent-utility",),
                          loose=_rent_tax)(_rent("utility"))


@transition("free_parking", "landing on Free Parking takes the pot", LANDING, step="free_parking",
            disabled=lambda m: None if m.config.taxes.free_parking_pot else "there is no Free Parking pot",
            aliases=("free-parking",))
def free_parking(m: Model, s: SymState, x: Args):
    """Landing on Free Parking takes the pot."""
    guard = [seat_ok(m, x.a), active(s, x.a)]
    after = add_cash(s, x.a, s.pot)
    return all_(guard), replace(after, pot=0)


def _rent_example(kind: str):
    def example(cfg, base, rnd):
        """A player rolls onto a deed of this kind, mostly another player's (the owner in jail now and then),
        at some minute of the game (the late-game rent tax); where rent is owed only on a claim, the owner
        claims it; where a debt is paid by an action of its own, the payer pays."""
        s, a = someone(cfg, base, rnd)
        s["minute"] = float(rnd.choice([0, 30, 60, 90, 150, 240]))
        targets = deeds_of(cfg, kind)
        theirs = [q for q in targets if prop(s, q)["owner"] not in (None, a)]
        sq = rnd.choice(theirs if theirs and rnd.random() < 0.85 else targets)
        owner = prop(s, sq)["owner"]
        if owner is not None and owner != a and rnd.random() < 0.15:
            s["players"][owner].update(in_jail=True, position=squares_of(cfg, "jail")[0])
        roll = roll_onto(cfg, s, a, sq, rnd)
        if roll is None:
            return None
        actions = [roll]
        if DERIVED["must_claim"](cfg) and owner not in (None, a):
            actions.append({"type": "claim_rent", "seat": owner, "square": sq})
        actions += settle(cfg)
        return Example(s, tuple(actions), dict(a=a, sq=index_of(cfg, sq), dice=sum(roll["dice"][:DERIVED["white"](cfg)])),
                       event=("paid", {"kind": "rent", "debtor": a}))
    return example


rent_street.examples(_rent_example("street"))
rent_station.examples(_rent_example("station"))
rent_utility.examples(_rent_example("utility"))


@free_parking.examples
def _free_parking_example(cfg, base, rnd):
    s, a = someone(cfg, base, rnd)
    s["pot"] = cfg.setup.scale * rnd.choice([0, 50, 500])
    roll = roll_onto(cfg, s, a, squares_of(cfg, "free_parking")[0], rnd)
    return None if roll is None else Example(s, (roll,), dict(a=a))
