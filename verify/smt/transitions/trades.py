"""Trades between two players: deeds, cash and Get Out of Jail Free cards (``verify.engine.rules.trades``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import z3

from ..model import Model
from ..state import SymState
from .common import (DEEDS, Args, active, add_cash, all_, any_, bank_gets, ite, may_manage, no_buildings, pf, pick,
                     seat_ok, team_of)
from .plays import random_state, trade_action
from .registry import Example, transition


def _balanced(m: Model, s: SymState, x: Args) -> Any:
    """The trade balance limits: the two sides' values (cash, printed price or mortgage value of each
    deed, the jail fine per card) may differ by at most a share of the larger, or a ratio."""
    t, fine, tb = m.config.trade, m.config.jail.fine, m.tables
    deed_value = lambda idx: pick(idx, [ite(p.mortgaged, tb.mortgage_value[p.square], tb.price[p.square])  # noqa
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
    cond = all_(ok)
    if t.teammates_skip_balance and m.teams:
        cond = z3.Or(cond, team_of(s, x.a) == team_of(s, x.b))
    return cond


def _interest(m: Model, s: SymState, x: Args) -> tuple[Any, Any, Any, Any]:
    """The interest on the mortgaged deeds a trade hands over, owed at once by their receivers: (due by a,
    paid by a, due by b, paid by b). Paid now when the cash (after the trade's cash moved) covers it, else
    left as a debt to the bank (the engine's debt queue)."""
    mc = m.config.mortgage

    def interest(idx):
        return pick(idx, [ite(s.props[i].mortgaged, m.tables.interest[s.props[i].square], 0)
                          if mc.transfer_interest else 0 for i in range(DEEDS)])

    due_b = ite(x.f1, interest(x.sq), 0)
    due_a = ite(x.f2, interest(x.sq2), 0)
    settle = not m.config.debt.explicit_payment_step
    # b's deed is handed over first; once a debt is queued, later charges queue behind it
    b_settles = z3.And(settle, pf(s, x.b, "cash") + x.amt >= due_b)
    fee_b = ite(b_settles, due_b, 0)
    fee_a = ite(z3.And(settle, z3.Or(due_b == 0, b_settles), pf(s, x.a, "cash") - x.amt >= due_a), due_a, 0)
    return due_a, fee_a, due_b, fee_b


def interest_owed(m: Model, s: SymState, x: Args) -> Any:
    """The trade leaves interest owed: a debt the engine queues (and waits for) that the state does not show."""
    due_a, fee_a, due_b, fee_b = _interest(m, s, x)
    return z3.Or(fee_a != due_a, fee_b != due_b)


@transition("trade", "two players exchange deeds, cash and cards", "trade",
            disabled=lambda m: None if m.config.trade.allowed else "trading is not allowed")
def trade(m: Model, s: SymState, x: Args):
    """``a`` gives deed ``sq`` (f1) and gets deed ``sq2`` (f2) from ``b``; ``amt`` cash from a to b (negative:
    b pays a); f3..f6: a's Chance card, a's Chest card, b's Chance card, b's Chest card change hands."""
    t = m.config.trade

    def movable(idx, giver, receiver):
        cases = []
        for p in s.props:
            i = p.index
            c = [p.owner == giver]
            if p.kind == "street":
                if t.building_lock == "whole_group":
                    c.append(all_([no_buildings(s.props[k]) for k in m.group_members(i)]))
                else:
                    c.append(no_buildings(p))
            if t.mortgaged == "forbidden":
                c.append(z3.Not(p.mortgaged))
            elif t.mortgaged == "teammates_only":
                c.append(z3.Or(z3.Not(p.mortgaged), team_of(s, giver) == team_of(s, receiver)))
            cases.append(z3.And(idx == i, all_(c)))
        return any_(cases)

    give, take = x.f1, x.f2
    _, fee_a, _, fee_b = _interest(m, s, x)   # the receiver of a mortgaged deed owes the interest at once
    cards = [x.f3, x.f4, x.f5, x.f6]
    guard = [seat_ok(m, x.a), seat_ok(m, x.b), x.a != x.b, active(s, x.a), active(s, x.b),
             may_manage(m, s, x.a), may_manage(m, s, x.b),
             z3.Implies(give, movable(x.sq, x.a, x.b)), z3.Implies(take, movable(x.sq2, x.b, x.a)),
             z3.Implies(z3.And(give, take), x.sq != x.sq2),
             pf(s, x.a, "cash") - x.amt >= 0, pf(s, x.b, "cash") + x.amt >= 0,
             z3.Implies(x.f3, pf(s, x.a, "chance")), z3.Implies(x.f4, pf(s, x.a, "chest")),
             z3.Implies(x.f5, pf(s, x.b, "chance")), z3.Implies(x.f6, pf(s, x.b, "chest"))]
    if not t.loans:   # no gifts: each side gives something
        guard += [any_([give, x.f3, x.f4, x.amt > 0]), any_([take, x.f5, x.f6, x.amt < 0])]
    if t.max_value_gap is not None or t.max_value_ratio is not None:
        guard.append(_balanced(m, s, x))
    if not m.config.jail.buy_card_from_player:
        guard += [z3.Implies(any_([x.f3, x.f4]), z3.Not(pf(s, x.b, "in_jail"))),
                  z3.Implies(any_([x.f5, x.f6]), z3.Not(pf(s, x.a, "in_jail")))]
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
    return all_(guard), after


@trade.examples
def _trade_example(cfg, base, rnd):
    s = random_state(cfg, base, rnd)
    return Example(s, (trade_action(cfg, s, rnd),), None, then=("debt",))
