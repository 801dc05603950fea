"""Names every rule module shares: the phases, the transient phase of a move, the rule refusal."""

from __future__ import annotations

from ...config.model import JAIL_SQUARE
from ...errors import GameError
from ..state import (AUCTION, BUS, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, OVER, POST_ROLL, PRE_ROLL,
                     TRIPLES, UNLIMITED, GameState)
from ..tables import Tables, round_money

MOVING = "moving"                       # transient: inside a move, never seen by callers
#: the phases in which property may be managed (building, selling, mortgaging, trading)
MANAGE_PHASES = (PRE_ROLL, POST_ROLL, BUY, DEBT)


class IllegalAction(GameError):
    """The rules refuse this action in this state (not malformed input: a rule says no).

    ``reason`` is the guard's ``verify.engine.reasons.Reason`` (what the refusal rests on)."""

    def __init__(self, message: str, reason=None):
        super().__init__(message)
        self.reason = reason


__all__ = ["GameError", "JAIL_SQUARE", "AUCTION", "BUS", "BUY", "CASINO", "DEBT", "INCOME_TAX", "JAIL_CHOICE",
           "OVER", "POST_ROLL", "PRE_ROLL", "TRIPLES", "UNLIMITED", "GameState", "Tables", "MOVING",
           "MANAGE_PHASES", "IllegalAction", "round_money"]
