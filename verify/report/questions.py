"""The clarification questions as the report shows them: side by side, by reading, and as a sheet.

For each question (``specs/questions.yaml``) every ruleset's answer is
reduced to a short, plain answer and a key (money in classic amounts, so a
platform's 2000 and a board's 200 read alike); answers with the same key are
one *reading*. The questions page compares chosen rulesets cell by cell and
lists each question's readings with how many rulebooks take each and their
quotes (each quote once, however many rulesets inherit it). The rulings
sheet offers the same readings as choices and writes the chosen ones as an
overlay file the toolkit reads.
"""

from __future__ import annotations

from typing import Any

from ..compare.from_rulesets import _Ctx, primary_source
from ..compare.questions import answer, load_questions
from ..compare.values import key, show
from ..spec.catalogue import Parameter

DECIDED = ("cited", "assumed")


def label(param: str) -> str:
    """A parameter id as a few plain words: ``go.salary_on_pass`` -> ``salary on pass``."""
    return param.split(".", 1)[-1].replace("_", " ")


def _short(side, many: bool) -> str:
    if side.kind in DECIDED:
        text = show(side.normalized if side.normalized is not None else side.value)
    elif side.kind == "open":
        text = "set by the host"
    else:
        text = "silent"
    return f"{label(side.param)}: {text}" if many else text


def _key(sides) -> str:
    return "|".join(key(s.normalized) if s.kind in DECIDED else "~" + ("open" if s.kind == "open" else "silent")
                    for s in sides)


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


def question_rows(reg, rs, tables: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    ctx = _Ctx(reg)
    cat = reg.catalogue
    rows = []
    for q in load_questions():
        many = len(q.params) > 1
        cells, readings = [], {}
        for r in rs:
            a = answer(q, r, ctx)
            k = _key(a.sides)
            kinds = {s.kind for s in a.sides}
            cls = next((c for k_, c in (("silent", "k-silent"), ("undecided", "k-silent"), ("open", "k-open"),
                                        ("assumed", "k-assumed")) if k_ in kinds), "")
            cells.append({"ruleset": r.id, "key": k, "short": " · ".join(_short(s, many) for s in a.sides),
                          "cls": cls})
            rd = readings.setdefault(k, {"key": k, "short": cells[-1]["short"], "rulesets": [], "books": [],
                                         "tables": [], "evidence": [], "_seen": {},
                                         "decided": all(s.kind in DECIDED for s in a.sides),
                                         "values": [s.normalized if s.kind in DECIDED else None
                                                    for s in a.sides]})
            rd["rulesets"].append(r.id)
            if r.id in tables or not reg.is_bundled(r.chain[-1]):
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
        ordered = sorted(readings.values(), key=lambda x: (not x["decided"], -len(x["books"]), -len(x["rulesets"])))
        index = {rd["key"]: i for i, rd in enumerate(ordered)}
        for c in cells:
            c["reading"] = index[c["key"]]
        decided = {rd["key"] for rd in ordered if rd["decided"]}
        rows.append({"q": q, "cells": cells, "readings": ordered, "disputed": len(decided) > 1,
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
    """For each question, the reading (index into the row's readings) the table takes, where it is a
    decided one: the sheet starts from the table's own rulings."""
    out = {}
    for row in rows:
        cell = next((c for c in row["cells"] if c["ruleset"] == table), None)
        if cell is not None and row["readings"][cell["reading"]]["decided"]:
            out[row["q"].id] = cell["reading"]
    return out
