"""One transition per action: a guard over the state before and the state after, from the config.

Each action takes symbolic arguments (the acting seat ``a``, another seat
``b``, a deed index ``sq``, an amount ...) and returns ``(guard, after)``:
``guard`` says when the rules allow the action, ``after`` is the new state as
expressions of the old one. Rule values are compiled in as constants, so the
formula of an action is the same for every ruleset that agrees on the values
it reads.

The guards and effects follow the rules as the reference engine implements
them (``verify.engine``): the two are checked against each other by the
differential tests. What the model leaves out is listed in ``NOT_MODELLED``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

import z3

from . import terms as T
from ..invariants import NOBODY
from .model import Model
from .state import SymState

#: Rule details that do not change assets and are therefore not part of the transitions.
NOT_MODELLED = (
    "turn phases and timing (building.timing, mortgage.timing, trade.timing, per-turn limits)",
    "the amount of a debt that leads to bankruptcy is any amount the debtor cannot raise",
    "a payment is made when the cash covers it, otherwise it is a debt raised later: so a won auction "
    "above the winner's cash (auction.bid_above_cash) is paid once raised, like rent",
)


def _round(x: float) -> int:
    """Money is whole; half rounds up (as verify.config)."""
    return int(x + 0.5 + 1e-9)


def ite(c: Any, a: Any, b: Any) -> Any:
    """z3.If that folds a Python condition (the acting seat is a Python int, see Args)."""
    if isinstance(c, bool):
        return a if c else b
    return T.ite(c, a, b)


def pick(idx: Any, values: list) -> Any:
    """``values[idx]`` for a symbolic index (an If-chain; the last value is the default)."""
    if isinstance(idx, int):
        return values[idx]
    out = values[-1]
    for i in range(len(values) - 2, -1, -1):
        out = T.ite(T.eq(idx, i), values[i], out)
    return out


def _all(xs) -> Any:
    xs = [T.as_term(x) for x in xs]
    return T.and_(xs) if xs else T.TRUE


def _any(xs) -> Any:
    xs = [T.as_term(x) for x in xs]
    return T.or_(xs) if xs else T.FALSE


@dataclass(frozen=True)
class Args:
    """The symbolic arguments of one action (fresh per action, stable names)."""

    a: Any       # acting seat (buyer, payer, builder, debtor, proposer): always seat 0
    b: Any       # other seat (owner paid, creditor, trade partner, decliner)
    sq: Any      # deed index 0..27
    sq2: Any     # second deed (trades)
    amt: Any     # an amount (bid, debt, tax, trade cash)
    dice: Any    # dice total (utility rent)
    f1: Any      # flags (trade: what changes hands)
    f2: Any
    f3: Any
    f4: Any
    f5: Any
    f6: Any

    @classmethod
    def fresh(cls, name: str, m: Model | None = None) -> "Args":
        """Fresh arguments. The rules are symmetric in the seats, so the acting player is seat 0
        and the other party seat 1 (any seat but 0 in team games, where seats are not all alike):
        constants instead of If-chains over seats make every query much smaller."""
        i = lambda n: z3.Int(f"{name}.{n}")   # noqa: E731
        b = lambda n: z3.Bool(f"{name}.{n}")  # noqa: E731
        other = i("b") if (m is not None and m.teams) else 1
        return cls(0, other, i("sq"), i("sq2"), i("amt"), i("dice"),
                   b("f1"), b("f2"), b("f3"), b("f4"), b("f5"), b("f6"))


@dataclass(frozen=True)
class Action:
    name: str
    title: str
    build: Callable[[Model, SymState, Args], tuple[Any, SymState]]
    disabled: Callable[[Model], str | None] = lambda m: None   # why the ruleset has no such action
    bank_free: bool = False                                     # the bank takes no part


# ---- small helpers over the state ----------------------------------------------------

def seat_ok(m: Model, x) -> Any:
    if isinstance(x, int):
        return z3.BoolVal(0 <= x < m.players)
    return T.and_([T.ge(x, 0), T.lt(x, m.players)])


def pf(s: SymState, seat, field: str) -> Any:
    """A player's field for a symbolic seat."""
    return pick(seat, [getattr(p, field) for p in s.players])


def active(s: SymState, seat) -> Any:
    return T.not_(pf(s, seat, "bankrupt"))


def add_cash(s: SymState, seat, delta) -> SymState:
    ps = s
    for p in s.players:
        ps = ps.with_player(p.seat, cash=T.add(p.cash, ite(T.eq(seat, p.seat), delta, 0)))
    return ps


def bank_gets(s: SymState, amount) -> SymState:
    return replace(s, bank_cash=s.bank_cash + amount)


def level(m: Model, p) -> Any:
    """Evenness level of a street: its houses, or one above the houses a hotel needs."""
    return ite(p.hotel, m.config.building.hotel_threshold + 1, p.houses)


def no_buildings(p) -> Any:
    return T.and_([T.eq(p.houses, 0), T.not_(p.hotel)])


def streets(m: Model) -> list[int]:
    return [i for i, d in enumerate(m.deeds) if d.kind == "street"]


def sell_refund(m: Model, i: int) -> int:
    return _round(m.deeds[i].house_cost * m.config.building.sell_ratio)


def hotel_refund(m: Model, i: int) -> int:
    """A hotel sold back with the street's buildings: one house value for the hotel plus one for each
    house handed in for it (when building a hotel returns the houses)."""
    b = m.config.building
    return sell_refund(m, i) * (1 + (b.hotel_threshold if b.hotel_returns_houses else 0))


def building_sale(m: Model, p) -> Any:
    """Cash from selling every building on street ``p`` back to the bank."""
    return p.houses * sell_refund(m, p.index) + p.hotels * hotel_refund(m, p.index)


def mortgage_interest(m: Model, i: int, base: str | None = None) -> int:
    d = m.deeds[i]
    b = d.price if (base or m.config.mortgage.interest_base) == "price" else d.mortgage
    return _round(b * m.config.mortgage.interest_rate)


