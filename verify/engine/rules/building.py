"""Building and selling houses and hotels: the actions (a shortage puts the building up for auction), even
selling, hotels broken down, a group's buildings sold at once. Who may build where, the supply and
shortages are the ``construction`` family's.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import base, construction, flow
from .common import POST_ROLL, PRE_ROLL, GameState, Tables
from ..reasons import refusal, structural

SELL_LATE: Final = refusal("only before rolling in one's own turn", "building.sell_timing",
                    "turn.manage_before_roll_only")
NO_HOUSES_LEFT: Final = refusal("the bank has no houses left", "building.house_supply")
NO_HOTELS_LEFT: Final = refusal("the bank has no hotels left", "building.hotel_supply")
NO_HOUSE: Final = structural("no house to sell", "fields")
EVEN_SELL: Final = refusal("sell evenly", "building.even_sell")
NO_HOTEL: Final = structural("no hotel to sell", "fields")
BREAK_DOWN: Final = refusal("breaking a hotel down needs {n} houses from the bank (sell the group's buildings instead)",
                     "building.hotel_returns_houses", "building.house_supply")
NO_GROUP: Final = structural("no such group", "fields")
NO_BUILDINGS: Final = structural("no buildings of this player in the group", "ownership")
OTHERS_BUILDINGS: Final = structural("the group has another owner's buildings", "ownership")


# ---------------------------------------------------------------------------- when property is managed


# ---------------------------------------------------------------------------- building


def why_not_build_house(t: Tables, g: GameState, seat: int, s: int) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.building.timing, construction.BUILD_LATE)
    if why:
        return why
    if g.bank_houses <= 0:
        return NO_HOUSES_LEFT
    return construction.house_ok(t, g, seat, s)


def build_house(t: Tables, g: GameState, seat: int, s: int) -> None:
    if g.phase in (PRE_ROLL, POST_ROLL) and construction.shortage(t, g, "house"):
        building_auction(t, g, s, "house")
        return
    construction.put_house(t, g, seat, s, t.house_cost[s])


def why_not_build_hotel(t: Tables, g: GameState, seat: int, s: int) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.building.timing, construction.BUILD_LATE)
    if why:
        return why
    if g.bank_hotels <= 0:
        return NO_HOTELS_LEFT
    return construction.hotel_ok(t, g, seat, s)


def build_hotel(t: Tables, g: GameState, seat: int, s: int) -> None:
    if g.phase in (PRE_ROLL, POST_ROLL) and construction.shortage(t, g, "hotel"):
        building_auction(t, g, s, "hotel")
        return
    construction.put_hotel(t, g, seat, s, t.house_cost[s])


def building_auction(t: Tables, g: GameState, s: int, item: str) -> None:
    """A shortage: the building goes to the highest bidder among everyone who could build."""
    pu = t.cfg.purchase
    opening = t.house_cost[s] if pu.opening == "printed_price" else pu.opening_amount
    flow.interrupt_with_auction(t, g, [s, item, opening, -1, False, -1])


# ---------------------------------------------------------------------------- selling back
def why_not_sell_house(t: Tables, g: GameState, seat: int, s: int) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.building.sell_timing, SELL_LATE, raises_cash=True)
    if why:
        return why
    if not (0 <= s < t.size) or g.owner[s] != seat or t.kind[s] != "street":
        return construction.NOT_OWNER
    if g.houses[s] <= 0 or (g.hotel[s] and t.cfg.building.hotel_returns_houses):
        return NO_HOUSE
    if t.cfg.building.even_sell:
        h = g.houses[s]
        for x in t.groups[t.group_of[s]]:
            if x != s and base.level(t, g, x) > h:
                return EVEN_SELL
    return None


def sell_house(t: Tables, g: GameState, seat: int, s: int) -> None:
    v = t.sell_house_value[s]
    g.houses[s] = g.houses[s] - 1
    g.mark(s)
    base.stock_back(t, g, 1, 0)
    g.cash[seat] = g.cash[seat] + v
    g.bank_cash -= v
    if g.events is not None:
        g.events.append({"event": "sold", "player": seat, "square": s, "item": "house", "amount": v})


def why_not_sell_hotel(t: Tables, g: GameState, seat: int, s: int) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.building.sell_timing, SELL_LATE, raises_cash=True)
    if why:
        return why
    if not (0 <= s < t.size) or g.owner[s] != seat or not g.hotel[s]:
        return NO_HOTEL
    if g.bank_houses < t.hotel_back:
        return BREAK_DOWN.format(n=t.hotel_back)
    return None


def sell_hotel(t: Tables, g: GameState, seat: int, s: int) -> None:
    """Break the hotel down: the street holds the houses a hotel needs again (hotel_threshold; a hotel
    stands for those houses and itself, as its building value and the even-build levels say)."""
    back = t.hotel_back
    v = t.sell_house_value[s]
    g.hotel[s] = False
    g.mark(s)
    base.stock_back(t, g, 0, 1)
    g.houses[s] = g.houses[s] + back
    g.mark(s)
    base.stock_out(t, g, back, 0)
    g.cash[seat] = g.cash[seat] + v
    g.bank_cash -= v
    if g.events is not None:
        g.events.append({"event": "sold", "player": seat, "square": s, "item": "hotel", "amount": v})


def why_not_sell_group(t: Tables, g: GameState, seat: int, grp) -> str | None:
    why = construction.manage_window(t, g, seat, t.cfg.building.sell_timing, SELL_LATE, raises_cash=True)
    if why:
        return why
    if not isinstance(grp, int) or not 0 <= grp < len(t.groups):
        return NO_GROUP
    squares = t.groups[grp]
    if not any(g.owner[s] == seat and (g.houses[s] or g.hotel[s]) for s in squares):
        return NO_BUILDINGS
    if any(g.owner[s] != seat and (g.houses[s] or g.hotel[s]) for s in squares):
        return OTHERS_BUILDINGS
    return None


def sell_group(t: Tables, g: GameState, seat: int, grp: int) -> None:
    """Sell every building of a group back at once (keeps the group even)."""
    v = base.clear_group(t, g, grp)
    g.cash[seat] = g.cash[seat] + v
    g.bank_cash -= v
    if g.events is not None:
        g.events.append({"event": "sold", "player": seat, "group": grp, "item": "group", "amount": v})
