"""Names every rule module shares: the phases, the transient phase of a move, the rule refusal (declared in
``verify.engine.reasons``)."""

from __future__ import annotations

from typing import Final

from ...config.board import Card
from ...config.model import JAIL_SQUARE
from ...errors import GameError
from ..reasons import IllegalAction
from ..state import (AUCTION, BUS, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, OVER, POST_ROLL, PRE_ROLL,
                     TRIPLES, UNLIMITED, GameState)
from ...config.tables import Tables, round_money

MOVING: Final = "moving"                     # transient: inside a move, never seen by callers
#: the phases in which property may be managed (building, selling, mortgaging, trading)
MANAGE_PHASES: Final = (PRE_ROLL, POST_ROLL, BUY, DEBT)


__all__ = ["Card", "GameError", "JAIL_SQUARE", "AUCTION", "BUS", "BUY", "CASINO", "DEBT", "INCOME_TAX", "JAIL_CHOICE",
           "OVER", "POST_ROLL", "PRE_ROLL", "TRIPLES", "UNLIMITED", "GameState", "Tables", "MOVING",
           "MANAGE_PHASES", "IllegalAction", "round_money"]