def may_manage(m: Model, s: SymState, a) -> Any:
    return z3.BoolVal(True) if m.config.jail.may_manage else z3.Not(pf(s, a, "in_jail"))


def liquidation(m: Model, s: SymState, a) -> Any:
    """What a player could raise by selling every building and mortgaging every deed."""
    terms = []
    for p in s.props:
        i = p.index
        v = ite(p.mortgaged, 0, m.deeds[i].mortgage)
        if p.kind == "street":
            v = v + building_sale(m, p)
        terms.append(ite(p.owner == a, v, 0))
    return z3.Sum(terms)


def _building_value(m: Model, p, ratio: float = 1.0, hotel_houses: bool = True) -> Any:
    """What the buildings on a street cost to put up (a hotel counts the houses handed in for it, unless
    ``hotel_houses`` is false: then a hotel is worth its own price)."""
    b = m.config.building
    c = _round(m.deeds[p.index].house_cost * ratio)
    extra = b.hotel_threshold if hotel_houses and b.hotel_returns_houses else 0
    return p.houses * c + p.hotels * (c * (1 + extra))


def worth(m: Model, s: SymState, a) -> Any:
    """Net worth as the end of the game counts it (the bankruptcy threshold debt_exceeds_worth)."""
    e = m.config.end
    terms = [pf(s, a, "cash")]
    for p in s.props:
        d = m.deeds[p.index]
        v = ite(p.mortgaged, _round(d.price * e.networth_mortgaged), d.price)
        if p.kind == "street":
            v = v + _building_value(m, p, e.networth_buildings)
        terms.append(ite(p.owner == a, v, 0))
    return z3.Sum(terms)


def tax_worth(m: Model, s: SymState, a) -> Any:
    """Total worth for the income tax option: cash, printed prices, buildings at cost (a hotel with the
    houses handed in for it, or alone: tax.worth_hotel)."""
    t = m.config.taxes
    hotel_houses = t.worth_hotel == "price_and_converted_houses"
    terms = [pf(s, a, "cash")]
    for p in s.props:
        d = m.deeds[p.index]
        v = d.price if t.worth_counts_mortgaged_at_printed else ite(p.mortgaged, d.price - d.mortgage, d.price)
        if p.kind == "street":
            v = v + _building_value(m, p, hotel_houses=hotel_houses)
        terms.append(ite(p.owner == a, v, 0))
    return z3.Sum(terms)


# ---- rent -------------------------------------------------------------------------------

def street_rent(m: Model, s: SymState, i: int) -> Any:
    d, p, r = m.deeds[i], s.props[i], m.config.rent
    mates = [s.props[t] for t in m.group_members(i)]
    bonus = _all([t.owner == p.owner for t in mates])
    if not r.group_bonus_with_buildings:
        bonus = z3.And(bonus, _all([no_buildings(t) for t in mates]))
    if not r.group_bonus_with_mortgaged_mate:
        bonus = z3.And(bonus, _all([z3.Not(t.mortgaged) for t in mates]))
    rent = ite(bonus, d.rents[0] * r.group_multiplier, d.rents[0])
    for k in range(m.config.building.max_houses, 0, -1):
        rent = ite(p.houses == k, d.rents[min(k, 4)], rent)
    return ite(p.hotel, d.rents[5], rent)


def owned_count(s: SymState, owner, kind: str) -> Any:
    return z3.Sum([ite(p.owner == owner, 1, 0) for p in s.props if p.kind == kind])


def station_rent(m: Model, s: SymState, i: int) -> Any:
    n = owned_count(s, s.props[i].owner, "station")
    sched = list(m.config.rent.station_schedule)
    return pick(n - 1, sched)


def utility_rent(m: Model, s: SymState, i: int, dice) -> Any:
    n = owned_count(s, s.props[i].owner, "utility")
    mult = list(m.config.rent.utility_multipliers)
    return pick(n - 1, mult) * dice


def _rent_action(kind: str):
    def build(m: Model, s: SymState, x: Args):
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
        guard = [seat_ok(m, x.a), owner >= 0, owner != x.a, active(s, x.a), _any(cases),
                 pf(s, x.a, "cash") >= rent]
        if kind == "utility":
            guard += [x.dice >= min(2, dice_lo), x.dice <= max(12, dice_hi)]
        if not r.jailed_owner_collects:
            guard.append(z3.Not(pf(s, owner, "in_jail")))
        if m.teams and not m.config.teams.teammates_pay_rent:
            guard.append(pick(x.a, [p.team for p in s.players]) != pick(owner, [p.team for p in s.players]))
        if r.tax_enabled:
            guard += [tax >= 0, tax <= rent]   # the share the late-game rent tax takes (to the bank)
        else:
            guard.append(tax == 0)
        after = add_cash(s, x.a, -rent)
        after = add_cash(after, owner, rent - tax)
        after = bank_gets(after, tax)
        return _all(guard), after
    return build


# ---- purchase -----------------------------------------------------------------------------

def _set_prop(s: SymState, sq, **fields) -> SymState:
    """For a symbolic deed index: every deed gets If(sq == i, new, old) per field."""
    out = s
    for p in s.props:
        kw = {}
        for f, v in fields.items():
            new = v(p) if callable(v) else v
            kw[f] = ite(T.eq(sq, p.index), new, getattr(p, f))
        out = out.with_prop(p.index, **kw)
    return out


def buy(m: Model, s: SymState, x: Args):
    price = pick(x.sq, [d.price for d in m.deeds])
    guard = [seat_ok(m, x.a), x.sq >= 0, x.sq < 28, active(s, x.a),
             pick(x.sq, [p.owner for p in s.props]) == NOBODY, pf(s, x.a, "cash") >= price]
    after = _set_prop(s, x.sq, owner=x.a)
    after = bank_gets(add_cash(after, x.a, -price), price)
    return _all(guard), after


