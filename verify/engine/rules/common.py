"""Names every rule module shares: transient phases, money rounding, the rule refusal."""

from __future__ import annotations

from ...errors import GameError
from ...config.model import JAIL_SQUARE, EngineConfig
from ..state import (AUCTION, BUS, BUY, CASINO, DEBT, INCOME_TAX, JAIL_CHOICE, OVER, POST_ROLL, PRE_ROLL,
                     TRIPLES, UNLIMITED, GameState)

MOVING = "moving"                       # transient: inside a move, never seen by callers
#: What goes into the Free Parking pot (free_parking.pot: "taxes and fines"); card payments go to the bank.
POT_KINDS = frozenset(("tax", "fine"))
MANAGE_PHASES = (PRE_ROLL, POST_ROLL, BUY, DEBT)


class IllegalAction(GameError):
    """The rules refuse this action in this state (not malformed input: a rule says no)."""


def _r(x: float) -> int:
    """Money is whole; half rounds up."""
    return int(x + 0.5 + 1e-9)


__all__ = ["GameError", "JAIL_SQUARE", "EngineConfig", "AUCTION", "BUS", "BUY", "CASINO", "DEBT", "INCOME_TAX",
           "JAIL_CHOICE", "OVER", "POST_ROLL", "PRE_ROLL", "TRIPLES", "UNLIMITED", "GameState", "MOVING",
           "POT_KINDS", "MANAGE_PHASES", "IllegalAction", "_r"]
