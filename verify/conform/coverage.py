"""Coverage-guided generation: offer the situations a chunk has not met yet, before the ones it has.

A deviation shows only in the situation that reaches it: a street mortgaged while
its group-mates carry houses, the fine offered after the turns it may be paid in,
a roll from jail that lands on a card. Drawn blindly, a budget meets the common
situations many times and the rare ones never. So a chunk keeps a ``Coverage``:
how often each situation was offered, at two grains:

* the **guard's side** (``verdict``): the action type and what the reference's
  guard for it answers: ``legal``, or the template of its refusal
  (``verify.engine.actions``: every guard of the registry, each refusal apart);
* the **situation** (``situation``): that, plus the step's circumstances read off
  the state: whose move it is, the phase, for each square the action names its
  owner's part, its buildings, whether its group-mates are built or mortgaged,
  for the acting player jail (and the tries used), for a roll where the dice
  land (the square's kind, the card on top of its deck, doubles).

Where the menu picks an action at the edge of the rules, it takes the guard's
refusal least offered so far (every refusal of every guard the engine declares
meets its turn, however few squares reach it), and of the actions meeting it
the one whose situation was offered least; a refusal the chunk has not offered
yet is offered at the first step whose state meets it, whatever the menu
draws. Of a few trades, the least offered; a trade's deed at the edge is the
one whose circumstances were offered least. Three things a rule turns on are
not the action's to choose, and are steered too:

* **the dice**: a roll's dice are turned towards the landing least offered
  (keeping whether they are doubles), so card squares, taxes and owned
  streets are met as often as plain ones;
* **the cards**: a loaded state's decks have on top the card the chunk has
  drawn least (``Coverage.top``; on a tie, from a place in the deck that
  depends on the chunk, so a run's chunks together draw every card);
* **the bank's supply**: a mid-game state's stock of buildings is brought to
  the supply situation least reached (``SUPPLIES``: houses out, houses short
  of a hotel's break-down with a group of hotels standing, hotels out).

Every choice is drawn from the scenario's own ``Draw`` and the counts depend
only on the chunk's earlier scenarios, so a run is still a function of its
seed and size.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..engine.state import GameState
from ..engine.step import actor, check
from ..engine.rules import IllegalAction
from ..errors import GameError
from .signature import action_squares, template_key

#: Where consecutive chunks begin their turn through a deck, as a fraction of it (spread evenly for any number).
GOLDEN = 0.6180339887498949
#: Trades drawn at the menu's trade entry, the least offered taken (they cost a guard call each).
EDGE_CANDIDATES = 4


class Coverage:
    """How often each guard side and each situation was offered (one per chunk; see the module doc)."""

    __slots__ = ("seen", "start", "chunks")

    def __init__(self, start: int = 0, chunks: int = 1) -> None:
        self.seen: dict[tuple, int] = {}
        self.start = start          # the chunk's index: where its turn through each deck begins (``top``)
        self.chunks = chunks        # the run's chunks: each takes its share of the situations first

    def add(self, key: tuple[tuple, tuple]) -> None:
        """Count one offer of a situation (``situation``) and of its guard side."""
        seen = self.seen
        for k in (key[0][:2],) + key:
            seen[k] = seen.get(k, 0) + 1

    def count(self, key: tuple[tuple, tuple]) -> tuple[int, int]:
        """How often a situation was offered, at each grain (coarse first)."""
        return self.seen.get(key[0], 0), self.seen.get(key[1], 0)

    def side(self, kind: str, why: str) -> int:
        """How often the guard side ``(kind, why)`` was offered."""
        return self.seen.get((kind, why), 0)

    def drew(self, before: GameState, after: GameState) -> None:
        """Count the card each deck's step drew (its top card left it between ``before`` and ``after``)."""
        for deck in ("chance", "chest"):
            old, new = getattr(before, deck), getattr(after, deck)
            if old and (len(new) != len(old) or new[0] != old[0]):
                key = ("drawn", deck, old[0])
                self.seen[key] = self.seen.get(key, 0) + 1

    def top(self, g: GameState) -> None:
        """Put on top of each deck of ``g`` the card the chunk has drawn least, the rest in their order (a
        deck's order is a random draw, like the dice). On a tie, the first in the deck's own order from a
        place that depends on the chunk (spread by the golden ratio): a chunk draws a few cards of each
        deck, the chunks of a run different ones, so a run's chunks together draw every card."""
        for deck in ("chance", "chest"):
            pile = getattr(g, deck)
            if len(pile) > 1:
                order = sorted(pile)
                k = int(self.start * GOLDEN * len(order)) % len(order)
                card = self.least(order[k:] + order[:k], lambda c, deck=deck: self.seen.get(("drawn", deck, c), 0))
                pile.remove(card)
                pile.insert(0, card)

    def drawn(self) -> list[str]:
        """The cards the chunk drew (their ids, sorted)."""
        return sorted(k[2] for k in self.seen if k[0] == "drawn")

    def count_deed(self, key: tuple) -> None:
        """Count a deed offered in a trade (``deed_key``)."""
        self.seen[key] = self.seen.get(key, 0) + 1

    def reached(self, key: tuple) -> int:
        """How often loaded states reached the supply situation ``key`` (``supply``)."""
        return self.seen.get(("supply",) + key, 0)

    def reach(self, key: tuple) -> None:
        self.seen[("supply",) + key] = self.reached(key) + 1

    def least(self, items: Iterable[Any], count: Callable[[Any], Any]) -> Any:
        """The first of ``items`` offered least (``count``: its count, compared as given)."""
        best, low = None, None
        for item in items:
            n = count(item)
            if low is None or n < low:
                best, low = item, n
        return best


