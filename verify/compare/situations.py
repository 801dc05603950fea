"""Witness situations as canonical game states, built from a side's compiled config and the board data.

A witness situation is a canonical state (``verify.state/1``) and a few actions
the reference engine plays. ``Table`` builds such states for one side: a
neutral position (every deed with the bank, nothing built, no one in jail, the
opening cash), then the deeds, players and moment the situation needs. Deeds
are chosen from the side's board by their printed price or group, never by a
number written here; money the situation names is in classic amounts and is
multiplied by the side's money scale, so both sides of a witness face the same
situation in their own money.
"""

from __future__ import annotations

import copy
from fractions import Fraction
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..config import EngineConfig
from ..engine.step import IllegalAction, apply, new_game
from ..errors import GameError
from .values import number

#: Seats of a witness: the player who acts, another player, and a third who stands by.
ACTOR, OTHER, THIRD = 0, 1, 2


@lru_cache(maxsize=64)
def _opening(cfg: EngineConfig, players: int) -> dict:
    return new_game(cfg, players=players, seed=1)


@dataclass(frozen=True)
class Played:
    """What the engine did with a situation: the state after each action applied, the events, and the
    action it refused (its index and the rule's reason), if any."""

    states: tuple[dict, ...]            # the situation's state, then one per action applied
    events: tuple[dict, ...]
    refused: tuple[dict, str] | None = None   # the action refused, and why
    applied: tuple[dict, ...] = ()      # the actions applied (a skipped optional one is not among them)
    steps: tuple[tuple[dict, tuple[dict, ...]], ...] = ()   # (action, its events) per applied action

    @property
    def first(self) -> dict:
        return self.states[0]

    @property
    def last(self) -> dict:
        return self.states[-1]


class Table:
    """One side's board and money: builds the states of a situation."""

    def __init__(self, cfg: EngineConfig, players: int = 3):
        self.cfg = cfg
        self.scale = cfg.setup.scale
        self.players = max(players, cfg.setup.players_min, 4 if cfg.teams.enabled else 0)
        self.players = min(self.players, max(cfg.setup.players_max, 2))

    # ---- money ----------------------------------------------------------------------------------
    def money(self, classic: int | float) -> int:
        """An amount named in classic money, in this side's money."""
        return int(round(classic * self.scale))

    def classic(self, own: int | float) -> Any:

        return number(Fraction(own) / self.scale) if self.scale != 1 else own

    # ---- the board --------------------------------------------------------------------------------
    def deeds(self, kind: str | None = None):
        return [d for d in self.cfg.board.deeds if kind is None or d.kind == kind]

    #: where on the board's price scale a situation's street lies
    RANKS = {"cheapest": 0.0, "lower": 0.25, "median": 0.5, "upper": 0.75, "dearest": 1.0}

    def street(self, rank: str = "median"):
        """The street at ``rank`` of the board's streets ordered by printed price (a dearer one first
        among equals)."""
        streets = sorted(self.deeds("street"), key=lambda d: (d.price, d.square))
        return streets[round(self.RANKS[rank] * (len(streets) - 1))]

    def group(self, rank: str = "median"):
        """The colour group of the street at ``rank``."""
        return self.cfg.board.groups[self.street(rank).group]

    def group_of(self, square: int) -> tuple[int, ...]:
        d = self.cfg.board.deed(square)
        return self.cfg.board.groups[d.group].squares

    def group_index(self, square: int) -> int:
        return self.cfg.board.deed(square).group

    def squares_of_kind(self, kind: str) -> list[int]:
        return [i for i, k in enumerate(self.cfg.board.squares) if k == kind]

    # ---- states -----------------------------------------------------------------------------------
    def neutral(self, cash: int | None = None) -> dict:
        """The opening position made plain: every deed with the bank, the bank's full stock, every
        player at GO with ``cash`` (classic; default the starting cash) and a lap behind them, seat 0
        about to roll."""
        s = copy.deepcopy(_opening(self.cfg, self.players))
        for p in s["properties"]:
            p.update(owner=None, mortgaged=False, houses=0, hotel=False, mortgage_rounds=0)
            if "interest_paid" in p:
                p["interest_paid"] = False
        b = self.cfg.building
        s["bank"]["houses"], s["bank"]["hotels"] = b.house_supply, b.hotel_supply
        for p in s["players"]:
            p.update(cash=self.cfg.setup.starting_cash if cash is None else self.money(cash), position=0,
                     in_jail=False, jail_turns=0, bankrupt=False, doubles=0, passed_go=True, missed_turns=0)
        s["current"], s["phase"], s["pending"] = ACTOR, "pre_roll", None
        return s

    def prop(self, s: dict, square: int) -> dict:
        return next(p for p in s["properties"] if p["square"] == square)

    def own(self, s: dict, squares, seat: int, mortgaged: bool = False, houses: int = 0,
            hotel: bool = False) -> dict:
        """Give ``squares`` to ``seat`` (with buildings taken from the bank's stock)."""
        for sq in ([squares] if isinstance(squares, int) else squares):
            p = self.prop(s, sq)
            p.update(owner=seat, mortgaged=mortgaged, houses=houses, hotel=hotel)
            bank = s["bank"]
            if houses and bank["houses"] is not None:
                bank["houses"] -= houses
            if hotel and bank["hotels"] is not None:
                bank["hotels"] -= 1
        return s

    def cash(self, s: dict, seat: int, classic: int) -> dict:
        s["players"][seat]["cash"] = self.money(classic)
        return s

    def at(self, s: dict, seat: int, square: int) -> dict:
        s["players"][seat]["position"] = square
        return s

    def turn_of(self, s: dict, seat: int) -> dict:
        s["current"], s["phase"], s["pending"] = seat, "pre_roll", None
        return s

    def roll_to(self, s: dict, seat: int, square: int, steps: int = 3) -> dict:
        """Put ``seat`` ``steps`` squares before ``square`` on its turn; the roll that takes it there."""
        self.turn_of(s, seat)
        s["players"][seat]["position"] = (square - steps) % self.cfg.board.size
        return self.roll(steps)

    def roll(self, steps: int) -> dict:
        """A roll of ``steps`` that is not a double (two dice; a speed die, when rolled, is fixed in play)."""
        lo = max(1, steps - 6)
        for a in range(lo, 7):
            b = steps - a
            if 1 <= b <= 6 and a != b:
                return {"type": "roll", "dice": [a, b]}
        raise ValueError(f"no two different dice make {steps}")


