"""Values passed from the comparison to its writers (JSON, terminal, HTML).

A ``Finding`` is one disagreement (or silence, or redundancy) about one
question, with a ``Side`` per ruling and, when the rulings differ in meaning,
a ``Witness``: a concrete situation and each side's outcome in numbers.
Everything here is frozen and JSON-ready so stages never share mutable state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: The JSON document of a comparison (``verify contradictions --json``, the report's contradictions.json):
#: /2 adds kind ``inferred``, each side's ``point``, a finding's ``reason`` and ``consequences``, a witness's
#: ``one_value`` and ``unstated``, an outcome's ``arises`` (/1 had no ``schema`` key).
SCHEMA = "verify.contradictions/2"
KINDS = ("contradiction", "internal", "inferred", "ambiguous", "assumed", "medium", "silent", "variant",
         "redundancy")
#: Kinds whose disagreement is between stated rules (every side that differs cites its source).
STATED = ("contradiction", "internal")
#: The evidence a side rests on.
EVIDENCE = ("cited", "assumed", "silent", "open", "not_applicable")


@dataclass(frozen=True)
class Side:
    """One ruleset's ruling on the finding's question, with its evidence."""

    ruleset: str
    source: str | None          # rulebook file name the quote is from
    quote: str | None           # verbatim (the first quote when several)
    gloss: str | None
    value: Any
    kind: str = "cited"         # cited | assumed | silent | open | clause | reading
    quotes: tuple[str, ...] = ()
    normalized: Any = None      # money in classic amounts (value / money.scale)
    scale: int = 1
    param: str | None = None
    language: str | None = None
    origin: str | None = None   # id of the ruleset file that set this entry
    reading: str | None = None  # kind "reading": the reading's name (play it as RULESET@NAME)
    #: what the side rests on: cited | assumed | silent | open | not_applicable (the catalogue's
    #: condition for the parameter does not hold in this ruleset: the value means nothing there)
    evidence: str = "cited"
    #: what the side rests on exactly where its value and another side's part (a finding between base
    #: games): {"evidence": stated | inferred | absence | generic | medium | borrowed | assumed, "meaning",
    #: and the claim that decided it: "says", "settles"?, "quote"?, "gloss"?, "why"?, "from"?}
    point: dict | None = None

    @property
    def stated(self) -> bool:
        return self.evidence == "cited"

    def to_json(self) -> dict:
        out = {"ruleset": self.ruleset, "source": self.source, "quote": self.quote,
               "gloss": self.gloss, "value": self.value, "kind": self.kind, "evidence": self.evidence,
               "quotes": list(self.quotes), "normalized": self.normalized, "scale": self.scale,
               "param": self.param, "origin": self.origin}
        if self.reading:
            out["reading"] = self.reading
        if self.point:
            out["point"] = dict(self.point)
        return out


@dataclass(frozen=True)
class Outcome:
    ruleset: str
    outcome: Any                # in the ruleset's own money scale
    classic: Any                # in classic amounts
    text: str
    #: False where the side's own game cannot hold the situation (a card it does not have): ``text`` says
    #: "does not arise in this game", ``why`` why not
    arises: bool = True
    why: str | None = None

    def to_json(self) -> dict:
        out = {"ruleset": self.ruleset, "outcome": self.outcome, "classic": self.classic, "text": self.text}
        if not self.arises:
            out.update(arises=False, why=self.why)
        return out


@dataclass(frozen=True)
class OneValue:
    """The witness's situation played in one game (``game``) with only ``params`` set to each side's value:
    shown where the sides' own games differ in more than those values in what the situation reads (their
    money, board or other rules change an outcome), or where a side's own game cannot hold the situation.
    Labelled as exactly that; never in place of the sides' own games."""

    game: str
    params: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    why: str
    script: tuple[dict, ...] = ()

    def to_json(self) -> dict:
        return {"game": self.game, "params": list(self.params), "why": self.why,
                "outcomes": [o.to_json() for o in self.outcomes], "script": [dict(s) for s in self.script]}