def auction_settle(m: Model, s: SymState, x: Args):
    pc = m.config.purchase
    opening = pick(x.sq, [d.price for d in m.deeds]) if pc.opening == "printed_price" else pc.opening_amount
    guard = [seat_ok(m, x.a), x.sq >= 0, x.sq < 28, active(s, x.a),
             pick(x.sq, [p.owner for p in s.props]) == NOBODY,
             x.amt >= opening, pf(s, x.a, "cash") >= x.amt, seat_ok(m, x.b)]
    if pc.auction_bidders == "others_only":
        guard.append(x.a != x.b)          # b declined to buy and may not bid
    after = _set_prop(s, x.sq, owner=x.a)
    after = bank_gets(add_cash(after, x.a, -x.amt), x.amt)
    return _all(guard), after


# ---- buildings ------------------------------------------------------------------------------

def _group_ok(m: Model, s: SymState, i: int, a) -> list:
    b = m.config.building
    mates = [s.props[t] for t in m.group_members(i)]
    out = [s.props[i].owner == a, z3.Not(s.props[i].mortgaged)]
    if b.requires_full_group:
        out.append(_all([t.owner == a for t in mates]))
    if b.blocked_by_mortgage:
        out.append(_all([z3.Not(t.mortgaged) for t in mates]))
    return out


def _on_street(m: Model, x: Args, per_street: Callable[[int], list]) -> Any:
    return _any([T.and_([T.eq(x.sq, i), _all(per_street(i))]) for i in streets(m)])


def _bank_stock(s: SymState, field: str, delta) -> SymState:
    cur = getattr(s, field)
    return s if cur is None else replace(s, **{field: cur + delta})


def build_house(m: Model, s: SymState, x: Args):
    b = m.config.building

    def ok(i):
        p = s.props[i]
        mates = [s.props[t] for t in m.group_members(i)]
        c = _group_ok(m, s, i, x.a) + [z3.Not(p.hotel), p.houses < b.max_houses,
                                       pf(s, x.a, "cash") >= m.deeds[i].house_cost]
        if b.even_build:
            c.append(_all([level(m, p) <= level(m, t) for t in mates]))
        return c

    cost = pick(x.sq, [d.house_cost for d in m.deeds])
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), _on_street(m, x, ok)]
    if s.bank_houses is not None:
        guard.append(s.bank_houses >= 1)
    after = _set_prop(s, x.sq, houses=lambda p: p.houses + 1)
    if m.extra("building.supply_accounting") != "builds_not_taken_from_stock":
        after = _bank_stock(after, "bank_houses", -1)
    after = bank_gets(add_cash(after, x.a, -cost), cost)
    return _all(guard), after


def build_hotel(m: Model, s: SymState, x: Args):
    b = m.config.building

    def ok(i):
        p = s.props[i]
        mates = [s.props[t] for t in m.group_members(i)]
        c = _group_ok(m, s, i, x.a) + [z3.Not(p.hotel), p.houses >= b.hotel_threshold,
                                       pf(s, x.a, "cash") >= m.deeds[i].house_cost]
        if b.hotel_needs_whole_group:
            c.append(_all([z3.Or(t.hotel, t.houses >= b.hotel_threshold) for t in mates]))
        if b.even_build:   # the street built on is among the lowest of its group
            c.append(_all([level(m, p) <= level(m, t) for t in mates]))
        return c

    cost = pick(x.sq, [d.house_cost for d in m.deeds])
    returned = pick(x.sq, [p.houses for p in s.props]) if b.hotel_returns_houses else 0
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), _on_street(m, x, ok)]
    if s.bank_hotels is not None:
        guard.append(s.bank_hotels >= 1)
    after = _set_prop(s, x.sq, hotels=1, **({"houses": 0} if b.hotel_returns_houses else {}))
    if m.extra("building.supply_accounting") != "builds_not_taken_from_stock":
        after = _bank_stock(after, "bank_hotels", -1)
    if b.hotel_returns_houses:
        after = _bank_stock(after, "bank_houses", returned)
    after = bank_gets(add_cash(after, x.a, -cost), cost)
    return _all(guard), after


def sell_house(m: Model, s: SymState, x: Args):
    b = m.config.building

    def ok(i):
        p = s.props[i]
        mates = [s.props[t] for t in m.group_members(i)]
        c = [p.owner == x.a, p.houses >= 1]
        if b.hotel_returns_houses:
            c.append(z3.Not(p.hotel))
        if b.even_sell:
            c.append(_all([z3.Or(t.index == p.index, level(m, t) <= p.houses) for t in mates]))
        return c

    refund = pick(x.sq, [sell_refund(m, i) for i in range(28)])
    guard = [seat_ok(m, x.a), active(s, x.a), _on_street(m, x, ok)]
    after = _set_prop(s, x.sq, houses=lambda p: p.houses - 1)
    if m.extra("building.supply_accounting") != "sold_buildings_vanish":
        after = _bank_stock(after, "bank_houses", 1)
    after = bank_gets(add_cash(after, x.a, refund), -refund)
    return _all(guard), after


def sell_group(m: Model, s: SymState, x: Args):
    """Every building of the group of street ``sq`` sold back at once (keeps the group even)."""
    def ok(i):
        mates = [s.props[t] for t in m.group_members(i)]
        return [_any([z3.And(t.owner == x.a, z3.Not(no_buildings(t))) for t in mates]),
                _all([z3.Or(no_buildings(t), t.owner == x.a) for t in mates])]

    guard = [seat_ok(m, x.a), active(s, x.a), _on_street(m, x, ok)]
    after, houses, hotels, refund = s, [], [], []
    for p in s.props:
        if p.kind != "street":
            continue
        in_group = _any([x.sq == j for j in m.group_members(p.index)])
        gone_h, gone_t = ite(in_group, p.houses, 0), ite(in_group, p.hotels, 0)
        houses.append(gone_h)
        hotels.append(gone_t)
        refund.append(ite(in_group, building_sale(m, p), 0))
        after = after.with_prop(p.index, houses=p.houses - gone_h, hotels=p.hotels - gone_t)
    if m.extra("building.supply_accounting") != "sold_buildings_vanish":
        after = _bank_stock(after, "bank_houses", z3.Sum(houses))
        after = _bank_stock(after, "bank_hotels", z3.Sum(hotels))
    total = z3.Sum(refund)
    after = bank_gets(add_cash(after, x.a, total), -total)
    return _all(guard), after


