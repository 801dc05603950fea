"""Who may build or sell where, and the bank's supply: the management window, the building guards (whole
groups, evenness, mortgages, per-turn limits), shortages and what players could build, putting a house or a
hotel up, and placing a building won at a shortage auction. The actions that build and sell are the
``building`` family's; these are the rules they, the auctions and the other families read.

Functions of the per-config ``Tables`` ``t`` and the ``GameState`` ``g`` (see
``verify.engine.rules``); they change ``g`` in place.
"""

from __future__ import annotations

from typing import Final

from . import base
from .common import DEBT, MANAGE_PHASES, PRE_ROLL, GameState, Tables
from ..reasons import Reason, refusal, structural

BANKRUPT: Final = structural("bankrupt", "phase")
MANAGE_PHASE: Final = structural("not in phase {phase}", "phase")
DEBTOR_ONLY: Final = structural("only the debtor acts while a debt is open", "turn")
BUILD_LATE: Final = refusal("only before rolling in one's own turn", "building.timing", "turn.manage_before_roll_only")
JAILED_MANAGE: Final = refusal("a jailed player may not manage property", "jail.may_manage")
NOT_STREET: Final = structural("only streets carry buildings", "fields")
NOT_OWNER: Final = structural("not the owner", "ownership")
WHOLE_GROUP: Final = refusal("the whole colour group is needed", "building.requires_full_group")
STREET_MORTGAGED: Final = refusal("the street is mortgaged", "building.blocked_by_mortgage")
GROUP_MORTGAGED: Final = refusal("a street of the group is mortgaged", "building.blocked_by_mortgage")
LEVEL_PER_TURN: Final = refusal("one level per street per turn", "building.per_turn_limit")
ONE_PER_GROUP: Final = refusal("one building per group per turn", "building.per_turn_limit")
NO_CASH: Final = structural("not enough cash", "ownership")
HOTEL_STANDS: Final = structural("the street has a hotel", "fields")
MAX_HOUSES: Final = refusal("at most {n} houses", "building.max_houses")
EVEN_BUILD: Final = refusal("build evenly", "building.even_build")
HAS_HOTEL: Final = refusal("the street already has a hotel", "building.max_hotels_per_street")
HOTEL_NEEDS: Final = refusal("a hotel needs {n} houses", "building.hotel_threshold")
HOTEL_GROUP: Final = refusal("every street of the group needs {n} houses first", "building.hotel_needs_whole_group",
                      "building.hotel_threshold")
EVEN_HOTEL: Final = refusal("build evenly: a hotel is one level above the houses it needs", "building.even_build")


def manage_window(t: Tables, g: GameState, seat: int, timing: str, late: Reason,
                  raises_cash: bool = False) -> str | None:
    """Whether ``seat`` may manage property now (``timing``: the rule's ``anytime`` or
    ``before_roll_own_turn``; ``late``: the refusal naming it). Under ``before_roll_own_turn`` timing
    the one exception is a debtor raising cash (selling, mortgaging); building or lifting a mortgage
    while a debt is open waits for the next turn."""
    if g.bankrupt[seat]:
        return BANKRUPT
    ph = g.phase
    if ph not in MANAGE_PHASES:
        return MANAGE_PHASE.format(phase=ph)
    if ph == DEBT and g.pending["debtor"] != seat:
        return DEBTOR_ONLY
    if timing == "before_roll_own_turn" or t.cfg.clock.manage_before_roll_only:
        if seat != g.current or ph != PRE_ROLL:
            if not (raises_cash and ph == DEBT and g.pending["debtor"] == seat):
                return late
    if g.in_jail[seat] and not t.cfg.jail.may_manage:
        return JAILED_MANAGE
    return None


def may_manage_now(t: Tables, g: GameState, seat: int) -> bool:
    """The widest management window (anytime, raising cash): no management action of ``seat`` can be
    legal outside it (``legal_actions`` asks this before asking every guard)."""
    return manage_window(t, g, seat, "anytime", BUILD_LATE, raises_cash=True) is None


