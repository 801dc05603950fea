"""Taxes and the casino (``verify.engine.rules.movement`` ``land`` and ``verify.engine.rules.extras``)."""

from __future__ import annotations

from dataclasses import replace

import z3

from ..model import Model
from ..state import SymState
from .common import Args, active, add_cash, all_, any_, bank_gets, ite, pf, pick, seat_ok, tax_worth, to_pot_or_bank
from .movement import LANDING
from .plays import roll_onto, settle, someone, squares_of
from .registry import Example, transition


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
    f1: the die shows a chosen number (the bank pays ``tables.casino_payout``: stake x N / numbers); f2: the
    jackpot is won."""
    c = m.config.casino
    k = x.amt
    guard = [seat_ok(m, x.a), active(s, x.a), k >= 1, k <= c.max_numbers, pf(s, x.a, "cash") >= c.stake]
    payout = pick(k - 1, list(m.tables.casino_payout))
    won = ite(x.f1, payout, 0)
    jackpot = s.jackpot + c.jackpot_contribution
    take = ite(z3.And(x.f2, jackpot > 0), jackpot, 0)
    after = add_cash(s, x.a, -c.stake + won + take)
    after = bank_gets(after, c.stake - c.jackpot_contribution - won)
    after = replace(after, jackpot=jackpot - take)
    return all_(guard), after


def _tax_charged(events: list, after: dict) -> dict:
    """The tax the engine charged: paid, or left as a debt."""
    for e in events:
        if e.get("event") == "paid" and e.get("kind") == "tax":
            return {"amt": e["amount"]}
    for d in after["queue"]["debts"]:
        if d[4] == "tax":
            return {"amt": d[2]}
    return {}


@tax.examples
def _tax_example(cfg, base, rnd):
    """A player rolls onto the income tax (choosing the fixed sum or the share of worth where there is a
    choice) or the luxury tax."""
    s, a = someone(cfg, base, rnd)
    squares = squares_of(cfg, "income_tax") + squares_of(cfg, "luxury_tax")
    if not squares:
        return None
    sq = rnd.choice(squares)
    roll = roll_onto(cfg, s, a, sq, rnd)
    if roll is None:
        return None
    actions = [roll]
    if cfg.board.squares[sq] == "income_tax" and cfg.taxes.income_percent is not None:
        actions.append({"type": "pay_tax", "seat": a, "option": rnd.choice(["fixed", "percent"])})
    return Example(s, (*actions, *settle(cfg)), dict(a=a), event=("paid", {"kind": "tax", "debtor": a}),
                   args_from=_tax_charged)


@casino_bet.examples
def _casino_example(cfg, base, rnd):
    """A player rolls onto the casino and bets on some numbers (one too many now and then)."""
    s, a = someone(cfg, base, rnd)
    s["jackpot"] = cfg.setup.scale * rnd.choice([0, 100, 1000])
    squares = squares_of(cfg, "casino")
    roll = roll_onto(cfg, s, a, squares[0], rnd) if squares else None
    if roll is None:
        return None
    c = cfg.casino
    numbers = rnd.sample(range(1, 7), rnd.randint(1, min(6, c.max_numbers + 1)))
    die, jackpot = rnd.randint(1, 6), rnd.random() < 0.3
    bet = {"type": "casino_bet", "seat": a, "numbers": numbers, "die": die, "jackpot": jackpot}
    return Example(s, (roll, bet), dict(a=a, amt=len(numbers), f1=die in numbers, f2=jackpot))
