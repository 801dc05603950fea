"""Buying the square landed on, and auctions of every kind (declined deeds, forfeited mortgages,
building shortages).

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import construction, flow
from .common import AUCTION, BUY, MOVING, GameState, Tables
from ..reasons import refusal, structural

NO_PURCHASE: Final = structural("no purchase offered", "phase")
NO_CASH: Final = structural("not enough cash", "ownership")
NO_AUCTION: Final = structural("no auction", "phase")
NOT_BIDDING: Final = refusal("not bidding in this auction", "auction.bidders", "jail.may_manage")
LEADING: Final = structural("already the highest bidder", "turn")
LEADER_PASS: Final = structural("the highest bidder cannot pass", "turn")
NOT_YOUR_BID: Final = refusal("not this bidder's turn", "auction.bidding_order")
WHOLE_BID: Final = structural("a bid is a whole amount", "fields")
BID_LOW: Final = refusal("the bid must be at least {low}", "auction.opening_bid", "auction.min_increment")
BID_STEP: Final = refusal("bids rise by exactly one step: {low}", "auction.fixed_step")
BID_CASH: Final = refusal("a bid cannot exceed the bidder's cash", "auction.bid_above_cash")


def why_not_buy(t: Tables, g: GameState, seat: int) -> str | None:
    if g.phase != BUY or g.pending.get("player") != seat:
        return NO_PURCHASE
    if g.cash[seat] < t.price[g.pending["square"]]:
        return NO_CASH
    return None


def buy(t: Tables, g: GameState, seat: int) -> None:
    g.ov[seat] = g.ov[seat] + 1
    s = g.pending["square"]
    g.cash[seat] = g.cash[seat] - t.price[s]
    g.bank_cash += t.price[s]
    g.owner[s] = seat
    g.mark(s)
    if g.events is not None:
        g.events.append({"event": "bought", "player": seat, "square": s, "price": t.price[s]})
    g.phase = MOVING
    g.pending = None
    g.no_auction = False
    flow.resume(t, g)


def why_not_decline(t: Tables, g: GameState, seat: int) -> str | None:
    if g.phase != BUY or g.pending.get("player") != seat:
        return NO_PURCHASE
    return None


def decline(t: Tables, g: GameState, seat: int) -> None:
    s = g.pending["square"]
    pu = t.cfg.purchase
    if pu.on_decline == "auction" and not g.no_auction:
        g.auctions.insert(0, [s, "deed", flow.opening_bid(t, s), seat if pu.auction_bidders == "others_only" else -1,
                              False, -1])
    g.no_auction = False
    g.phase = MOVING
    g.pending = None
    flow.resume(t, g)


def min_bid(t: Tables, g: GameState) -> int:
    a = g.pending
    return a["high"] + t.cfg.purchase.min_increment if a["leader"] >= 0 else max(a["min"], 1)


def why_not_bid(t: Tables, g: GameState, seat: int, amount) -> str | None:
    why = bidder_guard(g, seat, LEADING)
    if why:
        return why
    if not isinstance(amount, int) or isinstance(amount, bool):
        return WHOLE_BID
    low = min_bid(t, g)
    if amount < low:
        return BID_LOW.format(low=low)
    if t.cfg.purchase.fixed_step and amount != low:
        return BID_STEP.format(low=low)
    if amount > g.cash[seat] and not (t.cfg.purchase.bid_above_cash and g.pending["item"] == "deed"):
        return BID_CASH
    return None


def bid(t: Tables, g: GameState, seat: int, amount: int) -> None:
    a = g.pending
    a["high"] = amount
    a["leader"] = seat
    if g.events is not None:
        g.events.append({"event": "bid", "player": seat, "amount": amount})
    bidders = a["bidders"]
    if a["turn"] is not None:
        a["turn"] = bidders[(bidders.index(seat) + 1) % len(bidders)]
    maybe_close(t, g)


def why_not_pass(t: Tables, g: GameState, seat: int) -> str | None:
    return bidder_guard(g, seat, LEADER_PASS)


def bidder_guard(g: GameState, seat: int, leader_refusal: str) -> str | None:
    """Shared by bid and pass: an auction is running and it is this bidder's move."""
    if g.phase != AUCTION:
        return NO_AUCTION
    a = g.pending
    if seat not in a["bidders"]:
        return NOT_BIDDING
    if seat == a["leader"]:
        return leader_refusal
    if a["turn"] is not None and a["turn"] != seat:
        return NOT_YOUR_BID
    return None


def pass_bid(t: Tables, g: GameState, seat: int) -> None:
    leave_auction(g, seat)
    maybe_close(t, g)


def leave_auction(g: GameState, seat: int) -> None:
    """A bidder drops out: in seat order the turn passes to the next bidder (never to the leader)."""
    a = g.pending
    bidders = a["bidders"]
    i = bidders.index(seat)
    bidders.pop(i)
    if a["turn"] is not None and bidders:
        j = i % len(bidders)
        nxt = bidders[j]
        if nxt == a["leader"] and len(bidders) > 1:
            nxt = bidders[(j + 1) % len(bidders)]
        a["turn"] = nxt


def maybe_close(t: Tables, g: GameState) -> None:
    a = g.pending
    bidders = a["bidders"]
    leader = a["leader"]
    if bidders and not (leader >= 0 and bidders == [leader]):
        return
    s, item = a["square"], a["item"]
    if leader >= 0:
        g.ov[leader] = g.ov[leader] + 1
        amount = a["high"]
        to = a["proceeds_to"]
        share = amount - min(amount, t.mortgage_value[s]) if to >= 0 and item == "deed" else 0
        if amount > g.cash[leader]:
            # a bid above the winner's cash (auction.bid_above_cash): the deed is theirs and the price
            # a debt, raised by selling and mortgaging (or a bankruptcy)
            g.debts.append([leader, to if share else -1, amount, share, "auction"])
        else:
            g.cash[leader] = g.cash[leader] - amount
            g.bank_cash += amount - share
            if share:
                g.cash[to] = g.cash[to] + share
        if item == "deed":
            g.owner[s] = leader
            g.mortgaged[s] = a["mortgaged"]
            g.mark(s)
            g.mortgage_rounds[s] = 0
        else:
            construction.place_won_building(t, g, leader, item)
    elif item == "deed":
        if a["proceeds_to"] >= 0:     # nobody bid for an owner's mortgaged deed: it stays theirs
            g.owner[s] = a["proceeds_to"]
            g.mortgaged[s] = True
            g.mark(s)
            g.ov[a["proceeds_to"]] = g.ov[a["proceeds_to"]] + 1
        else:                         # the deed stays with the bank, free of any mortgage
            g.mortgaged[s] = False
            g.mark(s)
    if g.events is not None:
        g.events.append({"event": "auction_won" if leader >= 0 else "auction_no_bid", "square": s,
                         "item": item, "player": leader, "amount": a["high"]})
    g.phase = MOVING
    g.pending = None
    flow.resume(t, g)
