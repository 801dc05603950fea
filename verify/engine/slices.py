"""The invariants' slices of a state read straight from the engine's ``GameState``, after each action.

A checked run decides the promised invariants after every action (``verify.engine.trace``), on the
*slices* of the state (``verify.state_view``). ``GameSlicer`` reads them from the engine's own lists,
without building the canonical JSON, and tells which changed since the last action (most actions
change one or two); ``CheckedGame`` hands them to the run's incremental checks
(``verify.incremental``). Both run after every action of a checked game, so this module is compiled
with the engine (``verify.engine.native``): there it reads the native ``GameState``'s fields directly.
"""

from __future__ import annotations

from typing import Any, Final, Optional

from ..incremental import Incremental
from .loop import act, dispatch
from .state import UNLIMITED, GameState

SCALARS = ("bank_houses", "bank_hotels", "bank_cash", "pot", "jackpot")
#: the slices that are a list of the engine's as it is (the jail cards, after them, a list of lists)
COLUMNS = ("cash", "in_jail", "bankrupt", "owner", "mortgaged", "houses", "hotel")
#: the names of the slices that may change, by their bit in the slicer's record of changes
CHANGING = COLUMNS + ("cards",) + SCALARS
NOTHING: Final[frozenset] = frozenset()
#: which slices differ (bits) -> their names, one set for each (the checks look their plans up by it, and
#: a set found by identity is found at once)
CHANGED: Final[dict[int, frozenset]] = {}


class GameSlicer:
    """The slices of ``g`` (equal to ``state_slices(g.to_json(ownable))``, tested), for one game (its seats
    and teams do not change). A slice that did not change since the last call is handed out as the same
    object (the very same dict when none did), ``changed`` names the slices that did (None after the
    first call), and ``squares`` has a bit set for each square whose deed columns changed, so the checks
    need not compare them. Each column is compared with a copy of it as it was (in C, item by item)."""

    def __init__(self, g: GameState, ownable: tuple) -> None:
        self.game = g
        self.fixed: dict[str, Any] = {"seats": tuple(range(g.n)),
                                      "teams": tuple([i if t is None else t for i, t in enumerate(g.team)]),
                                      "listed": frozenset(ownable)}
        # the engine's columns and scalars as they were last seen
        self.cash: list[int] = []
        self.in_jail: list[bool] = []
        self.bankrupt: list[bool] = []
        self.owner: list[int] = []
        self.mortgaged: list[bool] = []
        self.houses: list[int] = []
        self.hotel: list[bool] = []
        self.cards: list[list[str]] = []
        self.bank_houses = 0
        self.bank_hotels = 0
        self.bank_cash = 0
        self.pot = 0
        self.jackpot = 0
        self._out: Optional[dict] = None
        self.changed: Optional[frozenset] = None
        self.squares = -1

    def __call__(self, g: GameState) -> dict:
        return self.slices(g)

    def slices(self, g: GameState) -> dict:
        """The slices of ``g`` (see the class)."""
        last = self._out
        if last is None:
            return self.first(g)
        # one branch per column, not a loop over CHANGING: compiled, each reads a typed field directly
        # (a getattr by name would be generic); the bits follow CHANGING's order
        bits = 0
        squares = 0
        if g.cash != self.cash:
            bits = 1
        if g.in_jail != self.in_jail:
            bits |= 2
        if g.bankrupt != self.bankrupt:
            bits |= 4
        if g.owner != self.owner:
            bits |= 8
            squares = differing(g.owner, self.owner)
        if g.mortgaged != self.mortgaged:
            bits |= 16
            squares |= differing(g.mortgaged, self.mortgaged)
        if g.houses != self.houses:
            bits |= 32
            squares |= differing(g.houses, self.houses)
        if g.hotel != self.hotel:
            bits |= 64
            squares |= differing(g.hotel, self.hotel)
        if g.jail_cards != self.cards:
            bits |= 128
        if g.bank_houses != self.bank_houses:
            bits |= 256
        if g.bank_hotels != self.bank_hotels:
            bits |= 512
        if g.bank_cash != self.bank_cash:
            bits |= 1024
        if g.pot != self.pot:
            bits |= 2048
        if g.jackpot != self.jackpot:
            bits |= 4096
        self.squares = squares
        if bits == 0:
            self.changed = NOTHING
            return last
        out = dict(last)           # the slices that did not change: the very same objects
        if bits & 1:
            self.cash = list(g.cash)
            out["cash"] = tuple(g.cash)
        if bits & 2:
            self.in_jail = list(g.in_jail)
            out["in_jail"] = tuple(g.in_jail)
        if bits & 4:
            self.bankrupt = list(g.bankrupt)
            out["bankrupt"] = tuple(g.bankrupt)
        if bits & 8:
            self.owner = list(g.owner)
            out["owner"] = tuple(g.owner)
        if bits & 16:
            self.mortgaged = list(g.mortgaged)
            out["mortgaged"] = tuple(g.mortgaged)
        if bits & 32:
            self.houses = list(g.houses)
            out["houses"] = tuple(g.houses)
        if bits & 64:
            self.hotel = list(g.hotel)
            out["hotel"] = tuple(g.hotel)
        if bits & 128:
            self.cards = [list(held) for held in g.jail_cards]
            out["cards"] = tuple([tuple(held) for held in g.jail_cards])
        if bits >= 256:
            self.scalars(g, out, bits)
        changed = CHANGED.get(bits)
        if changed is None:
            changed = frozenset([n for k, n in enumerate(CHANGING) if bits >> k & 1])
            CHANGED[bits] = changed
        self._out = out
        self.changed = changed
        return out

    def scalars(self, g: GameState, out: dict, bits: int) -> None:
        """The scalar slices of ``g`` that ``bits`` says changed into ``out`` (an unlimited building supply
        is None), remembered."""
        if bits & 256:
            self.bank_houses = g.bank_houses
            out["bank_houses"] = None if g.bank_houses >= UNLIMITED // 2 else g.bank_houses
        if bits & 512:
            self.bank_hotels = g.bank_hotels
            out["bank_hotels"] = None if g.bank_hotels >= UNLIMITED // 2 else g.bank_hotels
        if bits & 1024:
            self.bank_cash = g.bank_cash
            out["bank_cash"] = g.bank_cash
        if bits & 2048:
            self.pot = g.pot
            out["pot"] = g.pot
        if bits & 4096:
            self.jackpot = g.jackpot
            out["jackpot"] = g.jackpot

    def first(self, g: GameState) -> dict:
        """The slices of the game's first state (``changed`` None: unknown)."""
        out = dict(self.fixed)
        self.cash, self.in_jail, self.bankrupt = list(g.cash), list(g.in_jail), list(g.bankrupt)
        self.owner, self.mortgaged, self.houses, self.hotel = (list(g.owner), list(g.mortgaged), list(g.houses),
                                                               list(g.hotel))
        self.cards = [list(held) for held in g.jail_cards]
        columns: list[list[Any]] = [self.cash, self.in_jail, self.bankrupt, self.owner, self.mortgaged,
                                    self.houses, self.hotel]
        for name, values in zip(COLUMNS, columns):
            out[name] = tuple(values)
        out["cards"] = tuple([tuple(held) for held in g.jail_cards])
        self.scalars(g, out, 0x1f00)
        self._out = out
        self.changed = None
        self.squares = -1
        return out