def play(cfg: EngineConfig, state: dict, actions) -> Played:
    """Apply ``actions`` in turn with the reference engine; stop at the first refused one.

    An action marked ``"optional": true`` is skipped when the rules refuse it (a rent the owner need
    not claim, a turn that ended by itself). A roll whose dice are too few for this config (a speed
    die in play) gets a speed die added that keeps the move the same length.
    """
    states, steps = [state], []
    for action in actions:
        optional = bool(action.get("optional"))
        action = {k: v for k, v in action.items() if k != "optional"}
        try:
            nxt, evs, action = _apply(cfg, states[-1], action)
        except IllegalAction as exc:
            if optional:
                continue
            return _played(states, steps, (action, str(exc)))
        states.append(nxt)
        steps.append((action, tuple(evs)))
    return _played(states, steps, None)


def _played(states, steps, refused) -> Played:
    return Played(tuple(states), tuple(e for _, evs in steps for e in evs), refused,
                  tuple(a for a, _ in steps), tuple(steps))


def _apply(cfg: EngineConfig, state: dict, action: dict) -> tuple[dict, list, dict]:
    """(successor, events, the action as applied)."""
    try:
        nxt, evs = apply(cfg, state, action)
    except IllegalAction as exc:
        if action.get("type") != "roll" or "dice" not in str(exc) or len(action.get("dice", ())) != 2:
            raise
        action = _with_speed_die(action)
        nxt, evs = apply(cfg, state, action)
    return nxt, evs, action


def _with_speed_die(action: dict) -> dict:
    a, b = action["dice"]
    total = a + b
    # the same total from three dice, none equal to the white pair's doubles test
    for x in range(1, 7):
        for y in range(1, 7):
            z = total - x - y
            if x != y and 1 <= z <= 3 and z not in (x, y):
                return {**action, "dice": [x, y, z]}
    raise GameError(f"no speed-die roll makes {total}")


__all__ = ["Table", "Played", "play", "ACTOR", "OTHER", "THIRD"]