@dataclass(frozen=True)
class Witness:
    """A situation in which the sides' rulings give different outcomes (or a proof, or why neither).

    ``method``: ``smt`` (the SMT layer found the situation), ``engine`` (one of the probe's own
    situations), ``direct`` (no probe plays the parameter: the rulings themselves, no claim about
    play) or ``proof`` (a redundancy proved by z3). ``verdict``: ``DIFFERS`` (the engine plays the
    sides differently: ``outcomes``), ``PROVED`` (a proof) or ``UNKNOWN`` (``detail`` says why).
    """

    family: str
    method: str
    question: str
    situation: dict = field(default_factory=dict)
    situation_text: str = ""
    outcomes: tuple[Outcome, ...] = ()
    unit: str = "money"         # money | bool | count | value
    verdict: str | None = None
    detail: str | None = None
    #: open values (set by a host or the players, none supplied) the outcomes were computed with:
    #: (ruleset, parameter, the catalogue's fallback that stood in for it)
    assumed: tuple[tuple[str, str, Any], ...] = ()
    #: per side, what was played: {"ruleset", "set"?, "actions", "refused"?}
    script: tuple[dict, ...] = ()
    #: per side, the game as ``verify.trace/2`` lines (header, steps, end): the replayable witness (a
    #: one-value play's games follow the sides' own, their header marked ``one_value``)
    games: tuple[list, ...] = field(default=(), compare=False, repr=False)
    #: the same situation with only the finding's values changed, in one game (see ``OneValue``)
    one_value: OneValue | None = None
    #: per side, each parameter the situation's actions read whose evidence there is not a quote:
    #: {"ruleset", "param", "evidence": assumed | silent | supplied | borrowed | inferred | absence |
    #: generic | medium, "value"}
    unstated: tuple[dict, ...] = ()

    @property
    def plays(self) -> bool:
        """Whether the outcomes are what the engine played (not the rulings themselves or a proof)."""
        return self.method in ("smt", "engine") and self.verdict == "DIFFERS"

    def to_json(self) -> dict:
        out = {"family": self.family, "method": self.method, "question": self.question,
               "situation": dict(self.situation), "situation_text": self.situation_text,
               "unit": self.unit,
               "outcomes": [o.to_json() for o in self.outcomes]}
        if self.verdict:
            out["verdict"] = self.verdict
        if self.detail:
            out["detail"] = self.detail
        if self.assumed:
            out["assumed"] = [{"ruleset": r, "param": p, "value": v} for r, p, v in self.assumed]
        if self.script:
            out["script"] = [dict(s) for s in self.script]
        if self.one_value is not None:
            out["one_value"] = self.one_value.to_json()
        if self.unstated:
            out["unstated"] = [dict(u) for u in self.unstated]
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
    #: what the other rulebooks say on the same question (for ``ambiguous``: one side per other source)
    related: tuple[Side, ...] = ()
    #: why a difference between base games is not a contradiction: what its weaker sides rest on there
    reason: str | None = None
    #: the other findings one disagreement also decides (``verify.compare.merge``): each with its own sides
    #: and witness; this finding keeps the id of the first
    consequences: tuple["Finding", ...] = ()

    def to_json(self) -> dict:
        out = {"id": self.id, "topic": self.topic, "kind": self.kind, "summary": self.summary,
               "params": list(self.params), "sides": [s.to_json() for s in self.sides],
               "witness": self.witness.to_json() if self.witness else None}
        if self.related:
            out["related"] = [s.to_json() for s in self.related]
        if self.reason:
            out["reason"] = self.reason
        if self.consequences:
            out["consequences"] = [c.to_json() for c in self.consequences]
        return out


@dataclass(frozen=True)
class Comparison:
    rulesets: tuple[str, ...]
    findings: tuple[Finding, ...]
    base_games: tuple[str, ...] = ()
    equivalent: tuple[str, ...] = ()   # params whose values differ but never change an outcome

    def to_json(self) -> dict:
        return document(self.findings)

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in KINDS}
        for f in self.findings:
            out[f.kind] += 1
        return out

    def counts_of(self, tables) -> dict[str, int]:
        """Per kind, the findings about one of a user's ``tables`` (``kind:TABLE:param``: its changes, and its
        rulings against the rulebooks'), which ``counts`` includes."""
        mine = set(tables)
        out = {k: 0 for k in KINDS}
        for f in self.findings:
            parts = f.id.split(":")
            if len(parts) > 2 and parts[1] in mine:
                out[f.kind] += 1
        return out


def primary_source(r) -> str | None:
    """The rulebook a ruleset is read from: the first source quoted along its chain (a variant's base's)."""
    return r.sources[0] if r.sources else None


def document(findings) -> dict:
    """The findings as the ``verify.contradictions/2`` JSON document."""
    return {"schema": SCHEMA, "findings": [f.to_json() for f in findings]}
