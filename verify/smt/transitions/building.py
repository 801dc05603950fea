"""Houses and hotels: building, selling back, breaking a hotel down, a group's buildings sold at once
(``verify.engine.rules.building``)."""

from __future__ import annotations

from typing import Any

import z3

from ..model import Model
from ..state import SymState
from .common import (Args, active, add_cash, all_, any_, bank_gets, building_sale, ite, level, may_manage,
                     no_buildings, on_street, per_deed, pf, pick, seat_ok, sell_refund, set_prop, stock_back,
                     stock_out)
from .plays import deed_action, random_state
from .registry import Example, transition


def group_ok(m: Model, s: SymState, i: int, a) -> list:
    """Street ``i`` may be built on by ``a``: owned, unmortgaged, the group whole and unmortgaged where
    the rules ask for it."""
    b = m.config.building
    mates = [s.props[t] for t in m.group_members(i)]
    out = [s.props[i].owner == a, z3.Not(s.props[i].mortgaged)]
    if b.requires_full_group:
        out.append(all_([t.owner == a for t in mates]))
    if b.blocked_by_mortgage:
        out.append(all_([z3.Not(t.mortgaged) for t in mates]))
    return out


@transition("build_house", "build a house", "build_house", aliases=("build-house",))
def build_house(m: Model, s: SymState, x: Args):
    b = m.config.building

    def ok(i):
        p = s.props[i]
        mates = [s.props[t] for t in m.group_members(i)]
        c = group_ok(m, s, i, x.a) + [z3.Not(p.hotel), p.houses < b.max_houses,
                                      pf(s, x.a, "cash") >= m.tables.house_cost[p.square]]
        if b.even_build:
            c.append(all_([level(m, p) <= level(m, t) for t in mates]))
        return c

    cost = pick(x.sq, per_deed(m, "house_cost"))
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), on_street(m, x, ok)]
    if s.bank_houses is not None:
        guard.append(s.bank_houses >= 1)
    after = set_prop(s, x.sq, houses=lambda p: p.houses + 1)
    after = stock_out(m, after, 1, 0)
    after = bank_gets(add_cash(after, x.a, -cost), cost)
    return all_(guard), after


@transition("build_hotel", "build a hotel", "build_hotel", aliases=("build-hotel",))
def build_hotel(m: Model, s: SymState, x: Args):
    b = m.config.building

    def ok(i):
        p = s.props[i]
        mates = [s.props[t] for t in m.group_members(i)]
        c = group_ok(m, s, i, x.a) + [z3.Not(p.hotel), p.houses >= b.hotel_threshold,
                                      pf(s, x.a, "cash") >= m.tables.house_cost[p.square]]
        if b.hotel_needs_whole_group:
            c.append(all_([z3.Or(t.hotel, t.houses >= b.hotel_threshold) for t in mates]))
        if b.even_build:   # the street built on is among the lowest of its group
            c.append(all_([level(m, p) <= level(m, t) for t in mates]))
        return c

    cost = pick(x.sq, per_deed(m, "house_cost"))
    returned = pick(x.sq, [p.houses for p in s.props]) if b.hotel_returns_houses else 0
    guard = [seat_ok(m, x.a), active(s, x.a), may_manage(m, s, x.a), on_street(m, x, ok)]
    if s.bank_hotels is not None:
        guard.append(s.bank_hotels >= 1)
    after = set_prop(s, x.sq, hotels=1, **({"houses": 0} if b.hotel_returns_houses else {}))
    after = stock_out(m, after, 0, 1)
    if b.hotel_returns_houses:          # the houses handed in go back as any building given up
        after = stock_back(m, after, returned, 0)
    after = bank_gets(add_cash(after, x.a, -cost), cost)
    return all_(guard), after