def verdict(rules, g: GameState, action: dict) -> str:
    """The guard's side ``action`` is on: ``legal``, the template of its refusal, or ``malformed``."""
    try:
        check(rules, g, action)
    except IllegalAction as exc:
        reason = exc.reason
        return template_key(getattr(reason, "template", None) or str(reason or exc))
    except (GameError, KeyError, IndexError, TypeError, ValueError):
        return "malformed"
    return "legal"


def _role(seat: Any, who: Any) -> str:
    if who is None or who == -1:
        return "bank"
    return "self" if who == seat else "other"


def _square(rules, g: GameState, seat: Any, s: int) -> tuple:
    """A square's part in a step: owner, buildings, mortgage, whether its group-mates are built or
    mortgaged, and whether they stand lower, level or higher (a rule on the group reads those, an engine
    may read the square alone, or ask the group to stay uniform)."""
    if not 0 <= s < rules.t.size or not rules.t.is_ownable[s]:
        return (rules.t.kind[s] if 0 <= s < rules.t.size else "off",)
    grp = rules.t.groups[rules.t.group_of[s]]
    mates = [t for t in grp if t != s]
    level = "hotel" if g.hotel[s] else ("houses" if g.houses[s] else "bare")
    here = g.houses[s] + 5 * g.hotel[s]
    relative = tuple(sorted({(g.houses[t] + 5 * g.hotel[t] > here) - (g.houses[t] + 5 * g.hotel[t] < here)
                             for t in mates}))
    return (_role(seat, g.owner[s]), level, g.mortgaged[s], any(g.houses[t] or g.hotel[t] for t in mates),
            any(g.mortgaged[t] for t in mates), all(g.owner[t] == g.owner[s] for t in mates), relative)


def deed_key(rules, g: GameState, seat: Any, s: int) -> tuple:
    """The key counting a deed offered in a trade, by its circumstances (``_square``)."""
    return ("trade deed",) + _square(rules, g, seat, s)


def _side(rules, g: GameState, seat: Any, side: Any, cash: int) -> tuple:
    if not isinstance(side, dict):
        return ()
    squares = tuple(sorted(_square(rules, g, seat, s) for s in side.get("squares", []) if isinstance(s, int)))
    amount = side.get("cash") or 0
    money = "none" if not amount else ("over" if amount > cash else ("all" if amount == cash else "some"))
    return squares, money, bool(side.get("cards"))


