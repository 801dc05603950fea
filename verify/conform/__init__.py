"""Engine conformance: drive any engine step by step and check every step against the spec.

An engine under test speaks engine protocol 1, in-process (a Python class with
``hello``, ``load``, ``apply``, ``state``) or as a subprocess (JSON Lines over
stdin/stdout). The oracle is the compiled ruleset: the reference engine built
from the same config decides which actions are legal and what each one does,
and the ruleset's promised invariants must hold on every reported state.
"""

from __future__ import annotations


class Illegal(Exception):
    """Raised by an in-process engine's ``apply`` to refuse an action; its state stays unchanged."""

    def __init__(self, reason: str):
        self.reason = str(reason)
        super().__init__(self.reason)


__all__ = ["Illegal"]
