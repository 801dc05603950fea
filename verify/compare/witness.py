"""Witnesses: z3 finds a small situation where two rulings give different outcomes.

The search asks z3 (``Optimize``) for an assignment of the family's situation
variables under which the sides' outcomes differ, preferring each variable's
readable default (a price of 200, three failed tries...) so that the witness
is as plain as the difference allows. Unsatisfiable means the rulings never
differ in play: the values differ in words only.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

import z3

from .model import Outcome, Witness
from .outcomes import Family
from .values import number, show

#: z3 budget per witness; a timeout gives no witness, never a made-up one.
TIMEOUT_MS = 3000


class Context:
    """One side of a witness: a ruleset id, its money scale and its normalised values."""

    def __init__(self, ruleset: str, scale: int, get: Callable[[str], Any]):
        self.ruleset, self.scale, self.get = ruleset, scale, get


def _py(val) -> Any:
    if z3.is_true(val):
        return True
    if z3.is_false(val):
        return False
    if z3.is_rational_value(val):
        return number(Fraction(val.numerator_as_long(), val.denominator_as_long()))
    if z3.is_int_value(val):
        return val.as_long()
    if z3.is_algebraic_value(val):
        return round(float(val.approx(6).as_fraction()), 4)
    return str(val)


def outcome_text(family: Family, value: Any, scale: int = 1) -> str:
    for special, text in family.special:
        if value == special:
            return text
    if family.unit == "bool":
        return "yes" if value else "no"
    if family.unit == "money" and isinstance(value, (int, float)):
        return show(number(Fraction(value) * scale) if scale != 1 else value)
    return show(value)


def situation_text(family: Family, situation: dict, scales: set[int]) -> str:
    parts = []
    for v in family.vars:
        if v.name not in situation:
            continue
        val = situation[v.name]
        if v.sort == "bool":
            parts.append(v.label if val else "not: " + v.label)
        else:
            parts.append(v.text(val))
    text = "; ".join(parts) or "whenever the question arises"
    if any(v.money for v in family.vars) and scales - {1}:
        text += " (amounts in classic money; × money.scale for the larger-scale source)"
    return text


def find(family: Family, sides: list[Context]) -> Witness | None:
    """A situation where the first side's outcome differs from another's, or None."""
    if len(sides) < 2:
        return None
    env = {v.name: v.make() for v in family.vars}
    try:
        outs = [family.outcome(c.get, env) for c in sides]
    except (TypeError, ValueError, KeyError, IndexError, z3.Z3Exception):
        return None                       # a value the family cannot read: no witness
    opt = z3.Optimize()
    opt.set(timeout=TIMEOUT_MS)
    for v in family.vars:
        for c in v.domain(env[v.name]):
            opt.add(c)
    diffs = [outs[i] != outs[j] for i in range(len(outs)) for j in range(i + 1, len(outs))]
    opt.add(z3.Or(diffs) if diffs else z3.BoolVal(False))
    for d in diffs:
        opt.add_soft(d, weight=20)
    distance = []
    for v in family.vars:
        if v.prefer is not None:
            opt.add_soft(env[v.name] == (z3.BoolVal(v.prefer) if v.sort == "bool" else v.prefer), weight=1)
            if v.sort != "bool":
                x = env[v.name]
                distance.append(z3.If(x >= v.prefer, x - v.prefer, v.prefer - x))
    if distance:
        opt.minimize(z3.Sum(distance))     # then stay as close as possible to the readable values
    if opt.check() != z3.sat:
        return None
    m = opt.model()
    situation = {v.name: _py(m.eval(env[v.name], model_completion=True)) for v in family.vars}
    outcomes = []
    for c, o in zip(sides, outs):
        classic = _py(m.eval(o, model_completion=True))
        own = classic
        if family.unit == "money" and isinstance(classic, (int, float)) and not isinstance(classic, bool) \
                and classic not in [s for s, _ in family.special]:
            own = number(Fraction(classic) * c.scale)
        outcomes.append(Outcome(c.ruleset, own, classic, outcome_text(family, classic, c.scale)))
    return Witness(family=family.id, method="z3", question=family.question, situation=situation,
                   situation_text=situation_text(family, situation, {c.scale for c in sides}),
                   outcomes=tuple(outcomes), unit=family.unit, assumed=_assumed(sides))


def _assumed(sides: list[Context]) -> tuple:
    """The open values the sides' outcomes read (logged by a getter as ``get.assumed``), once each."""
    seen: dict[str, tuple] = {}
    for c in sides:
        for item in getattr(c.get, "assumed", ()):
            seen.setdefault(repr(item[:2]), item)
    return tuple(seen.values())


def direct(question: str, sides: list[tuple[str, Any]], param: str) -> Witness:
    """For a parameter no outcome family models: the ruling itself is the outcome."""
    return Witness(family="direct:" + param, method="direct", question=question, situation={},
                   situation_text="whenever the question arises",
                   outcomes=tuple(Outcome(r, v, v, show(v)) for r, v in sides), unit="value")
