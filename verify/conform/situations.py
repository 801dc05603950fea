"""The rare circumstances the rules turn on, each a loaded state built for it with the decision it is the edge of.

Drawn blindly, a run meets the common circumstances many times and the rare
ones by luck: paying exactly all one's cash, a card drawn short of the cash it
charges, double rent beside a mortgaged group-mate, a third double that passes
GO, a bank that has paid out more than a boxed game's bank holds, a mortgage
beside built group-mates, a trade asking for a mortgaged deed, a bankruptcy to a
player while holding mortgaged deeds. A deviation that
shows only there is then found by some seeds and not others. So a run offers
each **situation** of ``SITUATIONS`` (built for the config: every card of both
decks in the circumstances its effect turns on, landings, jail, doubles, the
bank, building, mortgages, trades, bids) as the loaded state of some scenario,
with the decision it is the edge of as the scenario's first action (a roll
with the dice that land there, the mortgage, the trade, the bid); the menu
plays on from there.

The run shares the list out among its chunks (chunk *k* of *n* takes the
situations *k*, *k + n*, ... first, then the others, least offered first), so a
run of the default size offers every situation, whatever its seed: the seed
changes the details (which group, which seat, how much cash within the
circumstance), not which circumstances are met. A situation whose action the
engine does not declare, or whose state the engine cannot hold, is passed over.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from ..engine.rules import base
from ..engine.state import DEBT, GameState
from ..errors import GameError
from .cause import settled
from .states import _build, _dice_to, _give_group, _jail, _set_jail_card, advance, fresh, out, turn, valid


@dataclass(frozen=True)
class Plan:
    """What a situation's builder made of a fresh game: the first action (or how to draw it from the state the
    prefix reaches), the steps the reference plays first (an auction opened by a decline), and the cash the
    paying player holds against what the first action charges (``short``: less; ``exact``: all of it)."""

    first: Any
    prefix: tuple = ()
    cash: str = ""
    payer: int | None = None


@dataclass(frozen=True)
class Situation:
    """A circumstance a rule turns on: its name, the action type it offers first, and how to build it (on a
    fresh game: set the state up and return its ``Plan``, or None when the config cannot have it)."""

    name: str
    action: str
    build: Callable[..., Plan | None]
    prefix: tuple[str, ...] = ()       # the action types of its prefix (offered only where declared)


# ---- helpers ---------------------------------------------------------------------------------------

def _seats(d, g: GameState) -> tuple[int, int]:
    p = d.int(0, g.n - 1)
    return p, (p + 1) % g.n


def _setup(d, ctx, g: GameState, p: int) -> None:
    """A game under way in ``p``'s turn: every player past GO, some cash each."""
    turn(d, g, p)
    g.round = max(g.round, 1)
    g.passed_go = [True] * g.n
    start = ctx.config.setup.starting_cash
    for x in range(g.n):
        g.cash[x] = d.int(200, 2 * start)
    g.cash[p] = d.int(start, 3 * start)         # the decision is not about cash unless a variant says so


def _land(d, g: GameState, p: int, target: int, doubles: bool = False) -> list[int]:
    """Place ``p`` so that a roll lands on ``target``; the dice (doubles when asked)."""
    if not doubles:
        return _dice_to(d, g, p, target)
    a = d.int(1, 6)
    g.pos[p] = (target - 2 * a) % 40
    g.in_jail[p] = False
    return [a, a]


def _roll(p: int, dice: list[int], **more) -> dict:
    return {"type": "roll", "seat": p, "dice": dice, **more}


def _top(g: GameState, deck: str, card: str) -> bool:
    pile = g.chance if deck == "chance" else g.chest
    if card not in pile:
        return False
    pile.remove(card)
    pile.insert(0, card)
    return True


def _squares(r, kind: str) -> list[int]:
    return [s for s in range(40) if r.kind[s] == kind]


def _owned_by(ctx, g: GameState, s: int, owner: int, mortgaged: bool = False, whole: bool = False) -> None:
    """Deed ``s`` owned by ``owner`` (its whole group with ``whole``), mortgaged or not."""
    r = ctx.rules.t
    for t in (r.groups[r.group_of[s]] if whole else (s,)):
        g.owner[t] = owner
    g.mortgaged[s] = mortgaged


