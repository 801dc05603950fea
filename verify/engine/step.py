"""The step API: which actions are legal in a canonical state, and what applying one does.

    from verify.engine.step import new_game, legal_actions, apply, IllegalAction
    state = new_game(config, players=4, seed=1)          # canonical JSON (verify.state/1)
    acts = legal_actions(config, state)                  # small JSON-able dicts
    state, events = apply(config, state, {"type": "roll", "dice": [3, 4]})

Actions are dicts with a ``type`` and, when someone other than the expected
actor acts, a ``seat`` (default: the pending decision's player, else the current
player). Every action type, its fields and which of them are random are declared
once in ``verify.engine.actions`` (``ACTIONS``); the dispatch below and
``legal_actions`` are driven by those declarations.

Randomness is never drawn inside ``apply``: the dice, the casino's draw, and the
order of a deck reshuffled or the nearest-utility card's own throw during the step
are fields of the action (the last two optional: without them they come from
generators seeded by the state, so ``apply`` stays a function of state and
action). ``legal_actions`` lists actions without random fields; ``fill_random``
completes one from a ``random.Random``. ``legal_actions`` lists every action whose
fields can be enumerated (bids at the minimum amount, no trades: a trade is
checked when applied). A refused action raises ``IllegalAction`` (a
``GameError``) with the rule's reason (``exc.reason``: what it rests on); a
malformed state or action raises ``GameError``.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from ..config import EngineConfig
from ..errors import GameError
from .actions import ACTION_TYPES, ACTIONS, Action, awaited, enumerate_legal
from .engines import Engine, rules_for
from .rules import IllegalAction
from .state import OVER, GameState

__all__ = ["IllegalAction", "new_game", "legal_actions", "apply", "apply_state", "fill_random",
           "actor", "check", "enumerate_actions", "ACTION_TYPES"]

#: who is expected to act now (the default seat of an action)
actor = awaited


def new_game(config: EngineConfig, players: int, seed: int) -> dict:
    engine = rules_for(config)
    return engine.to_json(engine.new_game(players, random.Random(seed)))


def _seat(g: GameState, action: dict) -> int:
    seat = action.get("seat")
    if seat is None:
        return awaited(g)
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < g.n:
        raise GameError(f"seat must be a player 0..{g.n - 1}, got {seat!r}")
    return seat


def _fields(act: Action, action: dict) -> list:
    """The values of the action's own fields, in declaration order (a strict field must be an integer)."""
    out = []
    for f in act.fields:
        v = action.get(f.name, f.default)
        if f.strict and (not isinstance(v, int) or isinstance(v, bool)):
            raise GameError(f"action {act.name!r} needs an integer {f.name!r}")
        out.append(v)
    return out


def _step_random(g: GameState, action: dict) -> tuple[Any, Any]:
    """The step's random values the action supplies (card_dice, reshuffle), checked against the state."""
    dice, order = action.get("card_dice"), action.get("reshuffle")
    if dice is not None and not (isinstance(dice, (list, tuple)) and len(dice) == 2 and all(
            isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice)):
        raise GameError(f"card_dice must be two dice 1..6, got {dice!r}")
    if order is not None:
        if not isinstance(order, dict) or set(order) - {"chance", "chest"}:
            raise GameError(f"reshuffle must map chance and/or chest to an order of their discards, got {order!r}")
        for deck, ids in order.items():
            discards = g.chance_discards if deck == "chance" else g.chest_discards
            if not isinstance(ids, list) or sorted(map(str, ids)) != sorted(discards):
                raise GameError(f"reshuffle.{deck} must be an order of the deck's discards {sorted(discards)}, "
                                f"got {ids!r}")
        order = {deck: list(ids) for deck, ids in order.items()}
    return dice, order


def check(rules: Engine, g: GameState, action: Any) -> tuple[int, Callable]:
    """Validate an action against the rules; return (seat, perform) where ``perform(rules, g, seat, action)``
    applies it. Raises IllegalAction (with the rule's ``reason``) or GameError."""
    act = ACTIONS.get(action.get("type")) if isinstance(action, dict) else None
    if act is None:
        kind = action.get("type") if isinstance(action, dict) else type(action).__name__
        raise GameError(f"unknown action {kind!r}; one of {', '.join(ACTION_TYPES)}")
    if g.phase == OVER:
        raise IllegalAction("the game is over")
    seat = _seat(g, action)
    args = _fields(act, action)
    why = rules.dispatch[act.name][0](g, seat, *args)
    if why:
        raise IllegalAction(f"{act.name} by seat {seat} refused in phase {g.phase}: {why}", why)
    return seat, _perform