def break_down_hotel(m: Model, s: SymState, x: Args):
    """One 'house' sold from a hotel: the hotel goes back and the street holds the houses a hotel needs."""
    b = m.config.building

    def ok(i):
        p = s.props[i]
        return [p.owner == x.a, p.hotel]

    refund = pick(x.sq, [sell_refund(m, i) for i in range(28)])
    guard = [seat_ok(m, x.a), active(s, x.a), _on_street(m, x, ok)]
    if b.hotel_returns_houses:
        if s.bank_houses is not None:
            guard.append(s.bank_houses >= b.hotel_threshold)
        after = _set_prop(s, x.sq, hotels=0, houses=lambda p: p.houses + b.hotel_threshold)
        if m.extra("building.supply_accounting") != "builds_not_taken_from_stock":
            after = _bank_stock(after, "bank_houses", -b.hotel_threshold)
    else:
        after = _set_prop(s, x.sq, hotels=0)
    if m.extra("building.supply_accounting") != "sold_buildings_vanish":
        after = _bank_stock(after, "bank_hotels", 1)
    after = bank_gets(add_cash(after, x.a, refund), -refund)
    return _all(guard), after


def destroy_building(m: Model, s: SymState, x: Args):
    """The card that destroys a building of the drawer's (or of an opponent's, cards.building_destroy_target):
    it returns to the bank, no refund."""
    opponent = m.config.cards.building_destroy_target == "opponent"
    team = lambda seat: pick(seat, [q.team for q in s.players])  # noqa: E731

    def ok(i):
        p = s.props[i]
        if opponent:
            whose = [p.owner >= 0, p.owner != x.a]
            if m.teams:
                whose.append(team(p.owner) != team(x.a))
        else:
            whose = [p.owner == x.a]
        return whose + [z3.Or(p.hotel, p.houses >= 1)]

    hotel = pick(x.sq, [p.hotel for p in s.props])
    guard = [seat_ok(m, x.a), active(s, x.a), _on_street(m, x, ok)]
    after = _set_prop(s, x.sq, hotels=lambda p: ite(p.hotel, p.hotels - 1, p.hotels),
                      houses=lambda p: ite(p.hotel, p.houses, p.houses - 1))
    if m.extra("building.supply_accounting") != "sold_buildings_vanish":
        after = _bank_stock(after, "bank_hotels", ite(hotel, 1, 0))
        after = _bank_stock(after, "bank_houses", ite(hotel, 0, 1))
    return _all(guard), after


# ---- mortgages --------------------------------------------------------------------------------

def mortgage(m: Model, s: SymState, x: Args):
    mc = m.config.mortgage

    def ok(i):
        p = s.props[i]
        c = [p.owner == x.a, z3.Not(p.mortgaged), no_buildings(p)]
        if mc.requires_no_buildings_in_group and p.kind == "street":
            c.append(_all([no_buildings(s.props[t]) for t in m.group_members(i)]))
        return c

    value = pick(x.sq, [d.mortgage for d in m.deeds])
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a),
             _any([z3.And(x.sq == i, _all(ok(i))) for i in range(28)])]
    after = _set_prop(s, x.sq, mortgaged=True, mrounds=0)
    after = bank_gets(add_cash(after, x.a, value), -value)
    return _all(guard), after


def unmortgage(m: Model, s: SymState, x: Args):
    """Lift a mortgage: value plus interest; f1: the deed was just received (its transfer interest paid)
    and is lifted at once, which costs the principal alone where mortgage.transfer_lift_at_once says so
    (the state does not record receipts, so f1 is free: any mortgaged deed may be one)."""
    mc = m.config.mortgage
    cost = pick(x.sq, [m.deeds[i].mortgage + mortgage_interest(m, i) for i in range(28)])
    if mc.transfer_interest and mc.transfer_lift_at_once == "principal_only":
        cost = ite(x.f1, pick(x.sq, [d.mortgage for d in m.deeds]), cost)
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), x.sq >= 0, x.sq < 28,
             pick(x.sq, [p.owner for p in s.props]) == x.a, pick(x.sq, [p.mortgaged for p in s.props]),
             pf(s, x.a, "cash") >= cost]
    after = _set_prop(s, x.sq, mortgaged=False, mrounds=0)
    after = bank_gets(add_cash(after, x.a, -cost), cost)
    return _all(guard), after


def mortgage_expiry(m: Model, s: SymState, x: Args):
    """An unlifted mortgage is forfeited and auctioned: `a` wins for `amt`, or (f1) nobody bids."""
    mc = m.config.mortgage
    owner = pick(x.sq, [p.owner for p in s.props])
    opening = pick(x.sq, [d.price for d in m.deeds]) if mc.expiry_auction_opening is None \
        else mc.expiry_auction_opening
    guard = [x.sq >= 0, x.sq < 28, owner >= 0, pick(x.sq, [p.mortgaged for p in s.props]),
             pick(x.sq, [p.mrounds for p in s.props]) >= (mc.expiry_rounds or 0)]
    won = z3.And(seat_ok(m, x.a), active(s, x.a), x.amt >= opening, pf(s, x.a, "cash") >= x.amt)
    if not mc.expiry_auction_owner_bids:
        won = z3.And(won, x.a != owner)
    guard.append(z3.Or(x.f1, won))
    winner = ite(x.f1, NOBODY, x.a)
    paid = ite(x.f1, 0, x.amt)
    after = _set_prop(s, x.sq, owner=winner, mortgaged=False, mrounds=0)
    after = bank_gets(add_cash(after, winner, -paid), paid)
    return _all(guard), after


# ---- trades ------------------------------------------------------------------------------------

