"""Engine conformance: drive any engine step by step and check every step against the spec.

An engine under test speaks engine protocol 1, in-process (a Python class with
``hello``, ``load``, ``apply``, ``state``) or as a subprocess (JSON Lines over
stdin/stdout). The oracle is the compiled ruleset: the reference engine built
from the same config decides which actions are legal and what each one does,
and the ruleset's promised invariants must hold on every reported state.

Modules: ``protocol`` (the messages and the engine's profile), ``transport``
(in-process and subprocess), ``serve`` (a JSON Lines server around any
in-process engine), ``draw`` / ``states`` / ``scenarios`` (scenarios drawn from
a seed), ``situations`` (the rare circumstances a run offers whatever its
seed), ``oracle`` (one step judged), ``chain`` (an engine's own choices, played
link by link), ``cause`` / ``signature`` (which deviation a violation shows:
its cause), ``unstated`` (deviations resting on silent values), ``session``
(one engine, one ruleset), ``explore`` / ``shrink`` / ``harness`` (runs),
``baseline`` (accepted causes), ``scenario_file`` (replayable JSON),
``render`` (text, JUnit, HTML), ``trace_check`` (a whole-turn engine's game
log), ``plugin`` (pytest).
"""

from __future__ import annotations

from ..errors import VerifyError


class Illegal(Exception):
    """Raised by an in-process engine's ``apply`` to refuse an action; its state stays unchanged."""

    def __init__(self, reason: str):
        self.reason = str(reason)
        super().__init__(self.reason)


class Unsupported(Exception):
    """Raised by an in-process engine's ``load`` (or ``new_game``) for a state it cannot hold: the scenario
    is skipped and counted, not a fault (``{"ok": true, "unsupported": REASON}`` over the subprocess)."""

    def __init__(self, reason: str):
        self.reason = str(reason)
        super().__init__(self.reason)


class ConformInputError(VerifyError):
    """A malformed scenario file or engine spec (E026)."""

    def __init__(self, message: str, where=None):
        super().__init__("E026", message, where)


__all__ = ["Illegal", "Unsupported", "ConformInputError"]