def _perform(rules: Engine, g: GameState, seat: int, action: dict) -> None:
    act = ACTIONS[action["type"]]
    args = _fields(act, action)
    effect = rules.dispatch[act.name][1]
    if not act.moves:
        effect(g, seat, *args)
        return
    g.card_dice, g.reshuffle = _step_random(g, action)
    try:
        effect(g, seat, *args)
    finally:
        g.card_dice = g.reshuffle = None


def apply_state(rules: Engine, g: GameState, action: dict) -> None:
    """Apply an action to a GameState in place (the step API's core; the simulator uses it too)."""
    seat, perform = check(rules, g, action)
    perform(rules, g, seat, action)


def apply(config: EngineConfig, state: dict, action: dict) -> tuple[dict, list[dict]]:
    """Apply one action to a canonical state: the successor state and the events it produced."""
    rules = rules_for(config)
    g = rules.from_json(state)
    g.events = []
    seat, perform = check(rules, g, action)
    try:
        perform(rules, g, seat, action)
    except GameError:
        raise
    except (IndexError, KeyError, TypeError, ValueError) as exc:   # a hand-made state the rules cannot follow
        raise GameError(f"{action['type']}: the state is inconsistent ({type(exc).__name__}: {exc})") from None
    return rules.to_json(g), g.events


def fill_random(config: EngineConfig, state: dict | GameState, action: dict, rng: random.Random) -> dict:
    """Complete an action's random fields from ``rng``: the dice, the casino's draw, and for an action that
    may move a token, the order of a deck that is empty now (it reshuffles at its next draw) and the
    nearest-utility card's throw when that card is the next one drawn."""
    rules = _engine_for(config, state)
    g = rules.from_json(state) if isinstance(state, dict) else state
    a = dict(action)
    kind = a.get("type")
    if kind in ("roll", "timeout") and "dice" not in a:
        if kind == "roll" or config.clock.on_timeout == "default_choices":
            a["dice"] = [rng.randint(1, 6) for _ in range(rules.rules.base.dice_needed(rules.t, g))]
    if kind == "casino_bet":
        a.setdefault("die", rng.randint(1, 6))
        a.setdefault("jackpot", rng.randrange(config.casino.jackpot_odds) == 0)
    act = ACTIONS.get(kind)
    if act is None or not act.moves:
        return a
    order = dict(a.get("reshuffle") or {})
    for deck, pile, discards in (("chance", g.chance, g.chance_discards), ("chest", g.chest, g.chest_discards)):
        if not pile and discards and deck not in order:
            order[deck] = rng.sample(discards, len(discards))
        top = (pile or order.get(deck) or [None])[0]
        card = rules.t.cards[deck].get(top) if top is not None else None
        if (card is not None and card.effect == "advance_nearest" and card.kind == "utility"
                and card.utility_multiplier and "card_dice" not in a):
            a["card_dice"] = [rng.randint(1, 6), rng.randint(1, 6)]
    if order:
        a["reshuffle"] = order
    return a


def legal_actions(config: EngineConfig, state: dict | GameState) -> list[dict]:
    """Every enumerable legal action (random fields left out; see ``fill_random``)."""
    rules = _engine_for(config, state)
    g = rules.from_json(state) if isinstance(state, dict) else state
    return enumerate_legal(rules, g)


def _engine_for(config: EngineConfig, state: dict | GameState) -> Engine:
    """The config's engine; for a state object, the engine of the build that made it (a readable
    ``GameState`` or the compiled one: a compiled rule takes only its own build's states)."""
    if isinstance(state, dict):
        return rules_for(config)
    return rules_for(config, "readable" if isinstance(state, GameState) else "compiled")


def enumerate_actions(rules: Engine, g: GameState) -> list[dict]:
    """``legal_actions`` for an engine and a GameState."""
    if g.phase == OVER:
        return []
    return enumerate_legal(rules, g)
