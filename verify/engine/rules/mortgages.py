"""Mortgages: value, interest and its base, lifting, another player's lifting, auctioning one's own
mortgaged deed.

A mixin of ``Rules`` (see ``verify.engine.rules``): methods read the tables ``RulesBase``
builds and change a ``GameState`` in place.
"""

from __future__ import annotations

from .common import GameState, MOVING, POST_ROLL, PRE_ROLL


class MortgageRules:
    """Mortgages (a mixin of ``Rules``)."""

    def why_not_mortgage(self, g: GameState, seat: int, s) -> str | None:
        why = self._manage_window(g, seat, self.cfg.mortgage.timing, raises_cash=True)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat:
            return "not the owner"
        if g.mortgaged[s]:
            return "already mortgaged"
        if self.kind[s] == "street":
            if self.cfg.mortgage.requires_no_buildings_in_group:
                if self.group_has_buildings(g, self.group_of[s]):
                    return "sell the group's buildings first"
            elif g.houses[s] or g.hotel[s]:
                return "sell the street's buildings first"
        return None

    def mortgage(self, g: GameState, seat: int, s: int) -> None:
        g.ov[seat] += 1
        v = self.mortgage_value[s]
        g.mortgaged[s] = True
        g.mortgage_rounds[s] = 0
        g.cash[seat] += v
        g.bank_cash -= v
        if g.events is not None:
            self._ev(g, event="mortgaged", player=seat, square=s, amount=v)

    def why_not_unmortgage(self, g: GameState, seat: int, s) -> str | None:
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat:
            return "not the owner"
        if not g.mortgaged[s]:
            return "not mortgaged"
        if g.cash[seat] < self.unmortgage_cost(g, s):
            return "not enough cash"
        return None

    def unmortgage(self, g: GameState, seat: int, s: int) -> None:
        g.ov[seat] += 1
        cost = self.unmortgage_cost(g, s)
        g.cash[seat] -= cost
        g.bank_cash += cost
        g.mortgaged[s] = False
        g.mortgage_rounds[s] = 0
        g.interest_paid[s] = False
        if g.received:
            g.received.pop(s, None)
        if g.events is not None:
            self._ev(g, event="unmortgaged", player=seat, square=s, amount=cost)

    def why_not_lift(self, g: GameState, seat: int, s) -> str | None:
        """Another player takes a mortgaged property by paying off its mortgage."""
        if not self.cfg.mortgage.others_may_lift:
            return "only the owner lifts a mortgage"
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or not self.is_ownable[s] or not g.mortgaged[s] or g.owner[s] in (-1, seat):
            return "not another player's mortgaged property"
        if g.cash[seat] < self.unmortgage_cost(g, s):
            return "not enough cash"
        return None

    def lift(self, g: GameState, seat: int, s: int) -> None:
        g.ov[seat] += 1
        g.ov[g.owner[s]] += 1
        cost = self.unmortgage_cost(g, s)
        g.cash[seat] -= cost
        g.bank_cash += cost
        g.owner[s] = seat
        g.mortgaged[s] = False
        g.mortgage_rounds[s] = 0
        g.interest_paid[s] = False

    def why_not_auction_mortgaged(self, g: GameState, seat: int, s) -> str | None:
        if not self.cfg.mortgage.immediate_auction:
            return "mortgaged property cannot be put up for auction"
        why = self._manage_window(g, seat, self.cfg.mortgage.timing)
        if why:
            return why
        if not (0 <= s < 40) or g.owner[s] != seat or not g.mortgaged[s]:
            return "not the owner's mortgaged property"
        if g.phase not in (PRE_ROLL, POST_ROLL):
            return "only before or after one's move"
        return None

    def auction_mortgaged(self, g: GameState, seat: int, s: int) -> None:
        """The owner auctions a mortgaged deed at once. It opens at the mortgage value, the printed price
        or an amount; the owner bids or not; the bank takes back its loan and the owner gets the rest
        (unsold, the deed stays the owner's, still mortgaged), or the bank takes the whole price (unsold,
        it stays with the bank, unowned)."""
        mo = self.cfg.mortgage
        g.ov[seat] += 1
        g.owner[s] = -1
        g.mortgaged[s] = False
        g.mortgage_rounds[s] = 0
        g.interest_paid[s] = False
        opening = {"mortgage_value": self.mortgage_value[s], "printed_price": self.price[s]}.get(
            mo.immediate_auction_opening, mo.immediate_auction_opening_amount)
        entry = [s, "deed", opening, -1 if mo.immediate_auction_owner_bids else seat, False,
                 seat if mo.immediate_auction_proceeds == "owner_after_loan" else -1]
        self._interrupt_with_auction(g, entry)

    def _interrupt_with_auction(self, g: GameState, entry: list) -> None:
        """Hold an auction now (only from pre_roll/post_roll), then return to that phase."""
        g.auctions.insert(0, entry)
        g.phase = MOVING
        self._continue(g)
