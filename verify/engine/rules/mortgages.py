"""Mortgages: value, interest and its base, lifting, another player's lifting, auctioning one's own
mortgaged deed.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import base, construction, flow
from .common import POST_ROLL, PRE_ROLL, GameState, Tables
from ..reasons import refusal, structural

MORTGAGE_LATE: Final = refusal("only before rolling in one's own turn", "mortgage.timing", "turn.manage_before_roll_only")
ALREADY: Final = structural("already mortgaged", "fields")
GROUP_BUILDINGS: Final = refusal("sell the group's buildings first", "mortgage.requires_no_buildings_in_group")
STREET_BUILDINGS: Final = refusal("sell the street's buildings first", "mortgage.requires_no_buildings_in_group")
NOT_MORTGAGED: Final = structural("not mortgaged", "fields")
OWNER_LIFTS: Final = refusal("only the owner lifts a mortgage", "mortgage.others_may_lift")
NOT_OTHERS: Final = structural("not another player's mortgaged property", "fields")
NO_OWN_AUCTION: Final = refusal("mortgaged property cannot be put up for auction", "mortgage.immediate_auction")
NOT_OWN_MORTGAGED: Final = structural("not the owner's mortgaged property", "ownership")
AT_REST: Final = structural("only before or after one's move", "phase")


def why_not_mortgage(t: Tables, g: GameState, seat: int, s: int) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.mortgage.timing, MORTGAGE_LATE, raises_cash=True)
    if why:
        return why
    if not (0 <= s < t.size) or g.owner[s] != seat:
        return construction.NOT_OWNER
    if g.mortgaged[s]:
        return ALREADY
    if t.kind[s] == "street":
        if t.cfg.mortgage.requires_no_buildings_in_group:
            if base.group_has_buildings(t, g, t.group_of[s]):
                return GROUP_BUILDINGS
        elif g.houses[s] or g.hotel[s]:
            return STREET_BUILDINGS
    return None


def mortgage(t: Tables, g: GameState, seat: int, s: int) -> None:
    g.ov[seat] = g.ov[seat] + 1
    v = t.mortgage_value[s]
    g.mortgaged[s] = True
    g.mark(s)
    g.mortgage_rounds[s] = 0
    g.cash[seat] = g.cash[seat] + v
    g.bank_cash -= v
    if g.events is not None:
        g.events.append({"event": "mortgaged", "player": seat, "square": s, "amount": v})


def why_not_unmortgage(t: Tables, g: GameState, seat: int, s: int) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.mortgage.timing, MORTGAGE_LATE)
    if why:
        return why
    if not (0 <= s < t.size) or g.owner[s] != seat:
        return construction.NOT_OWNER
    if not g.mortgaged[s]:
        return NOT_MORTGAGED
    if g.cash[seat] < base.unmortgage_cost(t, g, s):
        return construction.NO_CASH
    return None


def unmortgage(t: Tables, g: GameState, seat: int, s: int) -> None:
    g.ov[seat] = g.ov[seat] + 1
    cost = base.unmortgage_cost(t, g, s)
    g.cash[seat] = g.cash[seat] - cost
    g.bank_cash += cost
    g.mortgaged[s] = False
    g.mark(s)
    g.mortgage_rounds[s] = 0
    g.interest_paid[s] = False
    if g.received:
        g.received.pop(s, None)
    if g.events is not None:
        g.events.append({"event": "unmortgaged", "player": seat, "square": s, "amount": cost})


def why_not_lift(t: Tables, g: GameState, seat: int, s) -> str | None:
    """Another player takes a mortgaged property by paying off its mortgage."""
    if not t.cfg.mortgage.others_may_lift:
        return OWNER_LIFTS
    why = construction.manage_window(t, g, seat, t.cfg.mortgage.timing, MORTGAGE_LATE)
    if why:
        return why
    if not (0 <= s < t.size) or not t.is_ownable[s] or not g.mortgaged[s] or g.owner[s] in (-1, seat):
        return NOT_OTHERS
    if g.cash[seat] < base.unmortgage_cost(t, g, s):
        return construction.NO_CASH
    return None


def lift(t: Tables, g: GameState, seat: int, s: int) -> None:
    g.ov[seat] = g.ov[seat] + 1
    g.ov[g.owner[s]] = g.ov[g.owner[s]] + 1
    cost = base.unmortgage_cost(t, g, s)
    g.cash[seat] = g.cash[seat] - cost
    g.bank_cash += cost
    g.owner[s] = seat
    g.mortgaged[s] = False
    g.mark(s)
    g.mortgage_rounds[s] = 0
    g.interest_paid[s] = False


def why_not_auction_mortgaged(t: Tables, g: GameState, seat: int, s) -> str | None:
    if not t.cfg.mortgage.immediate_auction:
        return NO_OWN_AUCTION
    why = construction.manage_window(t, g, seat, t.cfg.mortgage.timing, MORTGAGE_LATE)
    if why:
        return why
    if not (0 <= s < t.size) or g.owner[s] != seat or not g.mortgaged[s]:
        return NOT_OWN_MORTGAGED
    if g.phase not in (PRE_ROLL, POST_ROLL):
        return AT_REST
    return None


def auction_mortgaged(t: Tables, g: GameState, seat: int, s: int) -> None:
    """The owner auctions a mortgaged deed at once. It opens at the mortgage value, the printed price
    or an amount; the owner bids or not; the bank takes back its loan and the owner gets the rest
    (unsold, the deed stays the owner's, still mortgaged), or the bank takes the whole price (unsold,
    it stays with the bank, unowned)."""
    mo = t.cfg.mortgage
    g.ov[seat] = g.ov[seat] + 1
    g.owner[s] = -1
    g.mortgaged[s] = False
    g.mark(s)
    g.mortgage_rounds[s] = 0
    g.interest_paid[s] = False
    if mo.immediate_auction_opening == "mortgage_value":
        opening = t.mortgage_value[s]
    elif mo.immediate_auction_opening == "printed_price":
        opening = t.price[s]
    else:
        opening = mo.immediate_auction_opening_amount
    entry = [s, "deed", opening, -1 if mo.immediate_auction_owner_bids else seat, False,
             seat if mo.immediate_auction_proceeds == "owner_after_loan" else -1]
    flow.interrupt_with_auction(t, g, entry)


