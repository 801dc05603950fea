"""What the report says about the findings: the ones that matter most, one page per topic, a search.

Findings that *matter most* are the disagreements between stated rules of
rulebooks (or a table and the rulebooks) whose witness, played by the
reference engine, shows outcomes that differ in money or in who may act:
those decide games and disputes. The index leads with them, one line each;
a difference that rests on an assumed, silent or not-applicable side, or on
the medium (board or online), is one click away, on the findings index. Every
finding is shown in full on the page of its topic (catalogue area), at an
anchor of its own; the findings index lists them all, one line each, with a
search that runs in the page.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..compare.model import Comparison, Finding
from ..compare.values import show
from . import charts
from .site import anchor, finding_href, topic_file

#: Kinds of finding that set stated rules of rulebooks (or a table and the rulebooks) against each other.
#: A new kind of finding between stated rules is one more name here; any other kind (an assumption, a
#: silence, the medium, an inference) never makes a dispute.
STATED_KINDS = ("contradiction", "internal")


def stated_disagreement(f: Finding) -> bool:
    """Whether ``f`` is a disagreement between stated rules: what the index lists as a dispute and what
    makes a clarification question disputed (``questions.disputes``). A user's table rules in its own
    words, not a rulebook's (its sides name no source): its differences with the rulebooks are its own
    choices, shown with the table, never a dispute between rulebooks."""
    return f.kind in STATED_KINDS and all(s.source for s in f.sides if s.evidence in ("cited", "assumed"))


#: Kinds of difference that do not rest on two stated rules (shown apart from the disputes).
APART = ("inferred", "assumed", "medium")


def side_rulesets(f: Finding) -> list[str]:
    return list(dict.fromkeys(s.ruleset.split(" (")[0] for s in f.sides))


def line(f: Finding, cat) -> dict[str, Any]:
    """One finding as one line of the findings index (with what the search looks at)."""
    words = [f.summary, f.id, f.kind, *f.params, *side_rulesets(f)]
    if f.witness is not None:
        words.append(f.witness.question)
    return {"id": f.id, "kind": f.kind, "summary": f.summary, "href": finding_href(f), "topic": f.topic,
            "rulesets": side_rulesets(f), "text": " ".join(words).lower()}


def topics(reg, comparison: Comparison) -> list[dict[str, Any]]:
    """The findings grouped by topic, in catalogue order, each group written to a page of its own."""
    titles = {a.id: a.title for a in reg.catalogue.areas}
    groups: dict[str, list] = {}
    for f in comparison.findings:
        groups.setdefault(f.topic, []).append({"f": f, "anchor": anchor(f.id),
                                               "picture": charts.witness_picture(f.witness),
                                               "consequences": [{"f": c, "anchor": anchor(c.id)}
                                                                for c in f.consequences]})
    return [{"id": t, "title": titles.get(t, t), "file": topic_file(t), "items": items,
             "kinds": {k: sum(1 for it in items if it["f"].kind == k) for k in {it["f"].kind for it in items}}}
            for t, items in groups.items()]


def _spread(f: Finding) -> float:
    vals = [Fraction(o.classic) for o in f.witness.outcomes
            if isinstance(o.classic, (int, float)) and not isinstance(o.classic, bool)]
    if len(vals) < 2:
        return 0.0
    hi, lo = max(vals), min(vals)
    return float((hi - lo) / max(abs(hi), abs(lo), 1))


def matters(f: Finding) -> str | None:
    """'money' or 'who may act' when the finding's witness shows outcomes differing in that; else None."""
    w = f.witness
    if not stated_disagreement(f) or w is None or not w.plays or len(w.outcomes) < 2:
        return None
    if w.unit == "money" and len({str(o.classic) for o in w.outcomes}) > 1:
        return "money"
    if w.unit == "bool" and len({o.classic for o in w.outcomes}) > 1:
        return "who may act"
    return None


def apart(findings) -> dict[str, int]:
    """How many differences rest on an unstated side or on the medium, by kind (the index links them)."""
    return {k: sum(1 for f in findings if f.kind == k) for k in APART}


def outcome_text(o) -> str:
    own = o.text
    if isinstance(o.classic, (int, float)) and not isinstance(o.classic, bool) and o.outcome != o.classic:
        own += f" (= {show(o.classic)} classic)"
    return own


def short_situation(text: str) -> str:
    """The parts of a witness situation a one-line summary needs: what holds (a "not: ..." part
    only says a condition is off), without the note on money scales."""
    text = (text or "").split(" (amounts in classic money")[0]
    if text == "whenever the question arises":
        return ""
    return "; ".join(p.strip() for p in text.split(";") if p.strip() and not p.strip().startswith("not: "))


def matters_most(findings, cat, first: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The disputes whose witnesses differ in money (largest relative difference first) or in who may
    act, one line each; findings involving a ruleset in ``first`` (the user's tables) lead."""
    out = []
    for f in findings:
        why = matters(f)
        if why is None:
            continue
        pid = f.params[0] if f.params else None
        question = cat[pid].question if pid in cat else f.witness.question
        situation = short_situation(f.witness.situation_text)
        out.append({"href": finding_href(f), "id": f.id, "kind": f.kind, "why": why, "question": question,
                    "outcomes": [(o.ruleset, outcome_text(o)) for o in f.witness.outcomes],
                    "situation": situation,
                    "table": any(r in first for r in side_rulesets(f)),
                    "rank": (not any(r in first for r in side_rulesets(f)), why != "money", -_spread(f))})
    out.sort(key=lambda x: x["rank"])
    return out
