"""The three-state verdict of every check, and the result record ``verify check`` prints.

A solver timeout or an unsupported feature is UNKNOWN with its reason; only
PROVED counts as success (CrossHair's lesson: never report "could not decide"
as "fine").
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any


class Verdict(str, enum.Enum):
    PROVED = "PROVED"
    VIOLATED = "VIOLATED"
    UNKNOWN = "UNKNOWN"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class CheckResult:
    """One cell of the check matrix: a ruleset, an invariant (or a check), an action."""

    ruleset: str
    invariant: str
    action: str
    promised: bool
    verdict: Verdict
    counterexample: dict | None = None
    reason: str | None = None
    seconds: float = 0.0
    cached: bool = False
    #: how open values (set by a host or the players, none supplied) were treated, one text per
    #: parameter: every value / each value of a finite domain / the fallback assumed (verify.smt.open_values)
    open_values: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.PROVED or not self.promised

    def to_json(self) -> dict[str, Any]:
        out = {"ruleset": self.ruleset, "invariant": self.invariant, "action": self.action,
               "promised": self.promised, "verdict": self.verdict.value,
               "counterexample": self.counterexample, "reason": self.reason}
        if self.open_values:
            out["open_values"] = list(self.open_values)
        return out
