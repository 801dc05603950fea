"""The clarification questions as the report shows them: side by side, by reading, and as a sheet.

For each question (``specs/questions.yaml``) every ruleset's answer is
reduced to a short, plain answer and a key (money in classic amounts, so a
platform's 2000 and a board's 200 read alike); answers with the same key are
one *reading*. A sub-answer is shown for what it is: a value (stated or
assumed), silent, set by the host, or not applicable (the game has no such
mechanism) — never one dressed as another.

Whether a question is *disputed* is not decided here: it is disputed exactly
when a finding between stated rules touches one of its parameters
(``findings.stated_disagreement``), so the questions page, the rulings sheet
and the findings never disagree. A question a bundled house rule changes is
marked as such too; both are what a table must decide.

The rulings sheet offers every reading a bundled ruleset (a rulebook's game,
a mode, a house rule) or one of the user's tables takes that decides at least
one thing, each marked where a ruleset only assumes it, and writes the chosen
ones as an overlay file the toolkit reads: the values stated or assumed, an
``open`` entry where the reading leaves the value to the table, nothing where
it is silent or not applicable.
"""

from __future__ import annotations

from typing import Any, Iterable

from ..compare.from_rulesets import _Ctx
from ..compare.model import primary_source
from ..compare.questions import Question, answer, load_questions
from ..compare.values import key, show
from ..spec.catalogue import Parameter
from .findings import stated_disagreement
from .site import finding_href

DECIDED = ("cited", "assumed")
#: How a sub-answer that carries no value reads (the questions table's legend uses the same words).
NO_VALUE = {"open": "set by the host", "not_applicable": "not applicable", "silent": "silent",
            "undecided": "undecided"}


def label(param: str) -> str:
    """A parameter id as a few plain words: ``go.salary_on_pass`` -> ``salary on pass``."""
    return param.split(".", 1)[-1].replace("_", " ")


def _status(side) -> str:
    """What a sub-answer rests on: cited | assumed | open | not_applicable | silent."""
    if side.kind == "not_applicable" or side.evidence == "not_applicable":
        return "not_applicable"
    if side.kind in DECIDED or side.kind == "open":
        return side.kind
    return "silent"


def _text(side) -> str:
    st = _status(side)
    return show(side.normalized if side.normalized is not None else side.value) if st in DECIDED else NO_VALUE[st]


def _short(sides) -> str:
    many = len(sides) > 1
    return " · ".join(f"{label(s.param)}: {_text(s)}" if many else _text(s) for s in sides)


def _key(sides) -> str:
    return "|".join(key(s.normalized) if _status(s) in DECIDED else "~" + _status(s) for s in sides)


def _input(p: Parameter) -> dict[str, Any]:
    """How the rulings sheet asks for a value of ``p`` of one's own."""
    if p.type == "bool":
        return {"kind": "choice", "choices": [["true", "yes"], ["false", "no"]]}
    if p.type == "enum":
        return {"kind": "choice", "choices": [[v, v.replace("_", " ")] for v in p.values]}
    if p.type.endswith("_list"):
        return {"kind": "list", "hint": "numbers separated by commas" + (f", {p.length} of them" if p.length else "")}
    out = {"kind": "number", "step": "any" if p.type.startswith("ratio") else "1",
           "hint": p.domain_text() + (" (classic money)" if p.is_money else "")}
    if p.symbols:
        out.update(kind="number_or", choices=[[s, s.replace("_", " ")] for s in p.symbols])
    return out


def touched(f) -> set[str]:
    """The parameters a finding is about: its own, and those of the findings one disagreement also decides
    (its ``consequences``, where the comparison merged them into it)."""
    return set(f.params).union(*(set(c.params) for c in getattr(f, "consequences", ())))


def disputes(q: Question, findings: Iterable) -> list:
    """The findings between stated rules that touch one of ``q``'s parameters: ``q`` is disputed exactly
    when there is one."""
    params = set(q.params)
    return [f for f in findings if stated_disagreement(f) and params & touched(f)]


def house_rules(reg, rs) -> dict[str, tuple[str, set[str]]]:
    """Each bundled house rule (an overlay shipped with the toolkit, stacked on a ruleset) in ``rs``, by
    ruleset id: the overlay's id and the parameters its own file sets."""
    out = {}
    for r in rs:
        top = r.chain[-1]
        f = reg.files.get(top)
        if "+" in r.id and f is not None and f.kind == "overlay" and reg.is_bundled(top):
            out[r.id] = (top, set(f.entries))
    return out


