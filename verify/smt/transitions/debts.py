"""Bankruptcy to a player or to the bank, and giving up (``verify.engine.rules.debts``)."""

from __future__ import annotations

from typing import Any

import z3

from ...invariants import NOBODY
from ..model import Model
from ..state import SymState
from .common import (Args, active, add_cash, all_, any_, bank_gets, building_sale, ite, liquidation, pf, pick,
                     seat_ok, stock_back, worth)
from .plays import gone, open_debt, random_state, someone
from .registry import Example, transition


def cannot_pay(m: Model, s: SymState, a, debt) -> Any:
    """The debtor may declare bankruptcy: the debt exceeds the cash, cannot be raised by selling and
    mortgaging (debt.raise_cash_first), and, under debt_exceeds_worth, exceeds the debtor's total worth
    (a debtor whose worth covers the debt must raise it, by trading too, or give up)."""
    d = m.config.debt
    cond = [pf(s, a, "cash") < debt]
    if d.raise_cash_first:
        cond.append(pf(s, a, "cash") + liquidation(m, s, a) < debt)
    if d.threshold == "debt_exceeds_worth":
        cond.append(debt > worth(m, s, a))
    return all_(cond)


def strip_debtor(m: Model, s: SymState, a, cards_to=None) -> SymState:
    """The debtor is out: no cash, no cards; cards go to ``cards_to`` or back to their decks."""
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


def buildings_to_bank(m: Model, s: SymState, a) -> tuple[SymState, Any]:
    """Every building of ``a`` returns to the bank; returns the new state and their sale value."""
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
    return stock_back(m, out, z3.Sum(houses), z3.Sum(hotels)), z3.Sum(value)


def game_over_after(m: Model, s: SymState, a) -> Any:
    """Does the game end when ``a`` leaves (one player or team left, or the first bankruptcy ends it)?"""
    e = m.config.end
    if e.condition == "first_bankruptcy":
        return z3.BoolVal(True)
    if not (e.condition == "last_standing" or e.last_standing_also):
        return z3.BoolVal(False)
    live = [(p.team, z3.And(p.seat != a, z3.Not(p.bankrupt))) for p in s.players]
    teams = sorted({t for t, _ in live})
    sides = [any_([alive for t, alive in live if t == team]) for team in teams]
    return z3.Sum([ite(x, 1, 0) for x in sides]) <= 1


@transition("bankrupt_to_player", "bankruptcy to a creditor player", "bankrupt", step="bankruptcy",
            variant="to a player", aliases=("bankrupt-to-player",))
def bankrupt_to_player(m: Model, s: SymState, x: Args):
    """The debtor ``a`` cannot pay ``amt`` to ``b``: cash, buildings and deeds go where the ruleset says.
    Interest on inherited mortgages is the creditor's debt to the bank: paid at once while affordable."""
    d = m.config.debt
    a, c = x.a, x.b
    guard = [seat_ok(m, a), seat_ok(m, c), a != c, active(s, a), active(s, c), x.amt > 0,
             cannot_pay(m, s, a, x.amt)]
    debtor_cash = pf(s, a, "cash")
    unmortgaged_value = z3.Sum([ite(z3.And(p.owner == a, z3.Not(p.mortgaged)),
                                     m.tables.mortgage_value[p.square], 0) for p in s.props])
    after, value = buildings_to_bank(m, s, a)
    dropped = d.to_player_mortgaged == "dropped"
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
    after = strip_debtor(m, after, a, c if d.to_player_jail_cards == "creditor" else None)
    after = add_cash(after, c, to_creditor)
    after = bank_gets(after, bank_delta)
    if d.to_player_properties == "creditor" and m.config.mortgage.transfer_interest \
            and not d.explicit_payment_step and m.config.end.condition != "first_bankruptcy":
        # the interest on each inherited mortgage is a debt of the creditor to the bank, in square
        # order; each is settled at once while the cash covers it, the rest wait (the engine's queue)
        cash, going, paid_total = pf(after, c, "cash"), z3.BoolVal(True), []
        for p in s.props:
            fee = ite(z3.And(p.owner == a, p.mortgaged, z3.Not(z3.And(p.mortgaged, z3.BoolVal(dropped)))),
                      m.tables.transfer_interest[p.square], 0)
            pay = ite(z3.And(going, cash >= fee), fee, 0)
            going = z3.And(going, cash >= fee)
            cash = cash - pay
            paid_total.append(pay)
        total = ite(game_over_after(m, s, a), 0, z3.Sum(paid_total))   # a finished game settles nothing
        after = bank_gets(add_cash(after, c, -total), total)
    return all_(guard), after


def to_bank(m: Model, s: SymState, a) -> SymState:
    """``a`` leaves the game owing the bank (or giving up): buildings back to the bank, deeds to the bank
    (or to a teammate), cash to the bank."""
    d, t = m.config.debt, m.config.teams
    debtor_cash = pf(s, a, "cash")
    after, _ = buildings_to_bank(m, s, a)
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
    after = strip_debtor(m, after, a, None)
    return bank_gets(after, debtor_cash)


@transition("bankrupt_to_bank", "bankruptcy to the bank", "bankrupt", step="bankruptcy", variant="to the bank",
            aliases=("bankrupt-to-bank",))
def bankrupt_to_bank(m: Model, s: SymState, x: Args):
    guard = [seat_ok(m, x.a), active(s, x.a), x.amt > 0, cannot_pay(m, s, x.a, x.amt)]
    return all_(guard), to_bank(m, s, x.a)


@transition("surrender", "a player gives up", "surrender",
            disabled=lambda m: None if m.config.debt.surrender else "players may not give up")
def surrender(m: Model, s: SymState, x: Args):
    guard = [seat_ok(m, x.a), active(s, x.a)]
    return all_(guard), to_bank(m, s, x.a)


def _bankrupt_example(to_player: bool):
    def example(cfg, base, rnd):
        s = random_state(cfg, base, rnd)
        return Example(s, (open_debt(s, rnd, cfg.setup.scale, to_player),), None, then=("auction", "debt"))
    return example


bankrupt_to_player.examples(_bankrupt_example(True))
bankrupt_to_bank.examples(_bankrupt_example(False))


@surrender.examples
def _surrender_example(cfg, base, rnd):
    """A player gives up; now and then one already out of the game tries to."""
    s, who = someone(cfg, base, rnd)
    if rnd.random() < 0.25:
        gone(s, who)
    return Example(s, ({"type": "surrender", "seat": who},), None, note="out already" if s["players"][who]["bankrupt"]
                   else "")
