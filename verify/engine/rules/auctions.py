"""Buying the square landed on, and auctions of every kind (declined deeds, forfeited mortgages,
building shortages).

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import AUCTION, BUY, GameState, MOVING


class AuctionRules:
    """Buying the square landed on, and auctions (a mixin of ``Rules``)."""

    def why_not_buy(self, g: GameState, seat: int) -> str | None:
        if g.phase != BUY or g.pending.get("player") != seat:
            return "no purchase offered"
        s = g.pending["square"]
        if g.cash[seat] < self.price[s]:
            return "not enough cash"
        return None

    def buy(self, g: GameState, seat: int) -> None:
        g.ov[seat] += 1
        s = g.pending["square"]
        g.cash[seat] -= self.price[s]
        g.bank_cash += self.price[s]
        g.owner[s] = seat
        if g.events is not None:
            self._ev(g, event="bought", player=seat, square=s, price=self.price[s])
        g.phase = MOVING
        g.pending = None
        g.no_auction = False
        self._continue(g)

    def why_not_decline(self, g: GameState, seat: int) -> str | None:
        if g.phase != BUY or g.pending.get("player") != seat:
            return "no purchase offered"
        return None

    def decline(self, g: GameState, seat: int) -> None:
        s = g.pending["square"]
        pu = self.cfg.purchase
        if pu.on_decline == "auction" and not g.no_auction:
            opening = self.price[s] if pu.opening == "printed_price" else pu.opening_amount
            g.auctions.insert(0, [s, "deed", opening, seat if pu.auction_bidders == "others_only" else -1,
                                  False, -1])
        g.no_auction = False
        g.phase = MOVING
        g.pending = None
        self._continue(g)

    def _start_auction(self, g: GameState, entry: list) -> bool:
        s, item, opening, excluded, mortgaged, proceeds_to = entry
        if item == "deed" and g.owner[s] >= 0:
            return False
        may_manage = self.cfg.jail.may_manage
        start = g.current
        order = [(start + k) % g.n for k in range(1, g.n + 1)]
        bidders = [q for q in order if not g.bankrupt[q] and q != excluded
                   and (may_manage or not g.in_jail[q])
                   and (item == "deed" or self._can_build_somewhere(g, q, item))]
        if not bidders:
            return False
        seat_order = self.cfg.purchase.bidding_order == "seat_order"
        g.phase = AUCTION
        g.pending = {"square": s, "item": item, "min": max(opening, 0), "high": 0, "leader": -1,
                     "bidders": bidders, "turn": bidders[0] if seat_order else None,
                     "mortgaged": mortgaged, "proceeds_to": proceeds_to}
        if g.events is not None:
            self._ev(g, event="auction", square=s, item=item, bidders=list(bidders))
        return True

    def min_bid(self, g: GameState) -> int:
        a = g.pending
        return a["high"] + self.cfg.purchase.min_increment if a["leader"] >= 0 else max(a["min"], 1)

    def why_not_bid(self, g: GameState, seat: int, amount) -> str | None:
        why = self._bidder_guard(g, seat, "already the highest bidder")
        if why:
            return why
        if not isinstance(amount, int) or isinstance(amount, bool):
            return "a bid is a whole amount"
        low = self.min_bid(g)
        if amount < low:
            return f"the bid must be at least {low}"
        if self.cfg.purchase.fixed_step and amount != low:
            return f"bids rise by exactly one step: {low}"
        if amount > g.cash[seat] and not (self.cfg.purchase.bid_above_cash and g.pending["item"] == "deed"):
            return "a bid cannot exceed the bidder's cash"
        return None

    def bid(self, g: GameState, seat: int, amount: int) -> None:
        a = g.pending
        a["high"] = amount
        a["leader"] = seat
        if g.events is not None:
            self._ev(g, event="bid", player=seat, amount=amount)
        self._next_bidder(g, seat)

    def why_not_pass(self, g: GameState, seat: int) -> str | None:
        return self._bidder_guard(g, seat, "the highest bidder cannot pass")

    def _bidder_guard(self, g: GameState, seat: int, leader_refusal: str) -> str | None:
        """Shared by bid and pass: an auction is running and it is this bidder's move."""
        if g.phase != AUCTION:
            return "no auction"
        a = g.pending
        if seat not in a["bidders"]:
            return "not bidding in this auction"
        if seat == a["leader"]:
            return leader_refusal
        if a["turn"] is not None and a["turn"] != seat:
            return "not this bidder's turn"
        return None

    def pass_bid(self, g: GameState, seat: int) -> None:
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
        self._maybe_close(g)

    def _next_bidder(self, g: GameState, seat: int) -> None:
        a = g.pending
        bidders = a["bidders"]
        if a["turn"] is not None:
            i = bidders.index(seat)
            a["turn"] = bidders[(i + 1) % len(bidders)]
        self._maybe_close(g)

    def _maybe_close(self, g: GameState) -> None:
        a = g.pending
        bidders = a["bidders"]
        leader = a["leader"]
        if bidders and not (leader >= 0 and bidders == [leader]):
            return
        s, item = a["square"], a["item"]
        if leader >= 0:
            g.ov[leader] += 1
            amount = a["high"]
            to = a["proceeds_to"]
            share = amount - min(amount, self.mortgage_value[s]) if to >= 0 and item == "deed" else 0
            if amount > g.cash[leader]:
                # a bid above the winner's cash (auction.bid_above_cash): the deed is theirs and the price
                # a debt, raised by selling and mortgaging (or a bankruptcy)
                g.debts.append([leader, to if share else -1, amount, share, "auction"])
            else:
                g.cash[leader] -= amount
                g.bank_cash += amount - share
                if share:
                    g.cash[to] += share
            if item == "deed":
                g.owner[s] = leader
                g.mortgaged[s] = a["mortgaged"]
                g.mortgage_rounds[s] = 0
            else:
                self._place_won_building(g, leader, item)
        elif item == "deed":
            if a["proceeds_to"] >= 0:     # nobody bid for an owner's mortgaged deed: it stays theirs
                g.owner[s] = a["proceeds_to"]
                g.mortgaged[s] = True
                g.ov[a["proceeds_to"]] += 1
            else:                         # the deed stays with the bank, free of any mortgage
                g.mortgaged[s] = False
        if g.events is not None:
            self._ev(g, event="auction_won" if leader >= 0 else "auction_no_bid", square=s, item=item,
                     player=leader, amount=a["high"])
        g.phase = MOVING
        g.pending = None
        self._continue(g)