def _mortgaged_mate(ctx, g: GameState, s: int) -> bool:
    """Mortgage a group-mate of street ``s`` (the group owned whole by ``s``'s owner)."""
    r = ctx.rules.t
    mates = [t for t in r.groups[r.group_of[s]] if t != s]
    if not mates:
        return False
    g.mortgaged[mates[0]] = True
    return True


# ---- cards -------------------------------------------------------------------------------------------

def _card(deck: str, card, variant: str, spot: int | None = None):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, q = _seats(d, g)
        _setup(d, ctx, g, p)
        if not _top(g, deck, card.id):
            return None
        at = d.pick(_squares(r, deck)) if spot is None else spot
        if variant in ("owned", "mortgaged", "throw above", "throw below"):
            dest = _destination(r, card, at)
            if dest is None or not r.is_ownable[dest]:
                return None
        if variant == "passing GO":            # the roll passes GO on its way to the card
            options = [[a, b] for a in range(1, 7) for b in range(1, 7) if a != b and a + b > at]
            if not options:
                return None
            dice = d.pick(options)
            g.pos[p] = (at - sum(dice)) % 40
        else:
            dice = _land(d, g, p, at)
        spot_ = at
        more: dict = {}
        if card.effect == "advance_nearest":
            more["card_dice"] = [d.int(1, 6), d.int(1, 6)]
        if variant in ("owned", "mortgaged", "throw above", "throw below"):
            _owned_by(ctx, g, _destination(r, card, spot_), q, mortgaged=variant == "mortgaged")
            if variant.startswith("throw"):
                total = sum(dice)
                options = [[a, b] for a in range(1, 7) for b in range(1, 7)
                           if (a + b > total if variant == "throw above" else a + b < total)]
                if not options:
                    return None
                more["card_dice"] = d.pick(options)
        elif variant in ("built", "short") and card.effect == "repairs":
            grp = d.pick(list(r.street_groups))
            _give_group(ctx, g, grp, p)
            _build(ctx, g, grp, d.int(2, len(r.groups[grp]) * r.hotel_level))
        first = _roll(p, dice, **more)
        if variant == "short":                 # the drawer cannot pay what the card charges
            return Plan(first, cash="short")
        if variant == "payer short":           # another player cannot pay the drawer
            return Plan(first, cash="short", payer=q)
        return Plan(first)
    return build


def _destination(r, card, spot: int) -> int | None:
    """Where a card moves its drawer from ``spot`` (the square it names, the nearest station or utility, so
    many squares back)."""
    if card.effect == "advance_to":
        return card.square
    if card.effect == "advance_nearest":
        return (r.next_station if card.kind == "station" else r.next_utility)[spot]
    if card.effect == "go_back":
        return (spot - card.spaces) % 40
    return None


def _card_variants(card, spots: list[int]) -> list[tuple[str, int | None]]:
    """The circumstances a card's effect turns on, with the card square drawn from (``spots``: its deck's
    squares; a card that moves its drawer is drawn from each of them, as where it leads depends on it)."""
    if card.effect in ("advance_to", "go_back"):
        return [("plain", s) for s in spots] + [("passing GO", spots[0])]
    if card.effect == "advance_nearest":
        kinds = ("owned", "mortgaged") if card.kind != "utility" else ("throw above", "throw below", "mortgaged")
        return [("plain", s) for s in spots] + [(k, s) for k in kinds for s in spots]
    out: list[tuple[str, int | None]] = [("plain", None)]
    if card.effect == "bank" and card.amount < 0 or card.effect == "each_player" and card.amount < 0:
        out.append(("short", None))
    if card.effect == "each_player" and card.amount > 0:
        out.append(("payer short", None))
    if card.effect == "repairs":
        out += [("built", None), ("short", None)]
    return out


# ---- landings, jail, doubles, the bank ---------------------------------------------------------------

