"""The reference engine: plays any compiled ruleset, seeded, traced and fast.

Stages, each its own module (data flows one way)::

    Ruleset --verify.config (its own package)--> EngineConfig   (typed, frozen; board and decks scaled)
                                                     |
    state.GameState <--to_json/from_json--> canonical JSON "verify.state/1" (schemas/state.schema.json)
                                                     |
    rules/        one implementation of every rule (a module per family: movement, cards, auctions,
                  building, mortgages, trades, debts, ...): ``why_not_<action>`` guards and effects
    step          the public step API: new_game, legal_actions, apply, IllegalAction
    policies      bots (heuristic, random), separate from the rules
    simulate      the game loop (fast path without serialisation; the study's observe hook)
    campaign      many seeded games as chunks for the execution layer (verify.execute), merged exactly
    trace         JSON Lines traces, the invariant hook (--check-invariants), replay

The engine reads only the EngineConfig: no ruleset ids or source names appear in
engine code. Randomness comes from one seeded ``random.Random`` per game in the
game loop; the rules themselves are deterministic (dice and draws arrive inside
actions), so a state plus an action always gives the same successor.
"""

from ..config import EngineConfig
from .rules import IllegalAction
from .step import apply, fill_random, legal_actions, new_game

__all__ = ["EngineConfig", "IllegalAction", "apply", "fill_random", "legal_actions", "new_game"]
