"""Taxes and the casino (``verify.engine.rules.movement`` ``land`` and ``verify.engine.rules.extras``)."""

from __future__ import annotations

from dataclasses import replace

import z3

from ..model import Model
from ..state import SymState
from .common import Args, active, add_cash, all_, any_, bank_gets, ite, pf, pick, seat_ok, tax_worth, to_pot_or_bank
from .movement import LANDING
from .registry import transition


@transition("tax", "pay income or luxury tax", LANDING + ("pay_tax",), step="tax")
def tax(m: Model, s: SymState, x: Args):
    """Income or luxury tax (or the worth-share option of income tax) to the bank, or to the pot."""
    tx = m.config.taxes
    options = [x.amt == tx.income, x.amt == tx.luxury]
    if tx.income_percent is not None:
        base = tax_worth(m, s, x.a)
        options.append(z3.And(x.amt * 1000 <= base * int(round(tx.income_percent * 1000)) + 999,
                              x.amt * 1000 >= base * int(round(tx.income_percent * 1000)) - 999, x.amt >= 0))
    guard = [seat_ok(m, x.a), active(s, x.a), any_(options), pf(s, x.a, "cash") >= x.amt]
    after = add_cash(s, x.a, -x.amt)
    after = to_pot_or_bank(m, after, x.amt)
    return all_(guard), after


@transition("casino_bet", "a casino bet: stake, payout, jackpot", "casino_bet",
            disabled=lambda m: None if m.config.casino.enabled else "there is no casino", aliases=("casino-bet",))
def casino_bet(m: Model, s: SymState, x: Args):
    """A casino bet on ``amt`` numbers: the stake to the bank, the bank's contribution to the jackpot;
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
    return all_(guard), after