@transition("sell_house", "sell a house back to the bank", "sell_house", aliases=("sell-house",))
def sell_house(m: Model, s: SymState, x: Args):
    b = m.config.building

    def ok(i):
        p = s.props[i]
        mates = [s.props[t] for t in m.group_members(i)]
        c = [p.owner == x.a, p.houses >= 1]
        if b.hotel_returns_houses:
            c.append(z3.Not(p.hotel))
        if b.even_sell:
            c.append(all_([z3.Or(t.index == p.index, level(m, t) <= p.houses) for t in mates]))
        return c

    refund = pick(x.sq, [sell_refund(m, i) for i in range(len(m.deeds))])
    guard = [seat_ok(m, x.a), active(s, x.a), on_street(m, x, ok)]
    after = set_prop(s, x.sq, houses=lambda p: p.houses - 1)
    after = stock_back(m, after, 1, 0)
    after = bank_gets(add_cash(after, x.a, refund), -refund)
    return all_(guard), after


@transition("sell_group", "sell every building of a colour group back at once", "sell_group",
            aliases=("sell-group",))
def sell_group(m: Model, s: SymState, x: Args):
    """Every building of the group of street ``sq`` sold back at once (keeps the group even)."""
    def ok(i):
        mates = [s.props[t] for t in m.group_members(i)]
        return [any_([z3.And(t.owner == x.a, z3.Not(no_buildings(t))) for t in mates]),
                all_([z3.Or(no_buildings(t), t.owner == x.a) for t in mates])]

    guard = [seat_ok(m, x.a), active(s, x.a), on_street(m, x, ok)]
    after, houses, hotels, refund = s, [], [], []
    for p in s.props:
        if p.kind != "street":
            continue
        in_group = any_([x.sq == j for j in m.group_members(p.index)])
        gone_h, gone_t = ite(in_group, p.houses, 0), ite(in_group, p.hotels, 0)
        houses.append(gone_h)
        hotels.append(gone_t)
        refund.append(ite(in_group, building_sale(m, p), 0))
        after = after.with_prop(p.index, houses=p.houses - gone_h, hotels=p.hotels - gone_t)
    after = stock_back(m, after, z3.Sum(houses), z3.Sum(hotels))
    total = z3.Sum(refund)
    after = bank_gets(add_cash(after, x.a, total), -total)
    return all_(guard), after


def hotel_down(m: Model, s: SymState, x: Args) -> tuple[Any, SymState]:
    """A hotel on street ``sq`` broken down one level: the hotel goes back and the street holds the houses
    a hotel needs (taken from the bank; the guard: the bank has them); no money moves."""
    b = m.config.building
    if not b.hotel_returns_houses:
        return z3.BoolVal(True), stock_back(m, set_prop(s, x.sq, hotels=0), 0, 1)
    ok = s.bank_houses >= b.hotel_threshold if s.bank_houses is not None else z3.BoolVal(True)
    after = set_prop(s, x.sq, hotels=0, houses=lambda p: p.houses + b.hotel_threshold)
    after = stock_out(m, after, b.hotel_threshold, 0)
    return ok, stock_back(m, after, 0, 1)


@transition("sell_hotel", "break a hotel down into houses (one 'house' sold)", "sell_hotel",
            aliases=("break-down-hotel",))
def sell_hotel(m: Model, s: SymState, x: Args):
    """One 'house' sold from a hotel: the hotel goes back and the street holds the houses a hotel needs."""
    refund = pick(x.sq, [sell_refund(m, i) for i in range(len(m.deeds))])
    guard = [seat_ok(m, x.a), active(s, x.a), on_street(m, x, lambda i: [s.props[i].owner == x.a, s.props[i].hotel])]
    ok, after = hotel_down(m, s, x)
    if not z3.is_true(ok):
        guard.append(ok)
    after = bank_gets(add_cash(after, x.a, refund), -refund)
    return all_(guard), after


def deed_example(kind: str):
    def example(cfg, base, rnd):
        s = random_state(cfg, base, rnd)
        return Example(s, (deed_action(cfg, s, rnd, kind),), None)
    example.__name__ = f"{kind}_example"
    return example


for _tr in (build_house, build_hotel, sell_house, sell_group, sell_hotel):
    _tr.examples(deed_example(_tr.name))
