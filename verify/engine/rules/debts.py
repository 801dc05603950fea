"""Rent the owner must claim, paying debts, bankruptcy (to a player, to the bank) and surrender.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import auctions, base, flow, trades
from .common import AUCTION, BUY, DEBT, MOVING, OVER, POST_ROLL, PRE_ROLL, GameState, Tables
from ..reasons import refusal, structural

CLAIM_PHASE: Final = structural("not in phase {phase}", "phase")
NO_RENT: Final = structural("no rent to claim", "ownership")
NO_DEBT_TO_PAY: Final = structural("no debt to pay", "phase")
PAY_CASH: Final = structural("not enough cash: sell, mortgage or trade first", "ownership")
NO_DEBT: Final = structural("no debt", "phase")
PAYABLE: Final = structural("the debt can be paid", "ownership")
RAISABLE: Final = refusal("the debt can still be raised by selling and mortgaging", "bankruptcy.threshold",
                   "debt.raise_cash_first")
WITHIN_WORTH: Final = refusal("the debt does not exceed the debtor's total worth: raise it by selling, mortgaging "
                       "or trading", "bankruptcy.threshold")
NO_SURRENDER: Final = refusal("players may not give up", "bankruptcy.surrender")
NOT_IN_GAME: Final = structural("not in the game", "phase")


# ---------------------------------------------------------------------------- rent claims
def expire_claims(t: Tables, g: GameState) -> None:
    """Rent not asked for before its deadline (the roll of the next, or second next, player) lapses."""
    keep = []
    for c in g.claims:
        if g.player_turns >= c[5]:
            if g.events is not None:
                g.events.append({"event": "rent_lapsed", "payer": c[0], "owner": c[1], "square": c[2],
                                 "amount": c[3]})
        else:
            keep.append(c)
    g.claims = keep


def why_not_claim_rent(t: Tables, g: GameState, seat: int, square) -> str | None:
    if g.phase not in (PRE_ROLL, POST_ROLL, BUY):
        return CLAIM_PHASE.format(phase=g.phase)
    for c in g.claims:
        if c[1] == seat and (square is None or c[2] == square):
            return None
    return NO_RENT


def claim_rent(t: Tables, g: GameState, seat: int, square=None) -> None:
    for i, c in enumerate(g.claims):
        claimant: int = c[1]
        if claimant == seat and (square is None or c[2] == square):
            g.claims.pop(i)
            payer: int
            owner: int
            amount: int
            share: int
            payer, owner, s, amount, share, _ = c
            if g.bankrupt[payer]:
                return
            base.charge(t, g, payer, owner, amount, "rent", share)
            if g.events is not None:
                g.events.append({"event": "rent_claimed", "payer": payer, "owner": owner, "square": s,
                                 "amount": amount})
            if g.debts and g.phase != BUY:
                trades.resume_after_manage(t, g)
            return


# ---------------------------------------------------------------------------- paying, or not
def why_not_pay(t: Tables, g: GameState, seat: int) -> str | None:
    if g.phase != DEBT or g.pending["debtor"] != seat:
        return NO_DEBT_TO_PAY
    if g.cash[seat] < g.pending["amount"]:
        return PAY_CASH
    return None


def pay(t: Tables, g: GameState, seat: int) -> None:
    base.settle(t, g, g.debts.pop(0))
    g.phase = MOVING
    g.pending = None
    flow.resume(t, g)


def why_not_bankrupt(t: Tables, g: GameState, seat: int) -> str | None:
    """Bankruptcy is declared only for a debt the rules say cannot be met: one that cannot be raised by
    selling and mortgaging (``cannot_raise``), or one above the debtor's total worth
    (``debt_exceeds_worth``: a debtor whose worth covers the debt must raise it, by trading too, or
    give up where the rules allow)."""
    if g.phase != DEBT or g.pending["debtor"] != seat:
        return NO_DEBT
    amount = g.pending["amount"]
    if g.cash[seat] >= amount:
        return PAYABLE
    dc = t.cfg.debt
    if dc.threshold == "debt_exceeds_worth" and amount <= base.net_worth(t, g, seat):
        return WITHIN_WORTH
    if dc.raise_cash_first and base.raisable(t, g, seat) >= amount:
        return RAISABLE
    return None


def bankrupt(t: Tables, g: GameState, seat: int) -> None:
    creditor, amount = g.pending["creditor"], g.pending["amount"]
    g.debts.pop(0)
    g.pending = None
    g.phase = MOVING
    go_bankrupt(t, g, seat, creditor, amount)


def why_not_surrender(t: Tables, g: GameState, seat: int) -> str | None:
    if not t.cfg.debt.surrender:
        return NO_SURRENDER
    if g.bankrupt[seat] or g.phase == OVER:
        return NOT_IN_GAME
    return None


def surrender(t: Tables, g: GameState, seat: int) -> None:
    """The player gives up: a debt of theirs being raised goes with them (to its creditor, as a
    bankruptcy would), their own open decision too; in an auction they stop bidding (a leading bid of
    theirs is withdrawn: the auction goes on from its opening bid)."""
    creditor, amount = -1, 0
    if g.phase == DEBT and g.pending["debtor"] == seat:
        creditor, amount = g.pending["creditor"], g.pending["amount"]
        g.debts.pop(0)
        g.pending = None
        g.phase = MOVING
    elif g.phase == AUCTION:
        a = g.pending
        if seat in a["bidders"]:
            auctions.leave_auction(g, seat)
        if a["leader"] == seat:
            a["leader"], a["high"] = -1, 0
    elif isinstance(g.pending, dict) and g.pending.get("player") == seat:
        g.pending = None        # the player's own open decision goes with them
        g.phase = MOVING
    go_bankrupt(t, g, seat, creditor, amount)
    if g.phase == AUCTION:
        auctions.maybe_close(t, g)


def go_bankrupt(t: Tables, g: GameState, p: int, creditor: int, amount: int) -> None:
    """Every asset of p goes where the ruleset says; p leaves the game."""
    base.touch_all(g)
    dc = t.cfg.debt
    if creditor >= 0 and g.bankrupt[creditor]:
        creditor = -1
    g.creditors.append(creditor)
    if g.events is not None:
        g.events.append({"event": "bankrupt", "player": p, "creditor": creditor, "amount": amount})
    mine = [s for s in t.ownable if g.owner[s] == p]
    building_sale = 0
    for s in mine:
        building_sale += base.building_sale(t, g, s)
        base.stock_back(t, g, g.houses[s], 1 if g.hotel[s] else 0)
        g.houses[s] = 0
        g.hotel[s] = False
        g.mark(s)
    cash = g.cash[p]
    g.cash[p] = 0
    held = g.jail_cards[p]
    g.jail_cards[p] = []
    if creditor >= 0:
        if dc.to_player_cash == "proceeds_to_creditor":
            proceeds = cash + building_sale + sum(t.mortgage_value[s] for s in mine if not g.mortgaged[s])
            paid = min(proceeds, amount) if amount else proceeds
            g.cash[creditor] = g.cash[creditor] + paid
            g.bank_cash += cash - paid
        else:
            g.cash[creditor] = g.cash[creditor] + cash
            if dc.to_player_buildings == "sold_half_to_creditor" and building_sale:
                g.cash[creditor] = g.cash[creditor] + building_sale
                g.bank_cash -= building_sale
        for s in mine:
            if g.mortgaged[s] and dc.to_player_mortgaged == "dropped":
                continue   # a custom table's bug: the deed stays with the bankrupt player
            if dc.to_player_properties == "creditor":
                g.owner[s] = creditor
                g.mark(s)
                if g.mortgaged[s] and t.cfg.mortgage.transfer_interest:
                    base.receive_mortgaged(t, g, s, creditor, t.transfer_interest[s], queued=True)
            else:
                g.owner[s] = -1
                g.mortgaged[s] = False
                g.mark(s)
                g.mortgage_rounds[s] = 0
                g.interest_paid[s] = False
                if dc.to_player_properties == "bank_auction":
                    g.auctions.append([s, "deed", flow.opening_bid(t, s), -1, False, -1])
        if dc.to_player_jail_cards == "creditor":
            g.jail_cards[creditor].extend(held)
        else:
            base.return_cards(t, g, held)
    else:
        g.bank_cash += cash
        heir = -1
        inherits = t.cfg.teams.enabled and t.cfg.teams.bankrupt_to_bank_teammate_inherits
        if dc.to_bank_properties == "teammate" or inherits:
            for q in range(g.n):
                if q != p and not g.bankrupt[q] and base.same_team(t, g, p, q):
                    heir = q
                    break
        for s in mine:
            if heir >= 0:
                g.owner[s] = heir
                g.mark(s)
                if dc.to_bank_mortgages == "cleared":
                    g.mortgaged[s] = False
                    g.mark(s)
                    g.interest_paid[s] = False
                continue
            g.owner[s] = -1
            g.mark(s)
            keep = dc.to_bank_mortgages == "kept_on_auction" and dc.to_bank_properties == "auction"
            if not keep:
                g.mortgaged[s] = False
                g.mark(s)
                g.interest_paid[s] = False
            g.mortgage_rounds[s] = 0
            if dc.to_bank_properties == "auction":
                g.auctions.append([s, "deed", flow.opening_bid(t, s), -1, keep and g.mortgaged[s], -1])
        base.return_cards(t, g, held)
    g.bankrupt[p] = True
    g.in_jail[p] = False
    g.debts = [d for d in g.debts if d[0] != p]
    for d in g.debts:
        if d[1] == p:
            d[1] = -1
    if g.claims:
        g.claims = [c for c in g.claims if c[0] != p and c[1] != p]
    if flow.check_end(t, g):
        g.debts, g.auctions, g.claims = [], [], []
        return
    if g.phase not in (MOVING, PRE_ROLL, POST_ROLL):
        # someone else's decision is still awaited (an auction, a purchase, a debt...): the queued
        # debts and auctions follow it
        if g.phase == DEBT and g.debts:
            g.pending["creditor"] = g.debts[0][1]
        return
    g.phase = MOVING
    flow.resume(t, g)
