"""The compiled config: what a resolved ruleset becomes before anything plays or proves it.

Shared by the reference engine (``verify.engine``), the SMT model
(``verify.smt``) and the conformance harness (``verify.conform``), so it
belongs to none of them::

    Ruleset --from_ruleset--> EngineConfig --to_json--> JSON --from_json--> EngineConfig
                                  |
                  board.py: the reference deeds and decks it is built on

``EngineConfig`` is frozen and typed; money is already in the ruleset's scale.
"""

from .board import Card
from .model import KINDS, Board, Deed, EngineConfig, Group, fallback_ruleset

__all__ = ["EngineConfig", "Board", "Deed", "Group", "Card", "KINDS", "fallback_ruleset"]
