"""Playing games: one seeded game (``play_game``), its result, and the hook that sees every action.

``play_game`` drives one seeded game with the game loop of the engine it is given
(``verify.engine.loop``, readable or compiled: ``verify.engine.engines``): it asks the seat's
policy at each decision point and applies the answer with the rule functions of the config's
engine (the same code the step API runs). Without a recorder it takes a fast path: the
frequent actions (roll, buy/decline, end of turn) call the rule directly,
nothing is serialised and no event objects are built. With a recorder (a
trace file, invariant checks) every action goes through ``Recorder.step``
(``step.apply_state``), and the recorder sees the state before and
after, so a recorded game is the same game as an unrecorded one.

``observe`` (the balance study's hook) is called with the state at the start
of every player-turn and once when the game stops; without it the loop does
not test for it (the turn-limit test doubles as the next-observation test).
Campaigns (many games, chunked for the execution layer) are
``verify.engine.campaign``; ``game_seed`` gives game ``i`` of a campaign its
seed, whatever chunk or process plays it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from .state import GameState
from .step import apply_state

if TYPE_CHECKING:
    from .engines import Engine

#: A game that has not ended after this many player-turns stops and counts as "hit a limit".
DEFAULT_MAX_TURNS = 2000


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a campaign (independent of how games are split over processes)."""
    return random.Random(f"{seed}:{index}").getrandbits(63)


@dataclass
class GameResult:
    seed: int
    finished: bool
    result: str | None
    winner: int | None
    rolls: int
    player_turns: int
    rounds: int
    bankrupt: list[int]
    landings: list[int]


class Unscreened(Exception):
    """A checked game's screen is not sure that every promised invariant holds after action ``steps`` (0: on
    the first state): ``play_game`` plays the game again through the recorder (``verify.engine.screen``)."""

    def __init__(self, steps: int):
        super().__init__(f"the screen is not sure after action {steps}")
        self.steps = steps


class Recorder:
    """Sees every action with the canonical state before and after (traces, invariant checks)."""

    def start(self, rules: Engine, g: GameState) -> None:  # pragma: no cover - interface
        pass

    def step(self, rules: Engine, g: GameState, action: dict) -> None:
        apply_state(rules, g, action)

    def finish(self, rules: Engine, g: GameState) -> None:  # pragma: no cover - interface
        pass


def play_game(rules: Engine, policies: list, seed: int, max_turns: int = DEFAULT_MAX_TURNS,
              recorder: Recorder | None = None,
              observe: Callable[[GameState], None] | None = None) -> GameResult:
    """Play one seeded game with the engine's own game loop (``verify.engine.loop``: readable or compiled).

    A recorder that gives the loop a screen (``screen_for``: a checked game without a trace) sees the game
    only when the screen is not sure that an invariant holds: the same seeded game is then played again
    through it (``unscreened``), and its checks say what broke."""
    if recorder is None or not hasattr(recorder, "screen_for"):
        return rules.code.loop.play(rules, policies, seed, max_turns, recorder, observe)
    memory = [_memory(p) for p in policies]
    try:
        return rules.code.loop.play(rules, policies, seed, max_turns, recorder, observe)
    except Unscreened:
        for p, m in zip(policies, memory):
            _restore(p, m)
        recorder.unscreened()
        return rules.code.loop.play(rules, policies, seed, max_turns, recorder, observe)


def _memory(policy: object) -> tuple:
    """What a bot carries from one game to the next: its random generator's state, what it tried."""
    rng = getattr(policy, "rng", None)
    memory = getattr(policy, "memory", None)
    return (rng.getstate() if isinstance(rng, random.Random) else None, memory() if memory is not None else None)


def _restore(policy: object, state: tuple) -> None:
    if state[0] is not None:
        policy.rng.setstate(state[0])        # type: ignore[attr-defined]
    if state[1] is not None:
        policy.restore(state[1])              # type: ignore[attr-defined]


__all__ = ["play_game", "GameResult", "Recorder", "Unscreened", "game_seed", "DEFAULT_MAX_TURNS"]