def build_guard(t: Tables, g: GameState, seat: int, s: int, price: int | None = None) -> str | None:
    """Ownership, full group, mortgages, per-turn limits, cash for ``price`` (the house cost
    unless a shortage auction set it): shared by houses and hotels."""
    if not (0 <= s < t.size) or t.kind[s] != "street":
        return NOT_STREET
    if g.owner[s] != seat:
        return NOT_OWNER
    if t.cfg.building.requires_full_group and not base.owns_group(t, g, seat, t.group_of[s]):
        return WHOLE_GROUP
    why = street_blocked(t, g, s)
    if why:
        return why
    if g.cash[seat] < (t.house_cost[s] if price is None else price):
        return NO_CASH
    return None


def street_blocked(t: Tables, g: GameState, s: int) -> str | None:
    """What stops the owner of a street they may build on (see ``build_guard``) from building there
    now: mortgages, the per-turn limits. (In two parts, the street's group and the street's own level
    this turn, so that ``demand`` asks the group once for all its streets.)"""
    if g.mortgaged[s]:
        return STREET_MORTGAGED
    return group_blocked(t, g, t.group_of[s]) or level_built(t, g, s)


def group_blocked(t: Tables, g: GameState, grp: int) -> str | None:
    """What stops building on every street of group ``grp`` now: a mortgaged street of it, one building
    per group per turn."""
    bu = t.cfg.building
    if bu.blocked_by_mortgage:
        mortgaged = g.mortgaged
        for x in t.groups[grp]:
            if mortgaged[x]:
                return GROUP_MORTGAGED
    if t.group_per_turn and grp in g.built_groups:
        return ONE_PER_GROUP
    return None


def level_built(t: Tables, g: GameState, s: int) -> str | None:
    """One level per street per turn: street ``s`` got its level this turn."""
    if t.level_per_turn and s in g.built_streets:
        return LEVEL_PER_TURN
    return None


def house_ok(t: Tables, g: GameState, seat: int, s: int, price: int | None = None) -> str | None:
    why = build_guard(t, g, seat, s, price)
    if why:
        return why
    if g.hotel[s]:
        return HOTEL_STANDS
    if g.houses[s] >= t.cfg.building.max_houses:
        return MAX_HOUSES.format(n=t.cfg.building.max_houses)
    if t.cfg.building.even_build:
        h = g.houses[s]
        for x in t.groups[t.group_of[s]]:
            if x != s and base.level(t, g, x) < h:
                return EVEN_BUILD
    return None


def hotel_ok(t: Tables, g: GameState, seat: int, s: int, price: int | None = None) -> str | None:
    why = build_guard(t, g, seat, s, price)
    if why:
        return why
    bu = t.cfg.building
    if g.hotel[s]:
        return HAS_HOTEL
    if g.houses[s] < bu.hotel_threshold:
        return HOTEL_NEEDS.format(n=bu.hotel_threshold)
    if bu.hotel_needs_whole_group:
        for x in t.groups[t.group_of[s]]:
            if not g.hotel[x] and g.houses[x] < bu.hotel_threshold:
                return HOTEL_GROUP.format(n=bu.hotel_threshold)
    if bu.even_build:   # a hotel is one level above the houses it needs (as the even-build invariant says)
        for x in t.groups[t.group_of[s]]:
            if x != s and base.level(t, g, x) < t.hotel_level - 1:
                return EVEN_HOTEL
    return None


def can_build_somewhere(t: Tables, g: GameState, seat: int, item: str) -> bool:
    for s in t.street_squares:
        if g.owner[s] == seat and (house_ok(t, g, seat, s) if item == "house" else hotel_ok(t, g, seat, s)) is None:
            return True
    return False


