"""The sides of a witness and what a search for one ends in.

A ``Party`` is one side: the name it is shown under, the resolved ruleset it
plays (any values set already applied), and how ``verify replay`` finds it
again. A ``Found`` is the three-valued end of a search: a situation the engine
plays differently for the sides, proof that none exists, or UNKNOWN with the
reason. ``broken_promise`` keeps a witness inside what its rulesets promise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

from ..config import EngineConfig
from ..engine.trace import InvariantChecker, _action_for_check
from .situations import Played

#: z3 budget of one witness query (a timeout is UNKNOWN with its reason, never a verdict).
TIMEOUT_MS = 4000


@dataclass(frozen=True)
class Party:
    """One side of a witness: what it is called, the ruleset it plays, and how ``verify replay`` finds it."""

    label: str                      # shown in the witness: a ruleset id, RULESET@READING, ...
    ruleset: Any                    # verify.spec.Ruleset (any values set already applied)
    name: str                       # the ruleset name ``verify replay`` resolves
    set: tuple[tuple[str, Any], ...] = ()   # values set on top of ``name`` (its own money)
    opened: tuple[str, ...] = ()    # open values nobody supplied, played at the catalogue's fallback
    #: the money scale its outcomes are shown in: the game's own (a value of another ruleset played in
    #: this one's game is shown in this game's money, the money its situation is played in)
    scale: int | None = None
    #: a one-value play: the parameters set to the value of the side it stands for (``label``), in the
    #: game of ``name`` (empty: the side's own game, only its open values supplied)
    one_value: tuple[str, ...] = ()

    @property
    def cfg(self) -> EngineConfig:
        cfg = _CFG.get(id(self.ruleset))
        if cfg is None or cfg[0] is not self.ruleset:
            cfg = _CFG[id(self.ruleset)] = (self.ruleset, EngineConfig.from_ruleset(self.ruleset))
        return cfg[1]


_CFG: dict[int, tuple[Any, EngineConfig]] = {}


@dataclass(frozen=True)
class Found:
    """The outcome of a search: ``status`` is ``differs`` (a witness), ``same`` (proved: no situation
    separates the sides) or ``unknown`` (with the reason)."""

    status: str
    method: str = "engine"          # smt | engine
    values: dict | None = None      # the probe's situation values (engine situations)
    situation: str = ""             # the situation in words
    plays: tuple[Played, ...] = ()  # per side, what the engine did
    outcomes: tuple[Any, ...] = ()
    reason: str | None = None
    tried: int = 0
    #: per side, why its game cannot hold the situation (None where it arises; its play is None)
    absent: tuple[str | None, ...] = ()
    #: the same situation played for other sides: a Found ("differs" or "same"), or None when it cannot be
    #: set up for them
    replay: Callable[[list["Party"]], "Found | None"] | None = field(default=None, compare=False, repr=False)


def outcome_key(value: Any) -> Any:
    """Outcomes compared by meaning (1 == 1.0)."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return Fraction(value).limit_denominator(10_000)
    return value


def broken_promise(p: Party, pl: Played) -> str | None:
    """The first invariant ``p``'s ruleset promises that the played situation breaks (a witness must be a
    game its ruleset allows: a situation no game of it can reach proves nothing), else None."""
    promised = tuple(p.ruleset.promised())
    if not promised:
        return None
    key = (id(p.cfg), promised)
    hit = _CHECKERS.get(key)
    if hit is None or hit[0] is not p.cfg:          # compiled once per config (its results depend on
        hit = _CHECKERS[key] = (p.cfg, InvariantChecker(p.cfg, promised))   # the states alone)
    check = hit[1]                                  # as `verify replay` checks each step
    before = None
    for state, step in zip(pl.states, ((None, ()),) + tuple(pl.steps)):
        bad = check(before, state, _action_for_check(step[0], list(step[1])))
        if bad:
            return str(bad[0])
        before = state
    return None


_CHECKERS: dict[tuple, tuple[EngineConfig, InvariantChecker]] = {}

__all__ = ["Party", "Found", "outcome_key", "broken_promise", "TIMEOUT_MS"]
