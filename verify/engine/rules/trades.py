"""Trades between players: what may change hands, when, balance and per-turn limits, the interest on
mortgaged deeds received.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import base, construction, flow
from .common import BUY, DEBT, MANAGE_PHASES, MOVING, POST_ROLL, PRE_ROLL, GameState, Tables
from ..reasons import refusal, structural

NOT_ALLOWED: Final = refusal("trading is not allowed", "trade.allowed")
OTHER_PLAYER: Final = structural("trade with another player still in the game", "fields")
DEBTOR_TRADES: Final = structural("only the debtor trades while a debt is open", "turn")
NO_DEBT_TRADE: Final = refusal("no trading while in debt", "debt.trade_while_in_debt")
BEFORE_ROLL: Final = refusal("trades only before rolling in one's own turn", "trade.timing")
OWN_TURN: Final = refusal("trades only in one's own turn or while paying", "trade.timing")
ONLY_BEFORE_ROLL: Final = refusal("trades only before rolling", "turn.manage_before_roll_only")
JAILED: Final = refusal("a jailed player may not trade", "jail.may_manage")
PER_TURN: Final = refusal("at most {n} trades per turn", "trade.per_turn_limit")
SIDES: Final = structural("give and take are objects", "fields")
NO_GIFTS: Final = refusal("no gifts or loans: both sides give something", "trade.loans")
GAP: Final = refusal("unbalanced: the sides differ by more than {gap:.0%} of the larger", "trade.max_value_gap",
              "trade.teammates_skip_balance")
RATIO: Final = refusal("unbalanced: one side is more than {n} times the other", "trade.max_value_ratio",
                "trade.teammates_skip_balance")
UNKNOWN_FIELDS: Final = structural("unknown trade fields {fields}", "fields")
CASH_FIELD: Final = structural("cash is a whole amount >= 0", "fields")
NO_CASH_TRADE: Final = refusal("cash may not be part of a trade", "trade.cash")
TWICE: Final = structural("a deed is listed twice", "fields")
NOT_GIVERS: Final = structural("square {s} is not the giver's", "ownership")
LOCK_GROUP: Final = refusal("sell the group's buildings before trading its deeds", "trade.building_lock")
LOCK_DEED: Final = refusal("sell the buildings before trading the deed", "trade.building_lock")
NO_MORTGAGED: Final = refusal("mortgaged property cannot be traded", "trade.mortgaged")
MORTGAGED_TEAM: Final = refusal("mortgaged property is traded only between teammates", "trade.mortgaged")
NO_CARDS: Final = refusal("Get Out of Jail Free cards cannot be traded", "trade.jail_cards", "cards.jail_card_tradeable")
NO_CARD_TO_GIVE: Final = structural("no {deck} Get Out of Jail Free card to give", "ownership")
JAILED_CARD: Final = refusal("a jailed player may not buy a Get Out of Jail Free card", "jail.buy_card_from_player")


def side_value(t: Tables, g: GameState, side: dict) -> int:
    v = int(side.get("cash", 0) or 0)
    for s in side.get("squares", ()):
        v += t.mortgage_value[s] if g.mortgaged[s] else t.price[s]
    v += len(side.get("cards", ())) * t.cfg.jail.fine
    return v


def why_not_trade(t: Tables, g: GameState, seat: int, other, give: dict, take: dict) -> str | None:
    tr = t.cfg.trade
    if not tr.allowed:
        return NOT_ALLOWED
    if not isinstance(other, int) or not 0 <= other < g.n or other == seat or g.bankrupt[other]:
        return OTHER_PLAYER
    if g.bankrupt[seat]:
        return construction.BANKRUPT
    ph = g.phase
    if ph == DEBT:
        if g.pending["debtor"] != seat:
            return DEBTOR_TRADES
        if not t.cfg.debt.trade_while_in_debt:
            return NO_DEBT_TRADE
    elif tr.timing == "anytime":
        if ph not in MANAGE_PHASES:
            return construction.MANAGE_PHASE.format(phase=ph)
    elif tr.timing == "before_roll_own_turn":
        if seat != g.current or ph != PRE_ROLL:
            return BEFORE_ROLL
    else:  # own_turn_and_payments
        if seat != g.current or ph not in (PRE_ROLL, BUY, DEBT):
            return OWN_TURN
    if t.cfg.clock.manage_before_roll_only and ph != DEBT and (seat != g.current or ph != PRE_ROLL):
        return ONLY_BEFORE_ROLL
    if g.in_jail[seat] and not t.cfg.jail.may_manage:
        return JAILED
    if tr.per_turn_limit is not None and g.trades >= tr.per_turn_limit:
        return PER_TURN.format(n=tr.per_turn_limit)
    if not isinstance(give, dict) or not isinstance(take, dict):
        return SIDES
    why = side_ok(t, g, give, seat, other)
    if why:
        return why
    why = side_ok(t, g, take, other, seat)
    if why:
        return why
    gives = give.get("squares") or give.get("cards") or give.get("cash")
    takes = take.get("squares") or take.get("cards") or take.get("cash")
    if not tr.loans and (not gives or not takes):
        return NO_GIFTS
    skip = tr.teammates_skip_balance and base.same_team(t, g, seat, other)
    if not skip and (tr.max_value_gap is not None or tr.max_value_ratio is not None):
        a, b = side_value(t, g, give), side_value(t, g, take)
        hi, lo = max(a, b), min(a, b)
        if tr.max_value_gap is not None and hi - lo > tr.max_value_gap * hi + 1e-9:
            return GAP.format(gap=tr.max_value_gap)
        if tr.max_value_ratio is not None and hi > tr.max_value_ratio * lo:
            return RATIO.format(n=tr.max_value_ratio)
    return None


def side_ok(t: Tables, g: GameState, side: dict, giver: int, receiver: int) -> str | None:
    tr = t.cfg.trade
    extra = set(side) - {"squares", "cash", "cards"}
    if extra:
        return UNKNOWN_FIELDS.format(fields=sorted(extra))
    cash = side.get("cash", 0) or 0
    if not isinstance(cash, int) or cash < 0:
        return CASH_FIELD
    if cash and not tr.cash:
        return NO_CASH_TRADE
    if cash > g.cash[giver]:
        return construction.NO_CASH
    squares = side.get("squares", []) or []
    if len(set(squares)) != len(squares):
        return TWICE
    for s in squares:
        if not isinstance(s, int) or not 0 <= s < t.size or g.owner[s] != giver:
            return NOT_GIVERS.format(s=s)
        if tr.building_lock == "whole_group":
            if t.kind[s] == "street" and base.group_has_buildings(t, g, t.group_of[s]):
                return LOCK_GROUP
        elif g.houses[s] or g.hotel[s]:
            return LOCK_DEED
        if g.mortgaged[s]:
            if tr.mortgaged == "forbidden":
                return NO_MORTGAGED
            if tr.mortgaged == "teammates_only" and not base.same_team(t, g, giver, receiver):
                return MORTGAGED_TEAM
    cards = side.get("cards", []) or []
    if cards:
        if not tr.jail_cards or not t.cfg.cards.jail_card_tradeable:
            return NO_CARDS
        held = list(g.jail_cards[giver])
        for c in cards:
            if c not in held:
                return NO_CARD_TO_GIVE.format(deck=c)
            held.remove(c)
        if g.in_jail[receiver] and not t.cfg.jail.buy_card_from_player:
            return JAILED_CARD
    return None


def trade(t: Tables, g: GameState, seat: int, other: int, give: dict, take: dict) -> None:
    g.ov[seat] = g.ov[seat] + 1
    g.ov[other] = g.ov[other] + 1
    g.trades += 1
    for side, a, b in ((give, seat, other), (take, other, seat)):
        cash = side.get("cash", 0) or 0
        g.cash[a] = g.cash[a] - cash
        g.cash[b] = g.cash[b] + cash
        for c in side.get("cards", []) or []:
            g.jail_cards[a].remove(c)
            g.jail_cards[b].append(c)
    for side, b in ((give, other), (take, seat)):
        for s in side.get("squares", []) or []:
            g.owner[s] = b
            g.mark(s)
            if g.mortgaged[s] and t.cfg.mortgage.transfer_interest:
                base.receive_mortgaged(t, g, s, b, t.interest[s])
    if g.events is not None:
        g.events.append({"event": "traded", "player": seat, "other": other, "give": give, "take": take})
    if g.debts and g.phase != DEBT:
        resume_after_manage(t, g)


def resume_after_manage(t: Tables, g: GameState) -> None:
    """A debt queued by managing property (a received mortgage's interest, a claimed rent) is settled
    now, unless a decision is still awaited."""
    if g.phase in (PRE_ROLL, POST_ROLL):
        g.phase = MOVING
        flow.resume(t, g)