def shortage(t: Tables, g: GameState, item: str) -> bool:
    """The item is short, so it goes to auction (``building.shortage_trigger``): more players could
    build than the bank has left; or the bank has one left and several could build; or two or more
    could build and together want more than the bank has."""
    if not t.shortage_auction:
        return False
    bu = t.cfg.building
    stock = g.bank_houses if item == "house" else g.bank_hotels
    trigger = bu.shortage_trigger
    if trigger == "more_wanted_than_stock":
        c = contest(t, g)
        if c is None:
            return False
        if not bu.requires_full_group:
            wanting, wanted = demand(t, g, item)
        else:
            streets, free, open_streets = c
            if (free if item == "house" else open_streets) <= stock:
                return False    # what the whole groups could take of the item bounds what their owners want
            wanting, wanted = demand(t, g, item, streets)
        return wanting >= 2 and wanted > stock
    if not shortage_possible(t, g):
        return False
    wanting = 0
    for q in range(g.n):
        if not g.bankrupt[q] and can_build_somewhere(t, g, q, item):
            wanting += 1
    if trigger == "more_players_than_stock":
        return wanting > stock
    return stock == 1 and wanting >= 2      # last_one_wanted_by_several


def shortage_possible(t: Tables, g: GameState) -> bool:
    """A cheap bound: could a build now be short at all? (the bots also use it to try a street only
    once a turn while a shortage auction may run)"""
    if not t.shortage_auction:          # off, or nothing is limited (an unlimited stock is never short)
        return False
    trigger = t.cfg.building.shortage_trigger
    if trigger == "more_players_than_stock":
        return g.bank_houses < g.n or g.bank_hotels < g.n
    if trigger == "last_one_wanted_by_several":
        return g.bank_houses == 1 or g.bank_hotels == 1
    return contest(t, g) is not None


def contest(t: Tables, g: GameState) -> tuple[tuple[int, ...], int, int] | None:
    """The bound of ``shortage_possible`` under ``more_wanted_than_stock``: two owners of whole groups, whose
    groups could take more than is left. When so, what it counted: (the streets of the whole groups, what
    ``demand`` reads where a whole group is needed; their free house levels; those of them without a
    hotel); else None. Remembered in the game for the deed columns' version and the bank's stock, which
    are all it reads that can change (a bot's build asks it twice: the bot, then the rule)."""
    deeds, bank_houses, bank_hotels = g.deeds, g.bank_houses, g.bank_hotels
    memo = g.contest
    if memo is not None and memo[0] == deeds and memo[1] == bank_houses and memo[2] == bank_hotels:
        return memo[3]
    out: tuple[tuple[int, ...], int, int] | None = None
    streets, several = whole_groups(t, g)
    max_houses = t.cfg.building.max_houses
    # (not even with every street empty: no street need be read)
    if several and not (len(streets) <= bank_hotels and len(streets) * max_houses <= bank_houses):
        houses, hotel = g.houses, g.hotel
        free = open_streets = 0             # the free house levels, and the streets that could take more
        for x in streets:
            if not hotel[x]:
                free += max_houses - houses[x]
                open_streets += 1
        if free > bank_houses or open_streets > bank_hotels:
            out = (streets, free, open_streets)
    g.contest = (deeds, bank_houses, bank_hotels, out)
    return out


def whole_groups(t: Tables, g: GameState) -> tuple[tuple[int, ...], bool]:
    """(the streets of the colour groups someone owns whole, whether two or more players own one): a
    function of the owner column alone, remembered in the game for the last column seen, as deeds
    change hands far more rarely than building is decided."""
    owner = g.owner
    seen = g.whole
    if seen is not None and seen[0] == owner:      # (the remembered column is a copy, never changed)
        return seen[1]
    streets: list[int] = []
    first, several = -1, False
    for squares in t.street_group_squares:
        o = owner[squares[0]]
        if o < 0:
            continue
        for x in squares:
            if owner[x] != o:
                break
        else:
            if first < 0:
                first = o
            elif o != first:
                several = True
            streets.extend(squares)
    whole = (tuple(streets), several)
    g.whole = (list(owner), whole)
    return whole


