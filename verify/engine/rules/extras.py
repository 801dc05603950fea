"""Income tax choice, the casino, and the timers (a missed turn, the game's default choices, the
repayment timer).

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import auctions, base, building, debts, flow, mortgages, turns
from .common import (BUS, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, MOVING, OVER, POST_ROLL, PRE_ROLL,
                     TRIPLES, GameState, Tables, round_money)
from ..reasons import refusal, structural

NO_TAX_CHOICE: Final = structural("no income tax choice pending", "phase")
TAX_OPTION: Final = structural("option is fixed or percent", "fields")
NO_CASINO: Final = structural("no casino bet offered", "phase")
CASINO_NUMBERS: Final = refusal("choose 1 to {n} different numbers from 1 to 6", "casino.max_numbers")
CASINO_DRAW: Final = structural("the bet needs the die (1..6) and the jackpot draw (true/false)", "fields")
STAKE: Final = structural("cannot cover the stake", "ownership")
MUST_BET: Final = refusal("the bet may not be declined", "casino.may_decline")
DEBT_NOT_TIMED: Final = refusal("raising money is not timed", "debt.repayment_seconds")
NOT_TIMED: Final = refusal("turns are not timed", "timer.on_timeout")
TIMER_BEFORE_ROLL: Final = structural("the turn timer runs out only before the roll", "phase")


def why_not_pay_tax(t: Tables, g: GameState, seat: int, option) -> str | None:
    if g.phase != INCOME_TAX or g.pending.get("player") != seat:
        return NO_TAX_CHOICE
    if option not in ("fixed", "percent"):
        return TAX_OPTION
    return None


def pay_tax(t: Tables, g: GameState, seat: int, option: str) -> None:
    tx = t.cfg.taxes
    amount = tx.income if option == "fixed" else round_money(base.tax_worth(t, g, seat) * (tx.income_percent or 0.0))
    g.phase = MOVING
    g.pending = None
    base.charge(t, g, seat, -1, amount, "tax")
    flow.resume(t, g)


def why_not_casino_bet(t: Tables, g: GameState, seat: int, numbers, die, jackpot) -> str | None:
    c = t.cfg.casino
    if g.phase != CASINO or g.pending.get("player") != seat:
        return NO_CASINO
    if (not isinstance(numbers, list) or not 1 <= len(numbers) <= c.max_numbers
            or len(set(numbers)) != len(numbers) or not all(isinstance(x, int) and 1 <= x <= 6 for x in numbers)):
        return CASINO_NUMBERS.format(n=c.max_numbers)
    if not isinstance(die, int) or not 1 <= die <= 6 or not isinstance(jackpot, bool):
        return CASINO_DRAW
    if g.cash[seat] < c.stake:
        return STAKE
    return None


def casino_bet(t: Tables, g: GameState, seat: int, numbers: list, die: int, jackpot: bool) -> None:
    c = t.cfg.casino
    g.cash[seat] = g.cash[seat] - c.stake
    g.bank_cash += c.stake
    g.jackpot += c.jackpot_contribution
    g.bank_cash -= c.jackpot_contribution
    won = 0
    if die in numbers:
        won = c.stake * c.payout_numerator // len(numbers)
        base.to_player(g, seat, won)
    if jackpot and g.jackpot:
        g.cash[seat] = g.cash[seat] + g.jackpot
        won += g.jackpot
        g.jackpot = 0
    if g.events is not None:
        g.events.append({"event": "casino", "player": seat, "numbers": list(numbers), "die": die,
                         "jackpot": jackpot, "won": won})
    g.phase = MOVING
    g.pending = None
    flow.resume(t, g)


def why_not_casino_decline(t: Tables, g: GameState, seat: int) -> str | None:
    if g.phase != CASINO or g.pending.get("player") != seat:
        return NO_CASINO
    if not t.cfg.casino.may_decline and g.cash[seat] >= t.cfg.casino.stake:
        return MUST_BET
    return None


def casino_decline(t: Tables, g: GameState, seat: int) -> None:
    g.phase = MOVING
    g.pending = None
    flow.resume(t, g)


def why_not_timeout(t: Tables, g: GameState, seat: int, dice=None) -> str | None:
    ck = t.cfg.clock
    if g.phase == DEBT and g.pending["debtor"] == seat:
        if t.cfg.debt.repayment_seconds is None:
            return DEBT_NOT_TIMED
        return None
    if ck.on_timeout == "none":
        return NOT_TIMED
    if g.phase != PRE_ROLL or seat != g.current or g.rolled:
        return TIMER_BEFORE_ROLL
    if ck.on_timeout == "default_choices":
        return turns.why_not_roll(t, g, seat, dice)
    return None


def timeout(t: Tables, g: GameState, seat: int, dice=None) -> None:
    """The turn timer ran out: a missed turn (skipped, or played with default choices).

    In a debt, the repayment timer ran out: the game raises the money for the debtor
    (selling, then mortgaging) and pays, or declares the bankruptcy; the clock runs the timer.
    """
    ck = t.cfg.clock
    if g.phase == DEBT:
        g.minute += (t.cfg.debt.repayment_seconds or 0) / 60.0
        if g.events is not None:
            g.events.append({"event": "debt_timeout", "player": seat})
        while g.phase == DEBT and g.pending["debtor"] == seat:
            if g.cash[seat] >= g.pending["amount"]:
                debts.pay(t, g, seat)
            elif debts.why_not_bankrupt(t, g, seat) is None or not liquidate_one(t, g, seat):
                debts.bankrupt(t, g, seat)
        return
    g.missed[seat] = g.missed[seat] + 1
    g.timed_out = True
    if g.events is not None:
        g.events.append({"event": "timeout", "player": seat, "missed": g.missed[seat]})
    if ck.forfeit_after_missed is not None and g.missed[seat] >= ck.forfeit_after_missed:
        g.stage = "post"
        debts.go_bankrupt(t, g, seat, -1, 0)
        return
    if ck.on_timeout == "skip_turn":
        flow.next_turn(t, g)
        return
    turns.roll(t, g, seat, dice)
    play_defaults(t, g, seat)


def play_defaults(t: Tables, g: GameState, seat: int) -> None:
    """The game decides for a player whose time ran out: decline, pay, cheapest choices."""
    guard = 0
    while g.phase not in (OVER, PRE_ROLL, POST_ROLL) and guard < 200:
        guard += 1
        ph, pend = g.phase, g.pending
        if ph == BUY and pend["player"] == seat:
            auctions.decline(t, g, seat)
        elif ph == DEBT and pend["debtor"] == seat:
            if g.cash[seat] >= pend["amount"]:
                debts.pay(t, g, seat)
            elif debts.why_not_bankrupt(t, g, seat) is None:
                debts.bankrupt(t, g, seat)
            elif not liquidate_one(t, g, seat):
                return      # nothing left to sell or mortgage: the debt waits for its debtor
        elif ph == BUS and pend["player"] == seat:
            steps = max(pend["options"]) if t.cfg.speed_die.bus_timeout == "sum" else min(pend["options"])
            turns.bus(t, g, seat, steps)
        elif ph == TRIPLES and pend["player"] == seat:
            turns.move_to(t, g, seat, g.pos[seat])
        elif ph == CASINO and pend["player"] == seat:
            casino_decline(t, g, seat)
        elif ph == INCOME_TAX and pend["player"] == seat:
            pay_tax(t, g, seat, "fixed")
        elif ph == JAIL_CHOICE and pend["player"] == seat:
            turns.stay(t, g, seat)
        else:
            return
    # the turn itself ends in flow.after_move once its move is settled (g.timed_out), also when a
    # decision of the others (the auction of a declined deed) comes first


def liquidate_one(t: Tables, g: GameState, seat: int) -> bool:
    """Raise some cash: sell a building (evenly) or mortgage a deed. False when nothing is left."""
    for grp in range(len(t.groups)):
        if building.why_not_sell_group(t, g, seat, grp) is None:
            building.sell_group(t, g, seat, grp)
            return True
    for s in t.ownable:
        if mortgages.why_not_mortgage(t, g, seat, s) is None:
            mortgages.mortgage(t, g, seat, s)
            return True
    return False

