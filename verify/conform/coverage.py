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
meets its turn, however few squares reach it), and of a few actions meeting it
the one whose situation was offered least. (Drawing several menu actions a step and
taking the least offered was measured: each draw may list the legal actions again,
the costly part of generation, and it bought no deviation on GNOME's default run.)
Every choice is
drawn from the scenario's own ``Draw`` and the counts depend only on the chunk's
earlier scenarios, so a run is still a function of its seed and size.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from ..engine.state import GameState
from ..engine.step import actor, check
from ..engine.rules import IllegalAction
from ..errors import GameError
from .signature import action_squares, template_key

#: Candidates compared within one guard refusal at the edge of the rules (they cost a guard call each).
EDGE_CANDIDATES = 4


class Coverage:
    """How often each guard side and each situation was offered (one per chunk; see the module doc)."""

    __slots__ = ("seen",)

    def __init__(self) -> None:
        self.seen: dict[tuple, int] = {}

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
    """A square's part in a step: owner, buildings, mortgage, and whether its group-mates are built or
    mortgaged (a rule on the group reads those, an engine may read the square alone)."""
    if not 0 <= s < 40 or not rules.is_ownable[s]:
        return (rules.kind[s] if 0 <= s < 40 else "off",)
    grp = rules.groups[rules.group_of[s]]
    mates = [t for t in grp if t != s]
    level = "hotel" if g.hotel[s] else ("houses" if g.houses[s] else "bare")
    return (_role(seat, g.owner[s]), level, g.mortgaged[s], any(g.houses[t] or g.hotel[t] for t in mates),
            any(g.mortgaged[t] for t in mates), all(g.owner[t] == g.owner[s] for t in mates))


def _side(rules, g: GameState, seat: Any, side: Any, cash: int) -> tuple:
    if not isinstance(side, dict):
        return ()
    squares = tuple(sorted(_square(rules, g, seat, s) for s in side.get("squares", []) if isinstance(s, int)))
    amount = side.get("cash") or 0
    money = "none" if not amount else ("over" if amount > cash else ("all" if amount == cash else "some"))
    return squares, money, bool(side.get("cards"))


def situation(rules, g: GameState, action: dict) -> tuple[tuple, tuple]:
    """The situation an action is offered in (see the module doc), at two grains: what the action meets
    (the guard's side, the squares it names, where a roll lands and the card it would draw), and that
    with the circumstances (phase, whose move, the actor's jail and doubles)."""
    kind = action.get("type")
    seat = action.get("seat")
    ok = isinstance(seat, int) and 0 <= seat < g.n
    meets: list = [kind, verdict(rules, g, action)]
    if kind == "trade" and ok:
        other = action.get("with")
        theirs = g.cash[other] if isinstance(other, int) and 0 <= other < g.n else 0
        meets += [_side(rules, g, seat, action.get("give"), g.cash[seat]),
                  _side(rules, g, seat, action.get("take"), theirs)]
    else:
        meets += [_square(rules, g, seat, s) for s in sorted(action_squares(action))]
    dice = action.get("dice")
    if kind == "roll" and ok and isinstance(dice, list) and len(dice) >= 2:
        to = (g.pos[seat] + dice[0] + dice[1]) % 40
        land = rules.kind[to]
        pile = g.chance if land == "chance" else g.chest if land == "chest" else None
        meets += [g.in_jail[seat], dice[0] == dice[1], land, pile[0] if pile else None,
                  _role(seat, g.owner[to]) if rules.is_ownable[to] else None]
    around: list = [g.phase, "awaited" if seat == actor(g) else "other"]
    if ok:
        around += [g.in_jail[seat], g.jail_turns[seat] if g.in_jail[seat] else -1, g.doubles[seat] > 0]
    first = tuple(meets)
    return first, first + tuple(around)


__all__ = ["Coverage", "situation", "verdict", "EDGE_CANDIDATES"]