def question_rows(reg, rs, tables: tuple[str, ...] = (), findings: Iterable = ()) -> list[dict[str, Any]]:
    ctx = _Ctx(reg)
    cat = reg.catalogue
    findings = list(findings)
    houses = house_rules(reg, rs)
    rows = []
    for q in load_questions():
        cells, readings = [], {}
        for r in rs:
            a = answer(q, r, ctx)
            k = _key(a.sides)
            status = [_status(s) for s in a.sides]
            cls = next((c for st, c in (("silent", "k-silent"), ("not_applicable", "k-na"), ("open", "k-open"),
                                        ("assumed", "k-assumed")) if st in status), "")
            cells.append({"ruleset": r.id, "key": k, "short": _short(a.sides), "cls": cls})
            table = r.id in tables or not reg.is_bundled(r.chain[-1])
            rd = readings.setdefault(k, {
                "key": k, "short": cells[-1]["short"], "rulesets": [], "books": [], "tables": [], "who": [],
                "evidence": [], "_seen": {},
                "parts": [{"param": s.param, "label": label(s.param), "text": _text(s), "status": st}
                          for s, st in zip(a.sides, status)],
                # what the sheet writes: a value where one is stated or assumed, an open entry where the
                # reading leaves it to the table, nothing where it is silent or not applicable
                "offered": any(st in DECIDED for st in status),
                "values": [s.normalized if st in DECIDED else None for s, st in zip(a.sides, status)],
                "open": [st == "open" for st in status]})
            rd["rulesets"].append(r.id)
            rd["who"].append({"id": r.id, "table": table, "house": r.id in houses, "overlay": r.chain[-1],
                              # the ruleset's own file rules on it (not only a file it builds on)
                              "own": table or any(s.origin == r.chain[-1] for s in a.sides),
                              "assumed": "assumed" in status and "cited" not in status,
                              "partly_assumed": "assumed" in status and "cited" in status})
            if table:
                rd["tables"].append(r.id)
            else:
                book = primary_source(r)
                if book and book not in rd["books"]:
                    rd["books"].append(book)
            for s in a.sides:       # each piece of evidence once, with every file that gives it
                ev = rd["_seen"].setdefault((s.param, s.kind, s.quotes, s.gloss), {"side": s, "origins": []})
                if not ev["origins"]:
                    rd["evidence"].append(ev)
                origin = s.origin or r.id
                if origin not in ev["origins"]:
                    ev["origins"].append(origin)
        for rd in readings.values():
            del rd["_seen"]
        ordered = sorted(readings.values(), key=lambda x: (not x["offered"], -len(x["books"]), -len(x["rulesets"])))
        index = {rd["key"]: i for i, rd in enumerate(ordered)}
        for c in cells:
            c["reading"] = index[c["key"]]
        found = disputes(q, findings)
        house = list(dict.fromkeys(top for top, params in houses.values() if params & set(q.params)))
        rows.append({"q": q, "cells": cells, "readings": ordered, "disputed": bool(found),
                     "disputes": [{"id": f.id, "href": finding_href(f), "kind": f.kind} for f in found],
                     "house": house, "to_decide": bool(found or house),
                     "params": [{"id": p, "label": label(p), "question": cat[p].question,
                                 "type": cat[p].type, "money": cat[p].is_money, "input": _input(cat[p])}
                                for p in q.params]})
    return rows


def sheet_bases(reg, rs, tables: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """What a group can base its rulings on (the sheet's first choice): the user's tables that are files
    first (the sheet then writes an overlay on the table, extending it by its file name), then the
    complete rulesets. ``extends`` is what the saved file writes; ``table`` marks a user's table."""
    out = []
    for t in tables:
        f = reg.files.get(t)
        if f is not None and "+" not in t and not reg.is_bundled(t):
            out.append({"id": t, "title": f.title, "extends": f.path.name, "table": True})
    seen = {b["id"] for b in out}
    return out + [{"id": r.id, "title": r.title, "extends": r.id, "table": False}
                  for r in rs if "+" not in r.id and not r.is_overlay and r.id not in seen]


def table_presets(rows: list[dict[str, Any]], table: str) -> dict[str, int]:
    """For each question, the reading (index into the row's readings) the table takes, where the sheet
    offers it: the sheet starts from the table's own rulings."""
    out = {}
    for row in rows:
        cell = next((c for c in row["cells"] if c["ruleset"] == table), None)
        if cell is not None and row["readings"][cell["reading"]]["offered"]:
            out[row["q"].id] = cell["reading"]
    return out