def demand(t: Tables, g: GameState, item: str, candidates: tuple[int, ...] | None = None) -> tuple[int, int]:
    """(players who could put up the item now, how many they could put up in all): each player wants
    what the streets they may build on still take (houses: the free levels below the limit; hotels:
    the streets with the houses a hotel needs), as far as their cash pays. ``candidates``: the streets
    of the whole groups (``whole_groups``), when the caller has them at hand."""
    n, owner, houses, hotel, bankrupt, mortgaged = g.n, g.owner, g.houses, g.hotel, g.bankrupt, g.mortgaged
    slots, cheapest = [0] * n, [0] * n
    bu = t.cfg.building
    max_houses, threshold = bu.max_houses, bu.hotel_threshold
    of_houses = item == "house"
    group_of, house_cost = t.group_of, t.house_cost
    # the streets their owners may build on (where a whole group is needed, its streets): what else
    # the build guard asks is whether the street is blocked now (``street_blocked``: its group asked once)
    if candidates is None:
        candidates = whole_groups(t, g)[0] if bu.requires_full_group else t.street_squares
    last_group, group_open = -1, False
    level_per_turn, built_streets = t.level_per_turn, g.built_streets      # (``level_built``, inline)
    holder, held, cheap = -1, 0, 0      # the owner of the streets being counted, their slots, the cheapest
    for s in candidates:
        q = owner[s]
        if q < 0 or hotel[s] or bankrupt[q]:
            continue
        k = max_houses - houses[s] if of_houses else int(houses[s] >= threshold)
        if k <= 0 or mortgaged[s] or (level_per_turn and s in built_streets):
            continue
        grp = group_of[s]
        if grp != last_group:
            last_group, group_open = grp, group_blocked(t, g, grp) is None
        if not group_open:
            continue
        if q != holder:         # (the streets of a group come together, mostly of one owner: counted here)
            if holder >= 0:
                slots[holder], cheapest[holder] = held, cheap
            holder, held, cheap = q, slots[q], cheapest[q]
        held += k
        c = house_cost[s]
        if not cheap or c < cheap:
            cheap = c
    if holder >= 0:
        slots[holder], cheapest[holder] = held, cheap
    wanting = wanted = 0
    cash = g.cash
    for q in range(n):
        if cheapest[q]:
            w = min(slots[q], cash[q] // cheapest[q])
            if w > 0:
                wanting += 1
                wanted += w
    return wanting, wanted


def put_house(t: Tables, g: GameState, seat: int, s: int, price: int) -> None:
    g.cash[seat] = g.cash[seat] - price
    g.bank_cash += price
    g.houses[s] = g.houses[s] + 1
    g.mark(s)
    base.stock_out(t, g, 1, 0)
    g.built_streets.add(s)
    g.built_groups.add(t.group_of[s])
    if g.events is not None:
        g.events.append({"event": "built", "player": seat, "square": s, "item": "house", "price": price})


def put_hotel(t: Tables, g: GameState, seat: int, s: int, price: int) -> None:
    g.cash[seat] = g.cash[seat] - price
    g.bank_cash += price
    g.hotel[s] = True
    g.mark(s)
    base.stock_out(t, g, 0, 1)
    if t.cfg.building.hotel_returns_houses:
        base.stock_back(t, g, g.houses[s], 0)
        g.houses[s] = 0
        g.mark(s)
    g.built_streets.add(s)
    g.built_groups.add(t.group_of[s])
    if g.events is not None:
        g.events.append({"event": "built", "player": seat, "square": s, "item": "hotel", "price": price})


def place_won_building(t: Tables, g: GameState, seat: int, item: str) -> None:
    """The winner of a shortage auction builds on their least developed street, paying the bid
    instead of the house cost (the bid, taken when the auction closed, is charged again by put_*)."""
    price = g.pending["high"]
    g.cash[seat] = g.cash[seat] + price
    g.bank_cash -= price
    target, target_level = -1, 0
    for s in t.street_squares:      # (the guard, the costly part, is asked only where the level is lower)
        if g.owner[s] == seat:
            level = base.level(t, g, s)
            if (target < 0 or level < target_level) and (
                    house_ok(t, g, seat, s, price) if item == "house" else hotel_ok(t, g, seat, s, price)) is None:
                target, target_level = s, level
    if target < 0:  # cannot place it after all: the bid stays refunded
        return
    if item == "house":
        put_house(t, g, seat, target, price)
    else:
        put_hotel(t, g, seat, target, price)