def _balanced(m: Model, s: SymState, x: Args, team) -> Any:
    """The trade balance limits: the two sides' values (cash, printed price or mortgage value of each
    deed, the jail fine per card) may differ by at most a share of the larger, or a ratio."""
    t, fine = m.config.trade, m.config.jail.fine
    deed_value = lambda idx: pick(idx, [ite(p.mortgaged, m.deeds[p.index].mortgage, m.deeds[p.index].price)  # noqa
                                        for p in s.props])
    side_a = ite(x.amt > 0, x.amt, 0) + ite(x.f1, deed_value(x.sq), 0) + ite(x.f3, fine, 0) + ite(x.f4, fine, 0)
    side_b = ite(x.amt < 0, -x.amt, 0) + ite(x.f2, deed_value(x.sq2), 0) + ite(x.f5, fine, 0) + ite(x.f6, fine, 0)
    hi, lo = ite(side_a >= side_b, side_a, side_b), ite(side_a >= side_b, side_b, side_a)
    ok = []
    if t.max_value_gap is not None:
        g = Fraction(t.max_value_gap).limit_denominator(10000)
        ok.append((hi - lo) * g.denominator <= hi * g.numerator)
    if t.max_value_ratio is not None:
        ok.append(hi <= lo * t.max_value_ratio)
    cond = _all(ok)
    if t.teammates_skip_balance and m.teams:
        cond = z3.Or(cond, team(x.a) == team(x.b))
    return cond


def trade(m: Model, s: SymState, x: Args):
    """`a` gives deed `sq` (f1) and gets deed `sq2` (f2) from `b`; `amt` cash from a to b (negative:
    b pays a); f3..f6: a's Chance card, a's Chest card, b's Chance card, b's Chest card change hands."""
    t, mc = m.config.trade, m.config.mortgage
    team = lambda seat: pick(seat, [p.team for p in s.players])  # noqa: E731

    def movable(idx, giver, receiver):
        cases = []
        for p in s.props:
            i = p.index
            c = [p.owner == giver]
            if p.kind == "street":
                if t.building_lock == "whole_group":
                    c.append(_all([no_buildings(s.props[k]) for k in m.group_members(i)]))
                else:
                    c.append(no_buildings(p))
            if t.mortgaged == "forbidden":
                c.append(z3.Not(p.mortgaged))
            elif t.mortgaged == "teammates_only":
                c.append(z3.Or(z3.Not(p.mortgaged), team(giver) == team(receiver)))
            cases.append(z3.And(idx == i, _all(c)))
        return _any(cases)

    def interest(idx, base=None):
        return pick(idx, [ite(s.props[i].mortgaged, mortgage_interest(m, i), 0) if mc.transfer_interest else 0
                          for i in range(28)])

    give, take = x.f1, x.f2
    # the receiver of a mortgaged deed owes the interest at once: paid now when the cash (after the
    # trade's cash moved) covers it, else left as a debt to the bank (the engine's debt queue)
    due_b = ite(give, interest(x.sq), 0)
    due_a = ite(take, interest(x.sq2), 0)
    settle = not m.config.debt.explicit_payment_step
    # b's deed is handed over first; once a debt is queued, later charges queue behind it
    b_settles = z3.And(settle, pf(s, x.b, "cash") + x.amt >= due_b)
    fee_b = ite(b_settles, due_b, 0)
    fee_a = ite(z3.And(settle, z3.Or(due_b == 0, b_settles), pf(s, x.a, "cash") - x.amt >= due_a), due_a, 0)
    cards = [x.f3, x.f4, x.f5, x.f6]
    guard = [seat_ok(m, x.a), seat_ok(m, x.b), x.a != x.b, active(s, x.a), active(s, x.b),
             may_manage(m, s, x.a), may_manage(m, s, x.b),
             z3.Implies(give, movable(x.sq, x.a, x.b)), z3.Implies(take, movable(x.sq2, x.b, x.a)),
             z3.Implies(z3.And(give, take), x.sq != x.sq2),
             pf(s, x.a, "cash") - x.amt >= 0, pf(s, x.b, "cash") + x.amt >= 0,
             z3.Implies(x.f3, pf(s, x.a, "chance")), z3.Implies(x.f4, pf(s, x.a, "chest")),
             z3.Implies(x.f5, pf(s, x.b, "chance")), z3.Implies(x.f6, pf(s, x.b, "chest"))]
    if not t.loans:   # no gifts: each side gives something
        guard += [_any([give, x.f3, x.f4, x.amt > 0]), _any([take, x.f5, x.f6, x.amt < 0])]
    if t.max_value_gap is not None or t.max_value_ratio is not None:
        guard.append(_balanced(m, s, x, team))
    if not m.config.jail.buy_card_from_player:
        guard += [z3.Implies(_any([x.f3, x.f4]), z3.Not(pf(s, x.b, "in_jail"))),
                  z3.Implies(_any([x.f5, x.f6]), z3.Not(pf(s, x.a, "in_jail")))]
    if not t.allowed:
        guard.append(z3.BoolVal(False))
    if not t.cash:
        guard.append(x.amt == 0)
    if not (t.jail_cards and m.config.cards.jail_card_tradeable):
        guard += [z3.Not(c) for c in cards]
    after = s
    for p in s.props:
        new_owner = ite(z3.And(give, x.sq == p.index), x.b, ite(z3.And(take, x.sq2 == p.index), x.a, p.owner))
        after = after.with_prop(p.index, owner=new_owner)
    for p in s.players:
        me_a, me_b = x.a == p.seat, x.b == p.seat
        chance = ite(me_a, ite(x.f3, False, z3.Or(p.chance, x.f5)),
                       ite(me_b, ite(x.f5, False, z3.Or(p.chance, x.f3)), p.chance))
        chest = ite(me_a, ite(x.f4, False, z3.Or(p.chest, x.f6)),
                      ite(me_b, ite(x.f6, False, z3.Or(p.chest, x.f4)), p.chest))
        after = after.with_player(p.seat, chance=chance, chest=chest)
    after = add_cash(after, x.a, -x.amt - fee_a)
    after = add_cash(after, x.b, x.amt - fee_b)
    after = bank_gets(after, fee_a + fee_b)
    return _all(guard), after