def landing(rules, g: GameState, seat: int, dice: list) -> list:
    """Where a roll of ``dice`` takes ``seat``: from jail or not, doubles, the square's kind, the card on
    top of its deck for a card square, the owner's part for a deed."""
    to = (g.pos[seat] + dice[0] + dice[1]) % rules.t.size
    land = rules.t.kind[to]
    pile = g.chance if land == "chance" else g.chest if land == "chest" else None
    return [g.in_jail[seat], dice[0] == dice[1], land, pile[0] if pile else None,
            _role(seat, g.owner[to]) if rules.t.is_ownable[to] else None]


def situation(rules, g: GameState, action: dict, why: str | None = None) -> tuple[tuple, tuple]:
    """The situation an action is offered in (see the module doc), at two grains: what the action meets
    (the guard's side, the squares it names, where a roll lands and the card it would draw), and that
    with the circumstances (phase, whose move, the actor's jail and doubles). ``why``: the guard's side,
    when it is known already."""
    kind = action.get("type")
    seat = action.get("seat")
    ok = isinstance(seat, int) and 0 <= seat < g.n
    meets: list = [kind, why if why is not None else verdict(rules, g, action)]
    if kind == "trade" and ok:
        other = action.get("with")
        theirs = g.cash[other] if isinstance(other, int) and 0 <= other < g.n else 0
        meets += [_side(rules, g, seat, action.get("give"), g.cash[seat]),
                  _side(rules, g, seat, action.get("take"), theirs)]
    else:
        meets += [_square(rules, g, seat, s) for s in sorted(action_squares(action))]
    dice = action.get("dice")
    if kind == "roll" and ok and isinstance(dice, list) and len(dice) >= 2:
        meets += landing(rules, g, seat, dice)
    around: list = [g.phase, "awaited" if seat == actor(g) else "other"]
    if ok:
        around += [g.in_jail[seat], g.jail_turns[seat] if g.in_jail[seat] else -1, g.doubles[seat] > 0]
    first = tuple(meets)
    return first, first + tuple(around)


def steer_dice(d, cov: Coverage, rules, g: GameState, action: dict) -> dict:
    """A roll's dice turned towards the landing the chunk has offered least (a card square whose top card
    it has drawn least, a tax, an owned street, ...), keeping whether they are doubles (which decides a
    release from jail and a second roll, as often as fair dice would). Other actions are returned as
    they are."""
    dice, seat = action.get("dice"), action.get("seat")
    if (action.get("type") != "roll" or not isinstance(dice, list) or len(dice) != 2
            or not isinstance(seat, int) or not 0 <= seat < g.n):
        return action
    why = verdict(rules, g, action)
    double = dice[0] == dice[1]
    options = [[a, b] for a in range(1, 7) for b in range(1, 7) if (a == b) == double]
    best = cov.least(d.perm(options), lambda dd: cov.count(situation(rules, g, dict(action, dice=dd), why)))
    return dict(action, dice=best)


def supply(rules, g: GameState) -> tuple[str, str]:
    """The bank's supply of buildings as a rule meets it: houses ``out``, ``short`` (fewer than breaking
    a hotel down needs) or ``some``; hotels ``out`` or ``some``."""
    houses = "out" if g.bank_houses <= 0 else "short" if g.bank_houses < rules.t.hotel_back else "some"
    return houses, "out" if g.bank_hotels <= 0 else "some"


#: The supply situations a loaded state is steered to (``supply``), the plain one first.
SUPPLIES = (("some", "some"), ("out", "some"), ("short", "some"), ("some", "out"))


__all__ = ["Coverage", "situation", "verdict", "landing", "steer_dice", "deed_key", "supply", "SUPPLIES", "EDGE_CANDIDATES"]
