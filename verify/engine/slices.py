"""The invariants' slices of a state read straight from the engine's ``GameState``, after each action.

A checked run decides the promised invariants after every action (``verify.engine.trace``), on the
*slices* of the state (``verify.state_view``). ``GameSlicer`` reads them from the engine's own lists,
without building the canonical JSON, and tells which changed since the last action (most actions
change one or two); ``CheckedGame`` hands them to the run's incremental checks
(``verify.incremental``). Both run after every action of a checked game, so this module is compiled
with the engine (``verify.engine.native``): there it reads the native ``GameState``'s fields directly.
"""

from __future__ import annotations

from typing import Any, Optional

from .loop import FIELDS
from .rules import flow
from .state import UNLIMITED, GameState

SCALARS = ("bank_houses", "bank_hotels", "bank_cash", "pot", "jackpot")
#: the slices that are a list of the engine's as it is (the jail cards, after them, a list of lists)
COLUMNS = ("cash", "in_jail", "bankrupt", "owner", "mortgaged", "houses", "hotel")
#: the names of the slices that may change, by their bit in the slicer's record of changes
CHANGING = COLUMNS + ("cards",) + SCALARS
NOTHING: frozenset = frozenset()


class GameSlicer:
    """The slices of ``g`` (equal to ``state_slices(g.to_json(ownable))``, tested), for one game (its seats
    and teams do not change). A slice that did not change since the last call is handed out as the same
    object (the very same dict when none did), and ``changed`` names the slices that did (None after the
    first call), so the checks need not compare them."""

    def __init__(self, g: GameState, ownable: tuple) -> None:
        self.game = g
        self.fixed: dict[str, Any] = {"seats": tuple(range(g.n)),
                                      "teams": tuple([i if t is None else t for i, t in enumerate(g.team)]),
                                      "listed": frozenset(ownable)}
        self._copies: tuple = ()              # copies of the engine's columns (and jail cards) last seen
        self._scalars: tuple = ()
        self._raw: tuple = ()                  # the engine's own values of the scalars last seen
        self._out: Optional[dict] = None
        self._changed: dict[int, frozenset] = {}     # which slices differ (bits) -> their names
        self.changed: Optional[frozenset] = None

    def __call__(self, g: GameState) -> dict:
        raw = (g.bank_houses, g.bank_hotels, g.bank_cash, g.pot, g.jackpot)
        columns: tuple[Any, ...] = (g.cash, g.in_jail, g.bankrupt, g.owner, g.mortgaged, g.houses, g.hotel,
                                    g.jail_cards)
        last = self._out
        same_scalars = raw == self._raw
        if same_scalars and last is not None and columns == self._copies:    # (compared in C, column by column)
            self.changed = NOTHING
            return last
        self._raw = raw
        houses, hotels = raw[0], raw[1]
        scalars = (None if houses >= UNLIMITED // 2 else houses, None if hotels >= UNLIMITED // 2 else hotels,
                   raw[2], raw[3], raw[4])
        if last is None:
            out = dict(self.fixed)
            for name, values in zip(COLUMNS, columns):
                out[name] = tuple(values)
            out["cards"] = tuple([tuple(held) for held in g.jail_cards])
            for name, value in zip(SCALARS, scalars):
                out[name] = value
            self._copies = tuple([list(values) for values in columns[:-1]]) + ([list(held) for held in g.jail_cards],)
            self._scalars = scalars
            self._out = out
            self.changed = None
            return out
        out = dict(last)           # the slices that did not change: the very same objects
        bits = 0
        copies = list(self._copies)
        for k in range(len(COLUMNS)):
            values = columns[k]
            if values != copies[k]:
                copies[k] = list(values)
                out[COLUMNS[k]] = tuple(values)
                bits |= 1 << k
        if g.jail_cards != copies[-1]:
            copies[-1] = [list(held) for held in g.jail_cards]
            out["cards"] = tuple([tuple(held) for held in g.jail_cards])
            bits |= 1 << len(COLUMNS)
        if not same_scalars:
            for k in range(len(SCALARS)):
                if scalars[k] != self._scalars[k]:
                    out[SCALARS[k]] = scalars[k]
                    bits |= 1 << (len(COLUMNS) + 1 + k)
        changed = self._changed.get(bits)
        if changed is None:
            changed = frozenset([n for k, n in enumerate(CHANGING) if bits >> k & 1])
            self._changed[bits] = changed
        self._copies = tuple(copies)
        self._scalars = scalars
        self._out = out
        self.changed = changed
        return out


def action_for_check(action: Optional[dict], events: list) -> Optional[dict]:
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
        self.game = g
        self.slicer = GameSlicer(g, ownable)
        self.last: Optional[dict] = None
        self.effects: dict[str, Any] = effects or {}
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
        kind: str = action["type"]
        seat = action.get("seat")
        args = [action.get(name, default) for name, default in FIELDS[kind]]
        self.effects[kind](g, flow.awaited(g) if seat is None else seat, *args)
        events = g.events
        return self.after(g, action_for_check(action, events if events is not None else []))

    def first(self, g: GameState) -> list:
        """The violations of the game's first state."""
        after = self.slicer(g)
        self.last = after
        return self.run.check(None, after, None, None)

    def after(self, g: GameState, action: Any) -> list:
        """The violations after ``action`` was applied to ``g``."""
        slicer = self.slicer
        after = slicer(g)
        # the slicer's changes are from the last state it gave, which the checks saw last unless the
        # checks saw another state since (then they compare for themselves)
        run = self.run
        out = run.check(self.last, after, action, slicer.changed if run.last is self.last else None)
        self.last = after
        return out


__all__ = ["GameSlicer", "CheckedGame", "action_for_check", "SCALARS", "COLUMNS"]