# ---- cards and taxes ---------------------------------------------------------------------------

def _deck_cards(m: Model, effect: str) -> list:
    return [c for c in tuple(m.config.cards.chance) + tuple(m.config.cards.chest) if c.effect == effect]


def card_repairs(m: Model, s: SymState, x: Args):
    """Pay the bank per house and per hotel owned (a card payment: into the Free Parking pot only where card
    payments go there, free_parking.pot_card_payments); `amt` selects the card."""
    cards = _deck_cards(m, "repairs")
    houses = z3.Sum([ite(p.owner == x.a, p.houses, 0) for p in s.props if p.kind == "street"])
    hotels = z3.Sum([ite(p.owner == x.a, p.hotels, 0) for p in s.props if p.kind == "street"])
    choices = [z3.And(x.amt == k, x.dice == c.house * houses + c.hotel * hotels) for k, c in enumerate(cards)]
    due = x.dice
    guard = [seat_ok(m, x.a), active(s, x.a), _any(choices), pf(s, x.a, "cash") >= due]
    after = add_cash(s, x.a, -due)
    if m.config.taxes.pot_card_payments:      # card payments are pot money too (free_parking.pot_card_payments)
        return _all(guard), _to_pot_or_bank(m, after, due)
    return _all(guard), bank_gets(after, due)


def _to_pot_or_bank(m: Model, s: SymState, amount) -> SymState:
    if m.config.taxes.free_parking_pot:
        return replace(s, pot=s.pot + amount)
    return bank_gets(s, amount)


def card_each_player(m: Model, s: SymState, x: Args):
    """Pay every other player in the game `k`, or (a positive card) collect `k` from each."""
    cards = _deck_cards(m, "each_player")
    others = [z3.And(p.seat != x.a, z3.Not(p.bankrupt)) for p in s.players]
    k = x.amt
    total = z3.Sum([ite(o, k, 0) for o in others])     # what a gains (negative: pays)
    guard = [seat_ok(m, x.a), active(s, x.a), _any([k == c.amount for c in cards])]
    # a payer must cover the whole payment; each payer in a collect card must cover theirs
    guard.append(pf(s, x.a, "cash") + total >= 0)
    guard += [z3.Implies(z3.And(k > 0, o), p.cash >= k) for o, p in zip(others, s.players)]
    after = s
    for o, p in zip(others, s.players):
        after = after.with_player(p.seat, cash=after.players[p.seat].cash + ite(o, -k, 0))
    after = add_cash(after, x.a, total)
    return _all(guard), after


def tax(m: Model, s: SymState, x: Args):
    """Income or luxury tax (or the worth-share option of income tax) to the bank, or to the pot."""
    tx = m.config.taxes
    options = [x.amt == tx.income, x.amt == tx.luxury]
    if tx.income_percent is not None:
        base = tax_worth(m, s, x.a)
        options.append(z3.And(x.amt * 1000 <= base * int(round(tx.income_percent * 1000)) + 999,
                              x.amt * 1000 >= base * int(round(tx.income_percent * 1000)) - 999, x.amt >= 0))
    guard = [seat_ok(m, x.a), active(s, x.a), _any(options), pf(s, x.a, "cash") >= x.amt]
    after = add_cash(s, x.a, -x.amt)
    after = _to_pot_or_bank(m, after, x.amt)
    return _all(guard), after


# ---- bankruptcy -----------------------------------------------------------------------------------

def _cannot_pay(m: Model, s: SymState, a, debt) -> Any:
    """The debtor may declare bankruptcy: the debt exceeds the cash, cannot be raised by selling and
    mortgaging (debt.raise_cash_first), and, under debt_exceeds_worth, exceeds the debtor's total worth
    (a debtor whose worth covers the debt must raise it, by trading too, or give up)."""
    d = m.config.debt
    cond = [pf(s, a, "cash") < debt]
    if d.raise_cash_first:
        cond.append(pf(s, a, "cash") + liquidation(m, s, a) < debt)
    if d.threshold == "debt_exceeds_worth":
        cond.append(debt > worth(m, s, a))
    return _all(cond)


def _strip_debtor(m: Model, s: SymState, a, cards_to=None) -> SymState:
    """The debtor is out: no cash, no cards; cards go to `cards_to` or back to their decks."""
    out = s
    give_chance, give_chest = pf(s, a, "chance"), pf(s, a, "chest")
    for p in s.players:
        me = a == p.seat
        chance, chest = ite(me, False, p.chance), ite(me, False, p.chest)
        if cards_to is not None:
            chance = ite(cards_to == p.seat, z3.Or(chance, give_chance), chance)
            chest = ite(cards_to == p.seat, z3.Or(chest, give_chest), chest)
        out = out.with_player(p.seat, cash=ite(me, 0, out.players[p.seat].cash),
                              bankrupt=z3.Or(me, p.bankrupt), in_jail=ite(me, False, p.in_jail),
                              chance=chance, chest=chest)
    return out


def _buildings_to_bank(m: Model, s: SymState, a) -> tuple[SymState, Any]:
    """Every building of `a` returns to the bank; returns the new state and their sale value."""
    out, houses, hotels, value = s, [], [], []
    for p in s.props:
        if p.kind != "street":
            continue
        mine = p.owner == a
        # what leaves the street is one term, subtracted here and added to the bank: the supply
        # sums then cancel term by term, which the solver sees at once
        gone_h, gone_t = ite(mine, p.houses, 0), ite(mine, p.hotels, 0)
        houses.append(gone_h)
        hotels.append(gone_t)
        value.append(ite(mine, building_sale(m, p), 0))
        out = out.with_prop(p.index, houses=p.houses - gone_h, hotels=p.hotels - gone_t)
    if m.extra("building.supply_accounting") != "sold_buildings_vanish":
        out = _bank_stock(out, "bank_houses", z3.Sum(houses))
        out = _bank_stock(out, "bank_hotels", z3.Sum(hotels))
    return out, z3.Sum(value)


