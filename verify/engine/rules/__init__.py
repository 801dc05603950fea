"""The rules: one implementation of every rule the engine plays, over a ``GameState``.

``Rules(config)`` precomputes flat tables from an ``EngineConfig`` (square
kinds, prices, rents, nearest station/utility, ...) and exposes two kinds of
methods used by both the step API (``step.py``) and the fast simulator
(``simulate.py``), one module per rule family (``base``, ``flow``,
``movement``, ``cards``, ``auctions``, ``building``, ``mortgages``,
``trades``, ``debts``, ``extras``), combined here into one class:

* ``why_not_<action>(g, ...)``: the refusal reason, or ``None`` when the
  action is legal (the guard);
* ``<action>(g, ...)``: perform it, assuming the guard passed (the transition).

A move is resolved until a decision is needed; the state then waits in a
phase (``buy``, ``auction``, ``debt``, ...) with ``pending`` describing the
decision. Randomness never happens here: dice, casino draws and the jackpot
draw arrive inside actions, and a deck reshuffle uses a generator seeded from
the state (``seed`` and the shuffle count), so a state plus an action always
gives the same successor.
"""

from __future__ import annotations

from ...errors import VerifyError
from ...config import EngineConfig
from .auctions import AuctionRules
from .base import RulesBase
from .building import BuildingRules
from .cards import CardRules
from .common import MANAGE_PHASES, MOVING, POT_KINDS, IllegalAction
from .debts import DebtRules
from .extras import ExtraRules
from .flow import FlowRules
from .mortgages import MortgageRules
from .movement import MovementRules
from .trades import TradeRules


class Rules(FlowRules, MovementRules, CardRules, AuctionRules, BuildingRules, MortgageRules, TradeRules,
            DebtRules, ExtraRules, RulesBase):
    """Every rule of the engine, for one EngineConfig."""


_RULES: dict[int, tuple[EngineConfig, Rules]] = {}


def rules_for(config: EngineConfig) -> Rules:
    """The (cached) Rules of a config; keyed by identity first, as hashing a config is not free.

    Refuses (E018) a config with values the engine does not play (``EngineConfig.unplayable``).
    """
    if config.unplayable:
        raise VerifyError("E018", "the reference engine cannot play this ruleset as written: "
                          + "; ".join(config.unplayable) + " (see verify/engine/README.md, "
                          "'What the engine does not model')")
    hit = _RULES.get(id(config))
    if hit is not None and hit[0] is config:
        return hit[1]
    for cfg, rules in _RULES.values():  # noqa: B007 (the match is used after the loop)
        if cfg == config:
            break
    else:
        rules = Rules(config)
        if len(_RULES) >= 64:
            _RULES.pop(next(iter(_RULES)))
    _RULES[id(config)] = (config, rules)
    return rules


__all__ = ["Rules", "rules_for", "IllegalAction", "MOVING", "POT_KINDS", "MANAGE_PHASES"]
