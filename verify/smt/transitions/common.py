"""What every transition shares: the symbolic arguments, z3 helpers, and the state's derived values.

The counterpart of the engine's ``verify.engine.rules.base``: a player's field for a
symbolic seat, money moving between players and the bank, a street's level, what a
player's buildings sell for, what a player is worth. Numbers come from the config's
``Tables`` (``verify.config.tables``, as ``m.tables``), the ones the engine plays by.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, Callable

import z3

from .. import terms as T
from ...config.model import round_money
from ..model import Model
from ..state import SymState

#: deeds of the board, in square order (the symbolic state's ``props``)
DEEDS = 28


def ite(c: Any, a: Any, b: Any) -> Any:
    """z3.If that folds a Python condition (the acting seat is a Python int, see Args)."""
    if isinstance(c, bool):
        return a if c else b
    return T.ite(c, a, b)


def pick(idx: Any, values: list) -> Any:
    """``values[idx]`` for a symbolic index (an If-chain; the last value is the default, for a Python index
    out of range too)."""
    if isinstance(idx, int):
        return values[idx] if 0 <= idx < len(values) else values[-1]
    out = values[-1]
    for i in range(len(values) - 2, -1, -1):
        out = T.ite(T.eq(idx, i), values[i], out)
    return out


def all_(xs) -> Any:
    xs = [T.as_term(x) for x in xs]
    return T.and_(xs) if xs else T.TRUE


def any_(xs) -> Any:
    xs = [T.as_term(x) for x in xs]
    return T.or_(xs) if xs else T.FALSE


@dataclass(frozen=True)
class Args:
    """The symbolic arguments of one transition (fresh per transition, stable names)."""

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


#: the fields of Args, in order
ARG_FIELDS = ("a", "b", "sq", "sq2", "amt", "dice", "f1", "f2", "f3", "f4", "f5", "f6")

#: a transition's formula: (guard, the state after) from the model, the state before and the arguments
Build = Callable[[Model, SymState, Args], "tuple[Any, SymState]"]


# ---- a player, the bank -------------------------------------------------------------------

def seat_ok(m: Model, x) -> Any:
    if isinstance(x, int):
        return z3.BoolVal(0 <= x < m.players)
    return T.and_([T.ge(x, 0), T.lt(x, m.players)])


def pf(s: SymState, seat, field: str) -> Any:
    """A player's field for a symbolic seat."""
    return pick(seat, [getattr(p, field) for p in s.players])


def active(s: SymState, seat) -> Any:
    return T.not_(pf(s, seat, "bankrupt"))


def team_of(s: SymState, seat) -> Any:
    return pick(seat, [p.team for p in s.players])


def may_manage(m: Model, s: SymState, a) -> Any:
    return z3.BoolVal(True) if m.config.jail.may_manage else z3.Not(pf(s, a, "in_jail"))


def add_cash(s: SymState, seat, delta) -> SymState:
    ps = s
    for p in s.players:
        ps = ps.with_player(p.seat, cash=T.add(p.cash, ite(T.eq(seat, p.seat), delta, 0)))
    return ps


def bank_gets(s: SymState, amount) -> SymState:
    return replace(s, bank_cash=s.bank_cash + amount)


def to_pot_or_bank(m: Model, s: SymState, amount) -> SymState:
    """A payment the Free Parking pot takes where there is one (taxes; card payments where they go there)."""
    if m.config.taxes.free_parking_pot:
        return replace(s, pot=s.pot + amount)
    return bank_gets(s, amount)


def bank_stock(s: SymState, field: str, delta) -> SymState:
    """The bank's stock of houses or hotels changed by ``delta`` (an unlimited supply is not counted)."""
    cur = getattr(s, field)
    if cur is None or (isinstance(delta, int) and delta == 0):
        return s
    return replace(s, **{field: cur + delta})


def stock_back(m: Model, s: SymState, houses, hotels) -> SymState:
    """Buildings sold or given up go back to the bank's stock (unless sold buildings leave the game)."""
    if m.tables.sold_vanish:
        return s
    return bank_stock(bank_stock(s, "bank_houses", houses), "bank_hotels", hotels)


def stock_out(m: Model, s: SymState, houses, hotels) -> SymState:
    """Buildings put up leave the bank's stock (unless builds are not taken from it)."""
    if m.tables.builds_free:
        return s
    return bank_stock(bank_stock(s, "bank_houses", -houses), "bank_hotels", -hotels)


# ---- deeds -------------------------------------------------------------------------------

def set_prop(s: SymState, sq, **fields) -> SymState:
    """For a symbolic deed index: every deed gets If(sq == i, new, old) per field."""
    out = s
    for p in s.props:
        kw = {}
        for f, v in fields.items():
            new = v(p) if callable(v) else v
            kw[f] = ite(T.eq(sq, p.index), new, getattr(p, f))
        out = out.with_prop(p.index, **kw)
    return out


