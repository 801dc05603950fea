"""Why the rules refuse an action: each refusal declared once, with what it rests on.

A guard (``why_not_<action>`` in ``verify.engine.rules``) returns ``None`` when the
action is legal, else a ``Reason``: the refusal's words (a ``str``, so it reads and
compares as text) that also knows its **basis**. Either the refusal is structural,
true in every rulebook (the game waits for another decision, it is another
player's turn, the seat does not hold what it gives, the action's own values make
no sense), or it is a rule, and then it names the catalogue parameters
(``specs/catalogue``) it rests on. The conformance oracle uses ``params`` to tell a
deviation that rests on what a rulebook says from one that rests only on an
assumed or silent value.

    WHOLE_GROUP = refusal("the whole colour group is needed", "building.requires_full_group")
    NOT_YOURS = structural("not the owner", "ownership")
    AT_MOST = refusal("at most {n} houses", "building.max_houses")
    return AT_MOST.format(n=4)      # a Reason too, with the same basis

Every ``Reason`` made here is listed in ``REASONS`` (a test checks each structural one
has a known basis and each rule names parameters of the catalogue).
"""

from __future__ import annotations

from ..errors import GameError

#: The structural bases: a refusal every rulebook shares.
STRUCTURAL = {
    "phase": "the game waits for another decision, or the seat is not in the situation the action needs",
    "turn": "it is another player's move",
    "ownership": "the seat does not hold the deed, card or cash the action needs",
    "fields": "the action's own values do not make sense here",
}


class Reason(str):
    """A refusal's text, its template, and what it rests on (``basis``: a structural kind or ``rule``)."""

    template: str
    basis: str
    params: tuple[str, ...]

    def __new__(cls, text: str, template: str, basis: str, params: tuple[str, ...]) -> "Reason":
        self = super().__new__(cls, text)
        self.template, self.basis, self.params = template, basis, params
        return self

    def format(self, *args, **kwargs) -> "Reason":    # type: ignore[override]
        return Reason(self.template.format(*args, **kwargs), self.template, self.basis, self.params)

    def resting_on(self, *params: str) -> "Reason":
        """The same refusal resting on these parameters (one guard shared by several rules)."""
        return Reason(str(self), self.template, "rule", params)

    @property
    def structural(self) -> bool:
        return self.basis != "rule"

    def to_json(self) -> dict:
        return {"reason": str(self), "basis": self.basis, "params": list(self.params)}

    def __reduce__(self):
        return (Reason, (str(self), self.template, self.basis, self.params))


#: every refusal template, in the order declared
REASONS: list[Reason] = []


def refusal(template: str, *params: str) -> Reason:
    """A refusal resting on the rule these catalogue parameters state."""
    r = Reason(template, template, "rule", tuple(params))
    REASONS.append(r)
    return r


def structural(template: str, basis: str) -> Reason:
    """A refusal true in every rulebook (``basis``: one of ``STRUCTURAL``)."""
    r = Reason(template, template, basis, ())
    REASONS.append(r)
    return r


class IllegalAction(GameError):
    """The rules refuse this action in this state (not malformed input: a rule says no).

    ``reason`` is the guard's ``Reason`` (what the refusal rests on)."""

    def __init__(self, message: str, reason=None):
        super().__init__(message)
        self.reason = reason


__all__ = ["IllegalAction", "Reason", "REASONS", "STRUCTURAL", "refusal", "structural"]