def bankrupt_to_player(m: Model, s: SymState, x: Args):
    """The debtor `a` cannot pay `amt` to `b`: cash, buildings and deeds go where the ruleset says.
    Interest on inherited mortgages is the creditor's debt to the bank: paid at once while affordable."""
    d = m.config.debt
    a, c = x.a, x.b
    guard = [seat_ok(m, a), seat_ok(m, c), a != c, active(s, a), active(s, c), x.amt > 0,
             _cannot_pay(m, s, a, x.amt)]
    debtor_cash = pf(s, a, "cash")
    unmortgaged_value = z3.Sum([ite(z3.And(p.owner == a, z3.Not(p.mortgaged)), m.deeds[p.index].mortgage, 0)
                                for p in s.props])
    after, value = _buildings_to_bank(m, s, a)
    dropped = m.extra("bankruptcy.to_player_mortgaged") == "dropped"
    for p in s.props:
        mine = p.owner == a
        stays = z3.And(mine, p.mortgaged) if dropped else z3.BoolVal(False)
        moves = z3.And(mine, z3.Not(stays))
        if d.to_player_properties == "creditor":
            after = after.with_prop(p.index, owner=ite(moves, c, p.owner))
        else:   # bank_unowned / bank_auction: back to the bank (then auctioned as any unowned deed)
            after = after.with_prop(p.index, owner=ite(moves, NOBODY, p.owner),
                                    mortgaged=ite(moves, False, p.mortgaged),
                                    mrounds=ite(moves, 0, p.mrounds))
    if d.to_player_cash == "proceeds_to_creditor":
        proceeds = debtor_cash + value + unmortgaged_value
        paid = ite(proceeds < x.amt, proceeds, x.amt)
        to_creditor, bank_delta = paid, debtor_cash - paid
    else:
        proceeds = value if d.to_player_buildings == "sold_half_to_creditor" else z3.IntVal(0)
        to_creditor, bank_delta = debtor_cash + proceeds, -proceeds
    after = _strip_debtor(m, after, a, c if d.to_player_jail_cards == "creditor" else None)
    after = add_cash(after, c, to_creditor)
    after = bank_gets(after, bank_delta)
    if d.to_player_properties == "creditor" and m.config.mortgage.transfer_interest \
            and not m.config.debt.explicit_payment_step and m.config.end.condition != "first_bankruptcy":
        # the interest on each inherited mortgage is a debt of the creditor to the bank, in square
        # order; each is settled at once while the cash covers it, the rest wait (the engine's queue)
        cash, going, paid_total = pf(after, c, "cash"), z3.BoolVal(True), []
        for p in s.props:
            fee = ite(z3.And(p.owner == a, p.mortgaged, z3.Not(z3.And(p.mortgaged, z3.BoolVal(dropped)))),
                      mortgage_interest(m, p.index, d.transfer_interest_base), 0)
            pay = ite(z3.And(going, cash >= fee), fee, 0)
            going = z3.And(going, cash >= fee)
            cash = cash - pay
            paid_total.append(pay)
        total = ite(_game_over_after(m, s, a), 0, z3.Sum(paid_total))   # a finished game settles nothing
        after = bank_gets(add_cash(after, c, -total), total)
    return _all(guard), after


def _game_over_after(m: Model, s: SymState, a) -> Any:
    """Does the game end when `a` leaves (one player or team left, or the first bankruptcy ends it)?"""
    e = m.config.end
    if e.condition == "first_bankruptcy":
        return z3.BoolVal(True)
    if not (e.condition == "last_standing" or e.last_standing_also):
        return z3.BoolVal(False)
    live = [(p.team, z3.And(p.seat != a, z3.Not(p.bankrupt))) for p in s.players]
    teams = sorted({t for t, _ in live})
    sides = [_any([alive for t, alive in live if t == team]) for team in teams]
    return z3.Sum([ite(x, 1, 0) for x in sides]) <= 1


def _to_bank(m: Model, s: SymState, a) -> SymState:
    d, t = m.config.debt, m.config.teams
    debtor_cash = pf(s, a, "cash")
    after, _ = _buildings_to_bank(m, s, a)
    heir = None
    if m.teams and (d.to_bank_properties == "teammate" or t.bankrupt_to_bank_teammate_inherits):
        my_team = pick(a, [p.team for p in s.players])
        heir = NOBODY
        for p in reversed(s.players):
            heir = ite(z3.And(p.seat != a, z3.Not(p.bankrupt), z3.IntVal(p.team) == my_team), p.seat, heir)
    keep_auctioned = d.to_bank_mortgages == "kept_on_auction" and d.to_bank_properties == "auction"
    keep_inherited = d.to_bank_mortgages != "cleared"
    for p in s.props:
        mine = p.owner == a
        if heir is None:
            owner, mortgaged = NOBODY, p.mortgaged if keep_auctioned else False
        else:
            inherited = heir >= 0
            owner = heir
            mortgaged = ite(inherited, p.mortgaged if keep_inherited else False,
                              p.mortgaged if keep_auctioned else False)
        after = after.with_prop(p.index, owner=ite(mine, owner, p.owner),
                                mortgaged=ite(mine, mortgaged, p.mortgaged))
    after = _strip_debtor(m, after, a, None)
    return bank_gets(after, debtor_cash)


def bankrupt_to_bank(m: Model, s: SymState, x: Args):
    guard = [seat_ok(m, x.a), active(s, x.a), x.amt > 0, _cannot_pay(m, s, x.a, x.amt)]
    return _all(guard), _to_bank(m, s, x.a)


def surrender(m: Model, s: SymState, x: Args):
    guard = [seat_ok(m, x.a), active(s, x.a)]
    return _all(guard), _to_bank(m, s, x.a)


# ---- casino, Free Parking, auctioning one's own mortgaged deed ------------------------------------