def deed_ok(x) -> list:
    return [x.sq >= 0, x.sq < DEEDS]


def per_deed(m: Model, table: str) -> list:
    """A per-square table of ``m.tables`` (price, house_cost, mortgage_value, interest...) by deed index."""
    values = getattr(m.tables, table)
    return [values[d.square] for d in m.deeds]


def level(m: Model, p) -> Any:
    """Evenness level of a street: its houses, or one above the houses a hotel needs."""
    return ite(p.hotel, m.tables.hotel_level, p.houses)


def no_buildings(p) -> Any:
    return T.and_([T.eq(p.houses, 0), T.not_(p.hotel)])


def streets(m: Model) -> list[int]:
    return [i for i, d in enumerate(m.deeds) if d.kind == "street"]


def on_street(m: Model, x: Args, per_street: Callable[[int], list]) -> Any:
    """The deed argument is a street on which every condition of ``per_street`` holds."""
    return any_([T.and_([T.eq(x.sq, i), all_(per_street(i))]) for i in streets(m)])


def owned_count(s: SymState, owner, kind: str) -> Any:
    return z3.Sum([ite(p.owner == owner, 1, 0) for p in s.props if p.kind == kind])


# ---- what buildings and deeds are worth ------------------------------------------------------

def sell_refund(m: Model, i: int) -> int:
    """What a house (or one level of a hotel) of deed ``i`` sells back for."""
    return m.tables.sell_house_value[m.deeds[i].square]


def building_sale(m: Model, p) -> Any:
    """Cash from selling every building on street ``p`` back to the bank: a hotel sells as one level
    for itself, one for each house handed in for it, and one for each house beside it."""
    v = sell_refund(m, p.index)
    return p.houses * v + p.hotels * (v * (1 + m.tables.hotel_back))


def building_value(m: Model, p, hotel_houses: bool = True) -> Any:
    """What the buildings on a street cost to put up (a hotel counts the houses handed in for it, unless
    ``hotel_houses`` is false: then a hotel is worth its own price)."""
    c = m.tables.house_cost[p.square]
    extra = m.tables.hotel_back if hotel_houses else 0
    return p.houses * c + p.hotels * (c * (1 + extra))


def rounded(x: Any, ratio: float) -> Any:
    """``round_money(x * ratio)`` for a symbolic whole amount ``x >= 0`` (exact: half rounds up)."""
    f = Fraction(ratio).limit_denominator(10_000)
    if f == 1:
        return x
    if f.denominator == 1:
        return x * f.numerator
    if isinstance(x, int):
        return round_money(x * ratio)
    return (x * (2 * f.numerator) + f.denominator) / (2 * f.denominator)    # z3 integer division


def liquidation(m: Model, s: SymState, a) -> Any:
    """What a player could raise by selling every building and mortgaging every deed."""
    terms = []
    for p in s.props:
        v = ite(p.mortgaged, 0, m.tables.mortgage_value[p.square])
        if p.kind == "street":
            v = v + building_sale(m, p)
        terms.append(ite(p.owner == a, v, 0))
    return z3.Sum(terms)


def worth(m: Model, s: SymState, a) -> Any:
    """Net worth as the end of the game counts it (the bankruptcy threshold debt_exceeds_worth)."""
    e, t = m.config.end, m.tables
    terms = [pf(s, a, "cash")]
    for p in s.props:
        price = t.price[p.square]
        v = ite(p.mortgaged, round_money(price * e.networth_mortgaged), price)
        if p.kind == "street":
            v = v + rounded(building_value(m, p), e.networth_buildings)
        terms.append(ite(p.owner == a, v, 0))
    return z3.Sum(terms)


def tax_worth(m: Model, s: SymState, a) -> Any:
    """Total worth for the income tax option: cash, printed prices, buildings at cost (a hotel with the
    houses handed in for it, or alone: tax.worth_hotel)."""
    tx, t = m.config.taxes, m.tables
    hotel_houses = tx.worth_hotel == "price_and_converted_houses"
    terms = [pf(s, a, "cash")]
    for p in s.props:
        price, value = t.price[p.square], t.mortgage_value[p.square]
        v = price if tx.worth_counts_mortgaged_at_printed else ite(p.mortgaged, price - value, price)
        if p.kind == "street":
            v = v + building_value(m, p, hotel_houses=hotel_houses)
        terms.append(ite(p.owner == a, v, 0))
    return z3.Sum(terms)


def deck_cards(m: Model, effect: str) -> list:
    """The cards of both decks with this effect (``verify.vocabulary.CARD_EFFECTS``)."""
    return [c for c in tuple(m.config.cards.chance) + tuple(m.config.cards.chest) if c.effect == effect]
