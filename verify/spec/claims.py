"""The statements a value rests on, each with its own evidence: where two rulebooks differ, is it stated?

An entry's label (cited, assumed...) says what its whole value rests on. A value
often rests on several statements of unequal weight: the official board *states*
that Community Chest squares exist but only *assumes* where they are; a handbook
*states* that the salary stops when the late-game tax begins but never gives that
minute. ``claims:`` lists those statements, coarsest first::

    board.chest_squares:
      value: [2, 17, 33]
      assumed: "the positions are the printed board's"
      claims:
        - says: the board has Community Chest squares
          settles: "len(value) > 0"
          quote: "Şans ve Kamu Fonu kareleri"
          gloss: "Chance and Community Chest squares"

Each claim ``says`` in English what it holds; ``settles`` (an expression over
``value``, in the language of ``verify.expr``; the whole value when left out)
is what of the value it decides; its evidence is ``stated`` (it has a
``quote`` and a ``gloss``: the words state it) or one of ``inferred`` (worked
out from the words), ``absence`` (a list or description that does not name the
thing, read as "no": a permissive list is not exhaustive unless the text says
"only"), ``generic`` (a general clause read as answering a specific question),
``medium`` (an on-screen step or feature of one medium read as a rule) or
``borrowed`` (a number taken from another rulebook: ``from`` names it), each
with ``why``; such a claim may quote the words it reads too.

The comparison decides the kind of a finding from these (``point``): between two
values, the first claim whose ``settles`` tells them apart is the point where
they differ, and its evidence is the side's; where no claim tells them apart,
the entry's own label stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import ExprError, SpecError, VerifyError
from ..expr import Undecided, evaluate, names, parse
from .quotes import MIN_WORDS, short_quotes

#: The evidence a claim may rest on; ``stated`` is the only one a contradiction rests on.
EVIDENCE = ("stated", "inferred", "absence", "generic", "medium", "borrowed")
#: What each evidence means, in the words a finding shows.
MEANING = {
    "stated": "stated by the rulebook",
    "inferred": "worked out from the words, not stated",
    "absence": "read from what the text does not name (a list that does not say 'only')",
    "generic": "a general clause read as answering this specific question",
    "medium": "a step or feature of the game's medium (an on-screen step), not a stated rule",
    "borrowed": "a number taken from another rulebook",
    "reading": "one of the readings the ruleset records of these words; another gives the other side's answer",
    "assumed": "not stated: a value the ruleset assumes",
}
_FIELDS = {"says", "settles", "quote", "gloss", "evidence", "why", "from", "source"}


@dataclass(frozen=True)
class Claim:
    """One statement an entry's value rests on: what it says, what of the value it settles, and why it
    is believed."""

    says: str
    evidence: str = "stated"
    settles: str | None = None            # an expression over ``value``; None: the whole value
    quotes: tuple[str, ...] = ()
    gloss: str | None = None
    why: str | None = None
    borrowed_from: str | None = None      # ``from``: the rulebook a borrowed number comes from
    source: str | None = None             # the rulebook the quotes are from
    expr: Any = field(default=None, compare=False, repr=False)

    @property
    def stated(self) -> bool:
        return self.evidence == "stated"

    def of(self, value: Any) -> Any:
        """What this claim settles of ``value`` (the value itself when it settles the whole)."""
        if self.expr is None:
            return value
        return evaluate(self.expr, {"value": value})

    def separates(self, a: Any, b: Any) -> bool:
        """Whether this claim tells the values ``a`` and ``b`` apart (an undecidable one does not)."""
        try:
            return _key(self.of(a)) != _key(self.of(b))
        except (Undecided, TypeError, ValueError, ZeroDivisionError, ExprError):
            return self.expr is None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"says": self.says, "evidence": self.evidence}
        for k, v in (("settles", self.settles), ("gloss", self.gloss), ("why", self.why),
                     ("from", self.borrowed_from), ("source", self.source)):
            if v:
                out[k] = v
        if self.quotes:
            out["quote"] = list(self.quotes)
        return out


def _key(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_key(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        return int(v)
    return v


def parse_claims(pid: str, raw: Any, kind: str, value: Any, default_source: str | None, loc,
                 check_quote) -> tuple[list[Claim], list[VerifyError]]:
    """The claims of one entry and every problem found in them (E037; E007 for a quote not in its source).

    ``check_quote(source, quote)`` says whether the quote occurs in the source (None: not checked)."""
    where = loc("rules", pid, "claims")
    if kind not in ("cited", "assumed"):
        return [], [SpecError("E037", f"{pid}: claims belong to an entry with a value (cited or assumed), "
                              f"not to a {kind} one", where)]
    if not isinstance(raw, list) or not raw:
        return [], [SpecError("E037", f"{pid}: 'claims' is a list of {{says, settles?, quote + gloss | "
                              "evidence + why}}", where)]
    out: list[Claim] = []
    errors: list[VerifyError] = []
    for i, item in enumerate(raw):
        at = loc("rules", pid, "claims", i)
        if not isinstance(item, dict):
            errors.append(SpecError("E037", f"{pid}: claim {i + 1} must be a mapping (says, settles?, "
                                    "quote + gloss, or evidence + why)", at))
            continue
        extra = sorted(set(map(str, item)) - _FIELDS)
        if extra:
            errors.append(SpecError("E037", f"{pid}: claim {i + 1}: unknown field(s) {extra}; allowed: "
                                    f"{sorted(_FIELDS)}", loc("rules", pid, "claims", i, extra[0])))
            continue
        says = item.get("says")
        if not isinstance(says, str) or not says.strip():
            errors.append(SpecError("E037", f"{pid}: claim {i + 1} needs 'says': what it holds, in English", at))
            continue
        q = item.get("quote")
        quotes = (q,) if isinstance(q, str) else tuple(q) if isinstance(q, list) else ()
        evidence = item.get("evidence", "stated" if quotes else None)
        if evidence not in EVIDENCE:
            errors.append(SpecError("E037", f"{pid}: claim {i + 1}: evidence {evidence!r} is not one of "
                                    f"{', '.join(EVIDENCE)}" + ("" if evidence else
                                                                " (a stated claim quotes its words)"),
                                    loc("rules", pid, "claims", i, "evidence")))
            continue
        why, gloss = item.get("why"), item.get("gloss")
        problems = []
        if q is not None and (not quotes or not all(isinstance(x, str) and x.strip() for x in quotes)):
            problems.append("quote must be a string or a list of strings")
        if quotes and (not isinstance(gloss, str) or not gloss.strip()):
            problems.append("a quote needs an English gloss")
        if quotes and all(isinstance(x, str) for x in quotes) and short_quotes(quotes):
            problems.append(f"a quote is at least {MIN_WORDS} words of the source (the clause that states it)")
        if evidence == "stated" and not quotes:
            problems.append("a stated claim quotes the words that state it")
        if evidence != "stated" and (not isinstance(why, str) or not why.strip()):
            problems.append(f"an {evidence} claim says why in 'why'" if evidence[0] in "aeiou"
                            else f"a {evidence} claim says why in 'why'")
        if item.get("from") is not None and evidence != "borrowed":
            problems.append("'from' names the rulebook a borrowed number comes from (evidence: borrowed)")
        if problems:
            errors.append(SpecError("E037", f"{pid}: claim {i + 1}: " + "; ".join(problems), at))
            continue
        settles, expr = item.get("settles"), None
        if settles is not None:
            try:
                expr = parse(str(settles), loc("rules", pid, "claims", i, "settles"))
                bad = {".".join(n) for n in names(expr)} - {"value"}
                if bad:
                    raise ExprError(f"'settles' reads only 'value', not {', '.join(sorted(bad))}",
                                    loc("rules", pid, "claims", i, "settles"))
                evaluate(expr, {"value": value})
            except (ExprError, Undecided, TypeError, ValueError, ZeroDivisionError) as exc:
                errors.append(SpecError("E037", f"{pid}: claim {i + 1}: 'settles' must be an expression over "
                                        f"value that the entry's value answers: {exc}",
                                        loc("rules", pid, "claims", i, "settles")))
                continue
        if evidence == "stated" and expr is None and kind == "assumed":
            errors.append(SpecError("E037", f"{pid}: claim {i + 1} states the whole value, so the entry is "
                                    "cited, not assumed: quote it as the entry's own quote, or say in "
                                    "'settles' which part of the value the words state", at))
            continue
        source = item.get("source", default_source)
        if quotes and check_quote is not None:
            if source is None:
                errors.append(SpecError("E010", f"{pid}: claim {i + 1}: a quote needs a source", at))
                continue
            missing = [x for x in quotes if not check_quote(source, x)]
            if missing:
                errors.append(SpecError("E007", f"{pid}: claim {i + 1}: quote does not occur in {source} "
                                        f"(after NFC and whitespace folding): {missing[0][:90]!r}",
                                        loc("rules", pid, "claims", i, "quote")))
                continue
        out.append(Claim(" ".join(says.split()), evidence, str(settles) if settles is not None else None,
                         quotes, " ".join(gloss.split()) if isinstance(gloss, str) else None,
                         " ".join(why.split()) if isinstance(why, str) else None,
                         item.get("from"), source if quotes else None, expr))
    return out, errors


__all__ = ["Claim", "EVIDENCE", "MEANING", "parse_claims"]