def _rent(variant: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, q = _seats(d, g)
        _setup(d, ctx, g, p)
        kind = variant.split(",")[0].split(" ")[0]
        s = d.pick([x for x in r.ownable if r.kind[x] == kind])
        _owned_by(ctx, g, s, q, whole=True)
        if "mate mortgaged" in variant and not _mortgaged_mate(ctx, g, s):
            return None
        if "built" in variant:
            _build(ctx, g, r.group_of[s], d.int(1, len(r.groups[r.group_of[s]]) * r.hotel_level))
        if variant.endswith(" mortgaged") and "mate" not in variant:
            g.mortgaged[s] = True
        first = _roll(p, _land(d, g, p, s))
        cash = "short" if variant.endswith("short") else "exact" if variant.endswith("exact") else ""
        return Plan(first, cash=cash)
    return build


def _tax(variant: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, _ = _seats(d, g)
        _setup(d, ctx, g, p)
        spots = _squares(r, "income_tax") + _squares(r, "luxury_tax")
        if not spots:
            return None
        return Plan(_roll(p, _land(d, g, p, d.pick(spots))), cash=variant)
    return build


def _jail_roll(tries: int, doubles: bool, short: bool = False):
    def build(d, ctx, g: GameState) -> Plan | None:
        j = ctx.config.jail
        p, _ = _seats(d, g)
        _setup(d, ctx, g, p)
        if tries >= j.max_tries:
            return None
        _jail(ctx, g, p, tries)
        g.jail_turns[p] = tries
        if short:
            g.cash[p] = d.int(0, max(0, j.fine - 1))
        a = d.int(1, 6)
        dice = [a, a] if doubles else [a, d.pick([x for x in range(1, 7) if x != a])]
        return Plan(_roll(p, dice))
    return build


def _third_double(passing_go: bool):
    def build(d, ctx, g: GameState) -> Plan | None:
        p, _ = _seats(d, g)
        _setup(d, ctx, g, p)
        g.doubles[p] = 2
        r = ctx.rules.t
        # onto a deed (where the dice would take it: no card or jail square to say more than the double does)
        options = [(a, t) for a in range(1, 7) for t in r.ownable
                   if (t < 2 * a if passing_go else t >= 2 * a)]
        if not options:
            return None
        a, target = d.pick(options)
        g.pos[p] = (target - 2 * a) % 40
        return Plan(_roll(p, [a, a]))
    return build


def _bank_paid_out(d, ctx, g: GameState) -> Plan | None:
    """The bank has paid out more than a boxed game's bank holds; the roll passes GO (the salary)."""
    p, _ = _seats(d, g)
    _setup(d, ctx, g, p)
    g.bank_cash = -d.int(16, 30) * 1000
    r = ctx.rules.t
    options = [([a, b], s) for a in range(1, 7) for b in range(1, 7) for s in range(1, 12)
               if a != b and s < a + b and r.is_ownable[s]]        # past GO, onto a deed: no card, no tax
    if not options:
        return None
    dice, target = d.pick(options)
    g.pos[p] = (target - sum(dice)) % 40
    return Plan(_roll(p, dice))


# ---- management, trades, bids -------------------------------------------------------------------

def _group_of_own(d, ctx, g: GameState, p: int, built: int = 0) -> int:
    r = ctx.rules.t
    grp = d.pick(list(r.street_groups))
    _give_group(ctx, g, grp, p)
    if built:
        _build(ctx, g, grp, built)
    return grp


def _mortgage_beside_built(d, ctx, g: GameState) -> Plan | None:
    r = ctx.rules.t
    p, _ = _seats(d, g)
    _setup(d, ctx, g, p)
    grp = d.pick([x for x in r.street_groups if len(r.groups[x]) > 1])
    _give_group(ctx, g, grp, p)
    squares = list(r.groups[grp])
    bare = d.pick(squares)
    for s in squares:
        if s != bare and g.bank_houses > 0:
            g.houses[s] = 1
            g.bank_houses -= 1
    return Plan({"type": "mortgage", "seat": p, "square": bare})


def _build_case(variant: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, q = _seats(d, g)
        _setup(d, ctx, g, p)
        grp = _group_of_own(d, ctx, g, p)
        squares = list(r.groups[grp])
        s = squares[0]
        if variant == "exact cash":
            return Plan({"type": "build_house", "seat": p, "square": s}, cash="exact")
        if variant == "mortgaged mate":
            if len(squares) < 2:
                return None
            g.mortgaged[squares[1]] = True
        elif variant in ("last house", "no house"):
            left = 1 if variant == "last house" else 0
            for x in d.perm([x for x in r.street_groups if x != grp]):
                if g.bank_houses <= left or g.bank_houses >= (1 << 30):
                    break
                _give_group(ctx, g, x, q)
                _build(ctx, g, x, g.bank_houses - left, hotels=False)
            if g.bank_houses != left:
                return None
        elif variant in ("hotel, no hotel", "hotel, houses short"):
            _build(ctx, g, grp, len(squares) * (r.hotel_level - 1), hotels=False)
            if variant == "hotel, no hotel":
                for x in d.perm([x for x in r.street_groups if x != grp]):
                    if g.bank_hotels <= 0 or g.bank_hotels >= (1 << 30):
                        break
                    _give_group(ctx, g, x, q)
                    _build(ctx, g, x, len(r.groups[x]) * r.hotel_level)
                if g.bank_hotels != 0:
                    return None
            return Plan({"type": "build_hotel", "seat": p, "square": s})
        return Plan({"type": "build_house", "seat": p, "square": s})
    return build


def _shortage(item: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        """Two players could build, and want more than the bank has left."""
        r = ctx.rules.t
        p, q = _seats(d, g)
        _setup(d, ctx, g, p)
        groups = d.perm(list(r.street_groups))
        if len(groups) < 3:
            return None
        mine, theirs, rest = groups[0], groups[1], groups[2:]
        _give_group(ctx, g, mine, p)
        _give_group(ctx, g, theirs, q)
        if item == "hotel":
            for x in rest:                       # hotels elsewhere first (they give their houses back)
                if g.bank_hotels <= 1 or g.bank_hotels >= (1 << 30):
                    break
                _give_group(ctx, g, x, q)
                _build(ctx, g, x, min(len(r.groups[x]), g.bank_hotels - 1) + len(r.groups[x]) * (r.hotel_level - 1))
            for grp in (mine, theirs):
                _build(ctx, g, grp, len(r.groups[grp]) * (r.hotel_level - 1), hotels=False)
            if g.bank_hotels != 1 or any(g.houses[s] != r.hotel_level - 1 for s in r.groups[mine]):
                return None
        else:
            keep = d.int(1, 2)
            for x in rest:
                if g.bank_houses <= keep or g.bank_houses >= (1 << 30):
                    break
                _give_group(ctx, g, x, q)
                _build(ctx, g, x, g.bank_houses - keep, hotels=False)
            if not 0 < g.bank_houses <= keep:
                return None
        return Plan({"type": f"build_{item}", "seat": p, "square": r.groups[mine][0]})
    return build


def _sell_hotel_short(d, ctx, g: GameState) -> Plan | None:
    r = ctx.rules.t
    p, q = _seats(d, g)
    _setup(d, ctx, g, p)
    grp = _group_of_own(d, ctx, g, p, len(r.groups[0]) * 0)
    _build(ctx, g, grp, len(r.groups[grp]) * r.hotel_level)
    s = r.groups[grp][0]
    if not g.hotel[s]:
        return None
    keep = d.int(0, max(0, r.hotel_back - 1))
    for x in d.perm([x for x in r.street_groups if x != grp]):
        if g.bank_houses <= keep or g.bank_houses >= (1 << 30):
            break
        _give_group(ctx, g, x, q)
        _build(ctx, g, x, g.bank_houses - keep, hotels=False)
    return Plan({"type": "sell_hotel", "seat": p, "square": s})


def _buy(variant: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, _ = _seats(d, g)
        _setup(d, ctx, g, p)
        s = d.pick([x for x in r.ownable if g.owner[x] < 0])
        price = r.price[s]
        if variant != "after doubles":
            g.cash[p] = price if variant == "exact price" else d.int(0, max(0, price - 1))
        return Plan({"type": "buy", "seat": p}, (_roll(p, _land(d, g, p, s, variant == "after doubles")),))
    return build


def _sell_hotel(beside: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        """Sell a hotel whose group-mates carry hotels too (``hotels``), or houses (``houses``)."""
        r = ctx.rules.t
        p, _ = _seats(d, g)
        _setup(d, ctx, g, p)
        grp = _group_of_own(d, ctx, g, p)
        n = len(r.groups[grp])
        if beside == "houses" and n < 2:
            return None
        _build(ctx, g, grp, n * r.hotel_level if beside == "hotels" else n * (r.hotel_level - 1) + 1)
        s = next((x for x in r.groups[grp] if g.hotel[x]), None)
        return Plan({"type": "sell_hotel", "seat": p, "square": s}) if s is not None else None
    return build


def _unmortgage_odd(d, ctx, g: GameState) -> Plan | None:
    """Lift a mortgage whose interest is not a whole ten (an engine that keeps money as floats shows)."""
    r = ctx.rules.t
    p, _ = _seats(d, g)
    _setup(d, ctx, g, p)
    odd = [s for s in r.ownable if r.mortgage_value[s] % 10]
    s = d.pick(odd or list(r.ownable))
    g.owner[s] = p
    g.mortgaged[s] = True
    return Plan({"type": "unmortgage", "seat": p, "square": s})


def _bankrupt_to_player(d, ctx, g: GameState) -> Plan | None:
    """A debt to another player that the debtor cannot meet, the debtor holding mortgaged deeds: the deeds go to
    the creditor still mortgaged (the interest the ruleset charges on such a transfer with them)."""
    r = ctx.rules.t
    p, q = _seats(d, g)
    _setup(d, ctx, g, p)
    free = [s for s in r.ownable if g.owner[s] < 0]
    if len(free) < 2:
        return None
    for _ in range(d.int(1, 3)):
        s = d.pick(free)
        free.remove(s)
        g.owner[s], g.mortgaged[s] = p, True
    g.owner[g.pos[p] if g.pos[p] in free else free[0]] = q
    g.cash[p] = d.int(0, 100)
    amount = max(base.raisable(r, g, p), base.net_worth(r, g, p), g.cash[p]) + d.int(1, 300)
    g.rolled = True
    g.phase, g.pending = DEBT, {"debtor": p, "creditor": q, "amount": amount, "kind": "rent"}
    g.debts = [[p, q, amount, amount, "rent"]]
    return Plan({"type": "bankrupt", "seat": p})


def _trade_case(variant: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, q = _seats(d, g)
        _setup(d, ctx, g, p)
        mine = d.pick(list(r.street_squares) if variant == "built group" else list(r.ownable))
        theirs = d.pick([s for s in r.ownable if r.group_of[s] != r.group_of[mine]])
        g.owner[mine], g.owner[theirs] = p, q
        give: dict = {"squares": [mine], "cash": 0}
        take: dict = {"squares": [theirs], "cash": 0}
        if variant == "cash over":
            give = {"squares": [], "cash": g.cash[p] + d.int(1, 100)}
        elif variant == "all cash":
            give = {"squares": [], "cash": g.cash[p]}
        elif variant == "all their cash":
            take = {"squares": [], "cash": g.cash[q]}
        elif variant == "ask mortgaged":
            g.mortgaged[theirs] = True
            give = {"squares": [], "cash": d.int(1, max(1, g.cash[p] // 2))}
        elif variant == "give mortgaged":
            g.mortgaged[mine] = True
            take = {"squares": [], "cash": d.int(1, max(1, g.cash[q] // 2))}
        elif variant == "built group":
            grp = r.group_of[mine]
            _give_group(ctx, g, grp, p)
            mates = [mine] + [t for t in r.groups[grp] if t != mine]
            if len(mates) < 2 or r.kind[mine] != "street" or g.bank_houses < len(mates):
                return None
            for t in mates[1:]:          # the deed given stands bare beside built group-mates
                g.houses[t] = 1
                g.bank_houses -= 1
            give = {"squares": [mates[0]], "cash": 0}
        elif variant == "gift":
            take = {"squares": [], "cash": 0}
        elif variant == "jail card":
            _set_jail_card(ctx, g, p, d.pick(("chance", "chest")))
            if not g.jail_cards[p]:
                return None
            give = {"squares": [], "cash": 0, "cards": [g.jail_cards[p][0]]}
            take = {"squares": [], "cash": d.int(1, 50)}
        return Plan({"type": "trade", "seat": p, "with": q, "give": give, "take": take})
    return build


def _auction(variant: str):
    def build(d, ctx, g: GameState) -> Plan | None:
        r = ctx.rules.t
        p, _ = _seats(d, g)
        _setup(d, ctx, g, p)
        s = d.pick([x for x in r.ownable if g.owner[x] < 0])
        prefix: tuple = (_roll(p, _land(d, g, p, s)), {"type": "decline", "seat": p})
        if variant == "below minimum":       # a bid stands: the next must be higher
            prefix += ({"type": "bid", "seat": (p + 1) % g.n, "amount": d.int(10, 60)},)
        return Plan(lambda d2, state: auction_bid(d2, ctx, state, variant), prefix)
    return build


def auction_bid(d, ctx, state: dict, variant: str) -> dict | None:
    """The bid a situation's auction offers once it is open (``state``: after the decline)."""
    pend = state.get("pending") or {}
    bidders = list(pend.get("bidders") or [])
    if state.get("phase") != "auction" or not bidders:
        return None
    turn_seat = pend.get("turn")
    # the bidder the auction asks, else the first in seat order after the player whose turn it is
    cur = state.get("current", 0)
    who = turn_seat if isinstance(turn_seat, int) else min(bidders, key=lambda x: (x - cur - 1) % len(state["players"]))
    cash = state["players"][who]["cash"]
    low = int(pend.get("min", 1))
    if variant == "below minimum":
        high = int(pend.get("high") or 0)
        who = next((x for x in bidders if x != pend.get("leader")), who)
        return {"type": "bid", "seat": who, "amount": high} if high > 0 else None
    if variant == "above cash":
        return {"type": "bid", "seat": who, "amount": cash + d.int(1, 50)}
    if variant == "all cash":
        return {"type": "bid", "seat": who, "amount": max(low, cash)}
    return None


# ---- the list -------------------------------------------------------------------------------------

@lru_cache(maxsize=8)
def _listed(config) -> tuple[Situation, ...]:
    out: list[Situation] = []
    for deck, cards in (("chance", config.cards.chance), ("chest", config.cards.chest)):
        spots = [i for i, k in enumerate(config.board.squares) if k == deck]
        done = set()
        for card in cards:
            same = (card.effect, card.amount, card.square, card.kind, card.spaces, card.rent_factor)
            if same in done or not spots:          # a copy of a card (two nearest-station cards) plays the same
                continue
            done.add(same)
            for variant, spot in _card_variants(card, spots):
                where = f" from square {spot}" if spot is not None and variant != "passing GO" else ""
                out.append(Situation(f"card {card.id}, {variant}{where}", "roll", _card(deck, card, variant, spot)))
    for variant in ("street, group whole", "street, mate mortgaged", "street, built, short", "street, built, exact",
                    "station mortgaged", "utility mortgaged", "utility, short"):
        out.append(Situation(f"rent: {variant}", "roll", _rent(variant)))
    out += [Situation("tax: short", "roll", _tax("short")), Situation("tax: exact", "roll", _tax("exact"))]
    for tries in range(3):
        for doubles in (False, True):
            out.append(Situation(f"jail: try {tries + 1}{', doubles' if doubles else ''}", "roll",
                                 _jail_roll(tries, doubles)))
    out.append(Situation("jail: last try, short of the fine", "roll", _jail_roll(2, False, short=True)))
    out += [Situation("third double, passing GO", "roll", _third_double(True)),
            Situation("third double", "roll", _third_double(False)),
            Situation("bank paid out, passing GO", "roll", _bank_paid_out),
            Situation("mortgage beside built group-mates", "mortgage", _mortgage_beside_built),
            Situation("sell a hotel, the bank short of houses", "sell_hotel", _sell_hotel_short),
            Situation("sell a hotel of a group of hotels", "sell_hotel", _sell_hotel("hotels")),
            Situation("sell a hotel beside group-mates with houses", "sell_hotel", _sell_hotel("houses")),
            Situation("buy: short of the price", "buy", _buy("short"), ("roll",)),
            Situation("buy: exact price", "buy", _buy("exact price"), ("roll",)),
            Situation("buy: after doubles", "buy", _buy("after doubles"), ("roll",)),
            Situation("unmortgage, interest not a whole ten", "unmortgage", _unmortgage_odd),
            Situation("bankruptcy to a player, holding mortgaged deeds", "bankrupt", _bankrupt_to_player)]
    for variant in ("exact cash", "mortgaged mate", "last house", "no house"):
        out.append(Situation(f"build: {variant}", "build_house", _build_case(variant)))
    for variant in ("hotel, no hotel", "hotel, houses short"):
        out.append(Situation(f"build: {variant}", "build_hotel", _build_case(variant)))
    out += [Situation("build: houses short for two builders", "build_house", _shortage("house")),
            Situation("build: hotels short for two builders", "build_hotel", _shortage("hotel"))]
    for variant in ("cash over", "all cash", "all their cash", "ask mortgaged", "give mortgaged", "built group", "gift",
                    "jail card"):
        out.append(Situation(f"trade: {variant}", "trade", _trade_case(variant)))
    for variant in ("below minimum", "above cash", "all cash"):
        out.append(Situation(f"auction: bid {variant}", "bid", _auction(variant),
                             ("roll", "decline", "bid") if variant == "below minimum" else ("roll", "decline")))
    return tuple(out)


def _charge(ctx, state: dict, action: dict, payer: int) -> int:
    """What ``action`` charges ``payer`` on ``state`` (played by the reference with the payer's cash ample): the
    cash it loses, payments still owed included, GO salaries received on the way left out."""
    rich = dict(state, players=[dict(p) for p in state["players"]])
    big = 10 ** 7
    rich["players"][payer]["cash"] = big
    try:
        out = ctx.expect(rich, action)
    except GameError:
        return 0
    if out[0] != "state":
        return 0
    got = settled(out[1])["players"][payer]["cash"]
    events = [e for link in out[4] for e in link.events]
    salary = sum(e.get("amount", 0) for e in events if e.get("event") == "salary" and e.get("player") == payer)
    claimed = {(e.get("square"), e.get("amount")) for e in events if e.get("event") == "rent_claimed"}
    owed = sum(e.get("amount", 0) for e in events if e.get("event") == "rent_due" and e.get("payer") == payer
               and (e.get("square"), e.get("amount")) not in claimed)      # rent the owner has still to ask for
    return big - got + salary + owed


#: Every SITUATION_EVERY-th scenario of a chunk starts from a situation: a chunk of the default size offers
#: its share of them all, whatever is drawn.
SITUATION_EVERY = 3


def situation_for(d, ctx, cov) -> tuple[str, dict, dict | None, dict] | None:
    """This scenario's situation, when it is one of the chunk's every ``SITUATION_EVERY``-th (``realize``)."""
    if cov is None:
        return None
    cov.seen[("source",)] = k = cov.seen.get(("source",), 0) + 1
    if k % SITUATION_EVERY:
        return None
    return realize(d, ctx, cov.start, cov.chunks, cov)


def realize(d, ctx, chunk: int = 0, chunks: int = 1, cov=None) -> tuple[str, dict, dict | None, dict] | None:
    """A situation's loaded state and first action: the one this chunk has offered least (its share of the
    list first), built on a fresh game; ``(origin, state, history, first action)``, None when it cannot be
    built here (another source is used)."""
    items = order(ctx, chunk, chunks)
    if not items:
        return None
    seen = cov.seen if cov is not None else {}
    sit = min(items, key=lambda x: seen.get(("situation", x.name), 0))
    if cov is not None:
        cov.seen[("situation", sit.name)] = seen.get(("situation", sit.name), 0) + 1
    for _ in range(ATTEMPTS):                 # the details are drawn again when they do not fit
        found = _attempt(d, ctx, sit)
        if found is not None:
            return found
    return None


#: Draws of a situation's details before another source is used.
ATTEMPTS = 4


def _attempt(d, ctx, sit: Situation) -> tuple[str, dict, dict | None, dict] | None:
    g, _ = fresh(d, ctx)
    if g.n < 2:
        return None
    plan = sit.build(d, ctx, g)
    if plan is None:
        return None
    state = out(ctx, g)
    first = plan.first
    if plan.cash and isinstance(first, dict):
        payer = first.get("seat") if plan.payer is None else plan.payer
        owed = _charge(ctx, state, first, payer)
        if owed <= 0:
            return None
        state["players"][payer]["cash"] = owed if plan.cash == "exact" else d.int(0, owed - 1)
    if not valid(ctx, state):
        return None
    history = None
    if plan.prefix:
        start = state
        state, done = advance(d, ctx, state, list(plan.prefix), 0)
        if len(done) < len(plan.prefix):
            return None
        history = {"state": start, "actions": done}
    if not ctx.holds(state):
        return None
    if callable(first):
        first = first(d, state)
    if not isinstance(first, dict) or first.get("type") not in ctx.allowed:
        return None
    return f"situation: {sit.name}", state, history, first


def listed(ctx) -> tuple[Situation, ...]:
    """The situations of ``ctx``'s config whose actions the engine declares."""
    return tuple(s for s in _listed(ctx.config) if s.action in ctx.allowed
                 and all(a in ctx.allowed for a in s.prefix))


def order(ctx, chunk: int, chunks: int) -> list[Situation]:
    """The situations in the order chunk ``chunk`` of ``chunks`` offers them: its share first."""
    items = listed(ctx)
    mine = [s for i, s in enumerate(items) if i % max(1, chunks) == chunk % max(1, chunks)]
    return mine + [s for s in items if s not in mine]


__all__ = ["Situation", "Plan", "listed", "order", "situation_for", "realize", "auction_bid", "SITUATION_EVERY"]