def casino_bet(m: Model, s: SymState, x: Args):
    """A casino bet on `amt` numbers: the stake to the bank, the bank's contribution to the jackpot;
    f1: the die shows a chosen number (the bank pays stake x N / numbers); f2: the jackpot is won."""
    c = m.config.casino
    k = x.amt
    guard = [seat_ok(m, x.a), active(s, x.a), k >= 1, k <= c.max_numbers, pf(s, x.a, "cash") >= c.stake]
    payout = pick(k - 1, [c.stake * c.payout_numerator // n for n in range(1, c.max_numbers + 1)])
    won = ite(x.f1, payout, 0)
    jackpot = s.jackpot + c.jackpot_contribution
    take = ite(z3.And(x.f2, jackpot > 0), jackpot, 0)
    after = add_cash(s, x.a, -c.stake + won + take)
    after = bank_gets(after, c.stake - c.jackpot_contribution - won)
    after = replace(after, jackpot=jackpot - take)
    return _all(guard), after


def free_parking(m: Model, s: SymState, x: Args):
    """Landing on Free Parking takes the pot."""
    guard = [seat_ok(m, x.a), active(s, x.a)]
    after = add_cash(s, x.a, s.pot)
    return _all(guard), replace(after, pot=0)


def auction_mortgaged(m: Model, s: SymState, x: Args):
    """An owner `a` auctions a mortgaged deed at once: the winner `b` (`a` too where the owner bids) pays
    `amt`, at least the opening (mortgage value, printed price or an amount), and owns it unmortgaged;
    the bank takes back its loan and the owner gets the rest, or the bank takes it all
    (mortgage.immediate_auction_proceeds). f1: nobody bids: the deed stays the owner's, still mortgaged,
    or the bank's, unowned."""
    mc = m.config.mortgage
    value = pick(x.sq, [d.mortgage for d in m.deeds])
    opening = {"mortgage_value": value, "printed_price": pick(x.sq, [d.price for d in m.deeds])}.get(
        mc.immediate_auction_opening, mc.immediate_auction_opening_amount)
    to_owner = mc.immediate_auction_proceeds == "owner_after_loan"
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), x.sq >= 0, x.sq < 28,
             pick(x.sq, [p.owner for p in s.props]) == x.a, pick(x.sq, [p.mortgaged for p in s.props])]
    won = z3.And(z3.Not(x.f1), seat_ok(m, x.b), active(s, x.b), x.amt >= opening, x.amt >= 1,
                 pf(s, x.b, "cash") >= x.amt)
    if not mc.immediate_auction_owner_bids:
        won = z3.And(won, x.b != x.a)
    guard.append(z3.Or(x.f1, won))
    unsold_owner = x.a if to_owner else NOBODY
    after = _set_prop(s, x.sq, owner=ite(x.f1, unsold_owner, x.b), mortgaged=z3.And(x.f1, to_owner), mrounds=0)
    paid = ite(x.f1, 0, x.amt)
    keep = ite(x.f1, 0, ite(x.amt < value, x.amt, value)) if to_owner else paid
    after = add_cash(after, x.b, -paid)
    after = add_cash(after, x.a, paid - keep)
    after = bank_gets(after, keep)
    return _all(guard), after


# ---- the action table -----------------------------------------------------------------------------

def _no_cards(effect: str):
    return lambda m: None if _deck_cards(m, effect) else f"no card in the decks has the {effect} effect"


ACTIONS: tuple[Action, ...] = (
    Action("buy", "buy the unowned deed landed on at its printed price", buy),
    Action("auction-settle", "an auction ends: the winner pays the bank its bid", auction_settle,
           lambda m: None if (m.config.purchase.on_decline == "auction"
                              or m.config.debt.to_player_properties == "bank_auction"
                              or m.config.debt.to_bank_properties == "auction") else "no rule starts an auction"),
    Action("rent-street", "pay rent for a street", _rent_action("street"), bank_free=True),
    Action("rent-station", "pay rent for a station", _rent_action("station"), bank_free=True),
    Action("rent-utility", "pay rent for a utility", _rent_action("utility"), bank_free=True),
    Action("build-house", "build a house", build_house),
    Action("build-hotel", "build a hotel", build_hotel),
    Action("sell-house", "sell a house back to the bank", sell_house),
    Action("sell-group", "sell every building of a colour group back at once", sell_group),
    Action("break-down-hotel", "break a hotel down into houses (one 'house' sold)", break_down_hotel),
    Action("mortgage", "mortgage a deed", mortgage),
    Action("unmortgage", "lift a mortgage (value plus interest)", unmortgage),
    Action("mortgage-expiry", "an unlifted mortgage is forfeited and auctioned", mortgage_expiry,
           lambda m: None if m.expiry_rounds is not None else "mortgages never expire"),
    Action("trade", "two players exchange deeds, cash and cards", trade,
           lambda m: None if m.config.trade.allowed else "trading is not allowed"),
    Action("card-repairs", "a repairs card: pay per house and hotel", card_repairs, _no_cards("repairs")),
    Action("card-each-player", "a card paid to or collected from every other player", card_each_player,
           _no_cards("each_player"), bank_free=True),
    Action("card-destroy-building", "a card destroys one of the drawer's buildings", destroy_building,
           lambda m: None if m.config.cards.building_destroy and _deck_cards(m, "destroy_building")
           else "no card destroys buildings"),
    Action("tax", "pay income or luxury tax", tax),
    Action("casino-bet", "a casino bet: stake, payout, jackpot", casino_bet,
           lambda m: None if m.config.casino.enabled else "there is no casino"),
    Action("free-parking", "landing on Free Parking takes the pot", free_parking,
           lambda m: None if m.config.taxes.free_parking_pot else "there is no Free Parking pot"),
    Action("auction-mortgaged", "an owner auctions a mortgaged deed at once", auction_mortgaged,
           lambda m: None if m.config.mortgage.immediate_auction else "mortgaged deeds are not auctioned at once"),
    Action("bankrupt-to-player", "bankruptcy to a creditor player", bankrupt_to_player),
    Action("bankrupt-to-bank", "bankruptcy to the bank", bankrupt_to_bank),
    Action("surrender", "a player gives up", surrender,
           lambda m: None if m.config.debt.surrender else "players may not give up"),
)

BY_NAME = {a.name: a for a in ACTIONS}