def differing(now: list, then: list) -> int:
    """A bit set for each index at which the two columns (of one length) may differ: where their items are
    not the same object (equal items that are not count as differing: the checks then look at them too)."""
    out = 0
    for i in range(len(now)):
        if now[i] is not then[i]:
            out |= 1 << i
    return out


def action_for_check(action: Optional[dict], events: list[dict[str, Any]]) -> Optional[dict]:
    """The action as the invariants see it: a bankruptcy names its creditor (-1 = the bank)."""
    if action is None:
        return None
    for e in events:
        if e.get("event") == "bankrupt":
            return dict(action, creditor=e.get("creditor", -1), player=e.get("player"))
    return action


class CheckedGame:
    """One game's checks: its slicer and the run's incremental checks (``verify.incremental.Incremental``);
    with ``effects`` (the engine's effect of each action type), ``play`` applies an action as well."""

    def __init__(self, run: Any, g: GameState, ownable: tuple, effects: Optional[dict] = None) -> None:
        self.run = run
        #: the run's checks when they are this build's (called natively), else None
        self.native: Optional[Incremental] = run if isinstance(run, Incremental) else None
        self.game = g
        self.slicer = GameSlicer(g, ownable)
        self.last: Optional[dict] = None
        #: each action type's effect and its fields with their defaults (``verify.engine.loop.dispatch``)
        self.effects: dict[str, tuple[Any, tuple[tuple[str, Any], ...]]] = dispatch(effects or {})
        self.steps = 0
        #: called with (steps, g, action, violations) when an action breaks an invariant (``step``)
        self.broken: Any = None

    def step(self, rules: Any, g: GameState, action: dict) -> None:
        """A recorder's ``step`` (``verify.engine.simulate.Recorder``): ``play``, and ``broken`` on a violation."""
        self.steps += 1
        bad = self.play(g, action)
        if bad:
            self.broken(self.steps, g, action, bad)

    def play(self, g: GameState, action: dict) -> list:
        """Apply ``action`` as the game loop does when it records nothing (its effect at once: the bot
        chose it among the legal ones), the events collected; the violations after it."""
        g.events = []
        act(self.effects, g, action)
        events = g.events
        return self.after(g, action_for_check(action, events if events is not None else []))

    def first(self, g: GameState) -> list:
        """The violations of the game's first state."""
        after = self.slicer.slices(g)
        self.last = after
        return self.run.check(None, after, None, None)

    def after(self, g: GameState, action: Any) -> list:
        """The violations after ``action`` was applied to ``g``."""
        slicer = self.slicer
        after = slicer.slices(g)
        # the slicer's changes are from the last state it gave, which the checks saw last unless the
        # checks saw another state since (then they compare for themselves)
        native = self.native
        if native is not None and native.last is self.last:
            out = native.check(self.last, after, action, slicer.changed, True, slicer.squares)
        else:
            run = self.run
            changed = slicer.changed if run.last is self.last else None
            out = run.check(self.last, after, action, changed, True, slicer.squares if changed is not None else -1)
        self.last = after
        return out


__all__ = ["GameSlicer", "CheckedGame", "action_for_check", "SCALARS", "COLUMNS"]
