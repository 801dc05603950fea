"""Values passed from the comparison to its writers (JSON, terminal, HTML).

A ``Finding`` is one disagreement (or silence, or redundancy) about one
question, with a ``Side`` per ruling and, when the rulings differ in meaning,
a ``Witness``: a concrete situation and each side's outcome in numbers.
Everything here is frozen and JSON-ready so stages never share mutable state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

KINDS = ("contradiction", "variant", "internal", "silent", "redundancy")


@dataclass(frozen=True)
class Side:
    """One ruleset's ruling on the finding's question, with its evidence."""

    ruleset: str
    source: str | None          # rulebook file name the quote is from
    quote: str | None           # verbatim (the first quote when several)
    gloss: str | None
    value: Any
    kind: str = "cited"         # cited | assumed | silent | open | clause
    quotes: tuple[str, ...] = ()
    normalized: Any = None      # money in classic amounts (value / money.scale)
    scale: int = 1
    param: str | None = None
    language: str | None = None
    origin: str | None = None   # id of the ruleset file that set this entry

    def to_json(self) -> dict:
        return {"ruleset": self.ruleset, "source": self.source, "quote": self.quote,
                "gloss": self.gloss, "value": self.value, "kind": self.kind,
                "quotes": list(self.quotes), "normalized": self.normalized, "scale": self.scale,
                "param": self.param, "origin": self.origin}


@dataclass(frozen=True)
class Outcome:
    ruleset: str
    outcome: Any                # in the ruleset's own money scale
    classic: Any                # in classic amounts
    text: str


@dataclass(frozen=True)
class Witness:
    """A situation in which the sides' rulings give different outcomes (or a proof)."""

    family: str
    method: str                 # z3 | direct | proof
    question: str
    situation: dict = field(default_factory=dict)
    situation_text: str = ""
    outcomes: tuple[Outcome, ...] = ()
    unit: str = "money"         # money | bool | count | value
    verdict: str | None = None  # for proofs: PROVED
    detail: str | None = None

    def to_json(self) -> dict:
        out = {"family": self.family, "method": self.method, "question": self.question,
               "situation": dict(self.situation), "situation_text": self.situation_text,
               "unit": self.unit,
               "outcomes": [{"ruleset": o.ruleset, "outcome": o.outcome, "classic": o.classic,
                             "text": o.text} for o in self.outcomes]}
        if self.verdict:
            out["verdict"] = self.verdict
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(frozen=True)
class Finding:
    id: str
    topic: str                  # catalogue area id
    kind: str                   # one of KINDS
    summary: str
    sides: tuple[Side, ...]
    witness: Witness | None = None
    params: tuple[str, ...] = ()

    def to_json(self) -> dict:
        return {"id": self.id, "topic": self.topic, "kind": self.kind, "summary": self.summary,
                "params": list(self.params), "sides": [s.to_json() for s in self.sides],
                "witness": self.witness.to_json() if self.witness else None}


@dataclass(frozen=True)
class Comparison:
    rulesets: tuple[str, ...]
    findings: tuple[Finding, ...]
    base_games: tuple[str, ...] = ()
    equivalent: tuple[str, ...] = ()   # params whose values differ but never change an outcome

    def to_json(self) -> dict:
        return {"findings": [f.to_json() for f in self.findings]}

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in KINDS}
        for f in self.findings:
            out[f.kind] += 1
        return out
