"""The symbolic game state: every deed, every player, the bank's stock and money, the pot.

One ``SymState`` holds z3 terms (fresh variables for a state before an
action, or expressions of them for the state after). ``view`` exposes it
under exactly the names and fields ``verify.invariants`` gives a concrete
state, so one invariant text serves both backends. ``concrete`` reads a
model back into a canonical JSON state (for counterexamples and for the
differential tests against the engine).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import z3

from . import terms as T
from ..invariants import NOBODY
from .model import Model


@dataclass(frozen=True)
class SymPlayer:
    seat: int
    team: int
    cash: Any
    in_jail: Any
    bankrupt: Any
    chance: Any          # holds the Chance Get Out of Jail Free card
    chest: Any


@dataclass(frozen=True)
class SymProp:
    index: int           # 0..27, deeds in square order
    square: int
    kind: str
    group: str
    owner: Any           # Int: a seat or NOBODY
    mortgaged: Any
    houses: Any          # Int (IntVal 0 for stations and utilities)
    hotels: Any          # Int 0..max hotels per street (IntVal 0 for stations and utilities);
                         # a count, not a flag: supply sums stay linear arithmetic
    mrounds: Any         # rounds the mortgage has run (for expiry)

    @property
    def hotel(self) -> Any:
        return T.ge(self.hotels, 1)


@dataclass(frozen=True)
class SymState:
    players: tuple[SymPlayer, ...]
    props: tuple[SymProp, ...]
    bank_houses: Any     # Int, or None when the supply is unlimited
    bank_hotels: Any
    bank_cash: Any       # the bank's ledger: what it has received minus what it has paid
    pot: Any
    jackpot: Any
    extra: dict = field(default_factory=dict, compare=False)

    def with_player(self, i: int, **kw) -> "SymState":
        ps = list(self.players)
        ps[i] = replace(ps[i], **kw)
        return replace(self, players=tuple(ps))

    def with_prop(self, i: int, **kw) -> "SymState":
        ps = list(self.props)
        ps[i] = replace(ps[i], **kw)
        return replace(self, props=tuple(ps))


def fresh(m: Model, tag: str = "") -> SymState:
    """A state of fresh variables named ``<field>_<index><tag>`` (stable names: queries hash alike)."""
    players = tuple(
        SymPlayer(seat=i, team=m.team_of(i), cash=z3.Int(f"cash_{i}{tag}"), in_jail=z3.Bool(f"jail_{i}{tag}"),
                  bankrupt=z3.Bool(f"bankrupt_{i}{tag}"), chance=z3.Bool(f"chance_card_{i}{tag}"),
                  chest=z3.Bool(f"chest_card_{i}{tag}"))
        for i in range(m.players))
    props = []
    for i, d in enumerate(m.deeds):
        street = d.kind == "street"
        props.append(SymProp(
            index=i, square=d.square, kind=d.kind, group=m.group_name(i), owner=z3.Int(f"owner_{d.square}{tag}"),
            mortgaged=z3.Bool(f"mortgaged_{d.square}{tag}"),
            houses=z3.Int(f"houses_{d.square}{tag}") if street else z3.IntVal(0),
            hotels=z3.Int(f"hotels_{d.square}{tag}") if street else z3.IntVal(0),
            mrounds=z3.Int(f"mortgage_rounds_{d.square}{tag}") if m.expiry_rounds is not None else z3.IntVal(0)))
    return SymState(
        players=players, props=tuple(props),
        bank_houses=z3.Int(f"bank_houses{tag}") if m.house_supply is not None else None,
        bank_hotels=z3.Int(f"bank_hotels{tag}") if m.hotel_supply is not None else None,
        bank_cash=z3.Int(f"bank_cash{tag}"), pot=z3.Int(f"pot{tag}"), jackpot=z3.Int(f"jackpot{tag}"))


def domain(m: Model, s: SymState) -> list:
    """What every state satisfies by construction (not an invariant: the shape of a state)."""
    out = []
    for p in s.props:
        out.append(z3.And(p.owner >= NOBODY, p.owner < m.players))
        if p.kind == "street":
            out += [p.houses >= 0, p.hotels >= 0, p.hotels <= m.config.building.max_hotels_per_street]
        if m.expiry_rounds is not None:
            out.append(p.mrounds >= 0)
    return out


class _Rec:
    """A record of the view (attributes only, like verify.invariants)."""

    def __init__(self, **kw):
        self.__dict__.update(kw)


def _i(b):
    return z3.If(b, 1, 0)


def view(m: Model, s: SymState, params: dict | None = None) -> dict:
    players = [_Rec(seat=p.seat, cash=p.cash, in_jail=p.in_jail, bankrupt=p.bankrupt, team=p.team,
                    chance_cards=_i(p.chance), chest_cards=_i(p.chest), jail_cards=_i(p.chance) + _i(p.chest))
               for p in s.players]
    props = []
    for p in s.props:
        d = m.deeds[p.index]
        props.append(_Rec(square=p.square, kind=p.kind, group=p.group, owner=p.owner, mortgaged=p.mortgaged,
                          houses=p.houses, hotel=p.hotel, hotels=p.hotels, price=d.price, house_cost=d.house_cost))
    groups = [_Rec(name=name, streets=[props[i] for i in idx]) for name, idx in m.street_groups]
    env = {"players": players, "properties": props, "streets": [p for p in props if p.kind == "street"],
           "groups": groups, "bank": _Rec(houses=s.bank_houses, hotels=s.bank_hotels, cash=s.bank_cash),
           "pot": s.pot, "jackpot": s.jackpot}
    env.update(params or m.params)
    return env


def link_before(after_env: dict, before_env: dict) -> None:
    """Give every player and property of ``after_env`` its ``before`` (step invariants)."""
    for a, b in zip(after_env["players"], before_env["players"]):
        a.before = b
    for a, b in zip(after_env["properties"], before_env["properties"]):
        a.before = b


def concrete(m: Model, s: SymState, model: z3.ModelRef) -> dict:
    """The canonical JSON state (verify.state/1 subset) that ``model`` gives ``s``."""
    def iv(x):
        if x is None or isinstance(x, (bool, int)):
            return x
        v = model.eval(x, model_completion=True)
        return v.as_long() if z3.is_int_value(v) else int(str(v))

    def bv(x):
        if isinstance(x, bool):
            return x
        return z3.is_true(model.eval(x, model_completion=True))

    players = []
    for p in s.players:
        cards = (["chance"] if bv(p.chance) else []) + (["chest"] if bv(p.chest) else [])
        players.append({"seat": p.seat, "team": p.team if m.teams else None, "cash": iv(p.cash),
                        "in_jail": bv(p.in_jail), "jail_cards": cards, "bankrupt": bv(p.bankrupt)})
    props = []
    for p in s.props:
        owner = iv(p.owner)
        props.append({"square": p.square, "owner": None if owner == NOBODY else owner,
                      "mortgaged": bv(p.mortgaged), "houses": iv(p.houses), "hotel": bv(p.hotel),
                      "mortgage_rounds": iv(p.mrounds)})
    return {"schema": "verify.state/1", "players": players, "properties": props,
            "bank": {"houses": iv(s.bank_houses), "hotels": iv(s.bank_hotels), "cash": iv(s.bank_cash)},
            "pot": iv(s.pot), "jackpot": iv(s.jackpot)}
