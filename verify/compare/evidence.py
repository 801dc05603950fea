"""Evidence at the point of difference: what each side rests on exactly where two rulings part.

A side's label (cited, assumed) is about its whole value. Two values differ at
some point — the existence of a square, the shape of a rent schedule, a minute —
and what decides a finding's kind is whether *that* is stated on each side. An
entry's ``claims`` (``verify.spec.claims``) list its statements coarsest first;
the first that tells the two values apart is the point, and its evidence is the
side's. Without claims (or where none tells them apart) the entry's label stands:
a cited entry (or a table's own ruling) states its value, an assumed one does not.

The kind of a pair of differing sides follows from the weaker of the two:
both stated is a ``contradiction``; an inference, an absence, a generic clause or
a borrowed number on either side is ``inferred``; an on-screen step read as a
rule (or a feature of one medium) is ``medium``; a value the ruleset assumes is
``assumed`` (``medium`` where the parameter is a feature of one medium).

A stated point that the ruleset itself reads two ways is not a stated
disagreement: where one of the entry's recorded ``readings`` gives the other
side's answer at the point (the words "proportional to" read strictly or
loosely; a sufficient condition read as the only one or not), the difference
rests on a reading (``reading``, kind ``inferred``) and the ambiguity is
reported apart, with its own witness.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..spec.claims import MEANING, Claim
from ..spec.ruleset import Ruleset

#: Finding kinds of a difference between base games, strongest first.
ORDER = ("contradiction", "inferred", "medium", "assumed")
#: The kind a side's evidence at the point of difference gives.
BY_EVIDENCE = {"stated": "contradiction", "inferred": "inferred", "absence": "inferred",
               "generic": "inferred", "borrowed": "inferred", "reading": "inferred", "medium": "medium",
               "assumed": "assumed"}
#: What a difference resting on an unstated side is, by the parameter's medium.
UNSTATED_KIND = {None: "assumed", "online": "medium", "board": "medium"}


@dataclass(frozen=True)
class Point:
    """What one side rests on where its value and another's part: an evidence and, when a claim decided
    it, that claim."""

    evidence: str                   # stated | inferred | absence | generic | medium | borrowed | reading | assumed
    claim: Claim | None = None
    reading: str | None = None      # ``reading``: the recorded reading that gives the other side's answer

    def kind(self, medium: str | None) -> str:
        if self.evidence == "assumed":
            return UNSTATED_KIND[medium]
        return BY_EVIDENCE[self.evidence]

    def to_json(self) -> dict:
        out: dict[str, Any] = {"evidence": self.evidence, "meaning": MEANING[self.evidence]}
        if self.claim is not None:
            out.update({k: v for k, v in self.claim.to_json().items() if k != "evidence"})
        if self.reading is not None:
            out["reading"] = self.reading
            out["says"] = f"{out.get('says', 'its value')} (its reading {self.reading!r} gives the other side's answer)"
        return out

    def reason(self, ruleset: str) -> str:
        what = self.claim.says if self.claim is not None else "its value"
        why = f" ({self.claim.why})" if self.claim is not None and self.claim.why else ""
        if self.reading is not None:
            why = f" (its reading {self.reading!r} gives the other side's answer)"
        return f"{ruleset}: {what} — {MEANING[self.evidence]}{why}"


def _in_scale(param, value: Any, scale: int, target: int) -> Any:
    if not param.is_money or scale == target:
        return value
    conv = lambda x: Fraction(x) * target / scale if isinstance(x, (int, float)) and not isinstance(x, bool) else x  # noqa: E731
    return [conv(x) for x in value] if isinstance(value, list) else conv(value)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def point(r: Ruleset, pid: str, other: Ruleset, stated_kinds: tuple[str, ...]) -> Point:
    """What ``r`` rests on where its value of ``pid`` and ``other``'s part (``stated_kinds``: the entry
    kinds that count as the side's own ruling: cited, and for a table its assumed values too)."""
    e = r.entries.get(pid)
    if e is None or not e.has_value:
        return Point("assumed")
    mine = r.value(pid)
    theirs = _in_scale(r.catalogue[pid], other.value(pid), other.money_scale, r.money_scale)
    found = next((Point(c.evidence, c) for c in e.claims if c.separates(mine, theirs)),
                 Point("stated" if e.kind in stated_kinds else "assumed"))
    if found.evidence == "stated":
        at = found.claim
        for rd in e.readings:
            if at is None and _equal(rd.value, theirs) or at is not None and not at.separates(rd.value, theirs):
                return Point("reading", at, rd.name)
    return found


def weaker(a: str, b: str) -> str:
    return a if ORDER.index(a) >= ORDER.index(b) else b


__all__ = ["Point", "point", "weaker", "ORDER", "UNSTATED_KIND"]
