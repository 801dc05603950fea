"""``verify report``: the HTML report, rendered from the comparison, the questions, check and simulate.

Reads (never recomputes differently) what the other stages produce: the
resolved rulesets, the classified findings with their witnesses, each
ruleset's answer to every clarification question, the ``verify check``
matrix and ``verify simulate`` summaries. Pages are rendered with jinja2
(autoescape on; templates ship inside the package) into a temporary folder
that replaces the target only when everything succeeded.
"""

from __future__ import annotations

import datetime as _dt
import json
import re
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import jinja2

from ..compare.from_rulesets import _Ctx, compare, load_registry, ordered, plan
from ..compare.declared import load_declared
from ..compare.model import KINDS, Comparison
from ..compare.questions import answer, load_questions
from ..compare.values import key, show
from ..spec.sources import LANGUAGES
from . import charts
from .ambiguities import ambiguity_rows
from .atomic import atomic_dir
from .runs import CheckRun, Simulation, load_check_json, run_check, run_simulation

PAGES = ("index.html", "contradictions.html", "questions.html", "matrix.html", "simulation.html")
KIND_TEXT = {
    "contradiction": "Sources presenting the same game disagree.",
    "variant": "A declared mode or house rule differs from its base on purpose.",
    "internal": "One rulebook disagrees with itself.",
    "silent": "One side leaves the question open while others answer it.",
    "redundancy": "A clause implied by other rulings (proved by z3).",
    "ambiguous": "The words of one rulebook allow several readings; each is played and witnessed.",
}


@dataclass(frozen=True)
class ReportOptions:
    out: Path
    games: int = 30
    seed: int = 1
    run_check: bool = True
    run_simulation: bool = True
    check_json: Path | None = None      # a saved `verify check --json` instead of running it


def slug(rid: str) -> str:
    return "ruleset-" + re.sub(r"[^A-Za-z0-9_.-]", "--", rid) + ".html"


def anchor(fid: str) -> str:
    return "f-" + re.sub(r"[^A-Za-z0-9_-]", "-", fid)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.PackageLoader("verify.report", "templates"),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["show"] = show
    env.filters["slug"] = slug
    env.filters["anchor"] = anchor
    return env


def _players(r) -> int:
    lo, hi = r.value("setup.players_min"), r.value("setup.players_max")
    lo = lo if isinstance(lo, int) else 2
    hi = hi if isinstance(hi, int) else 8
    return min(max(4, lo), hi)


def ruleset_pages(reg, rs, comparison: Comparison, anchors: dict[str, str]) -> list[dict]:
    ctx = _Ctx(reg)
    cat = reg.catalogue
    titles = {a.id: a.title for a in cat.areas}
    involved: dict[str, list] = defaultdict(list)
    for f in comparison.findings:
        for rid in {s.ruleset.split(" (")[0] for s in f.sides}:
            involved[rid].append(f)
    pages = []
    page_ids = {r.id for r in rs}
    for r in rs:
        areas = []
        for area, params in cat.by_area().items():
            rows = []
            for p in params:
                s = ctx.side(r, p.id)
                rows.append({"pid": p.id, "question": p.question, "side": s,
                             "origin_link": slug(s.origin) if s.origin in page_ids else None,
                             "inherited": bool(s.origin and s.origin != r.chain[-1]),
                             "scaled": s.kind in ("cited", "assumed") and s.scale != 1 and p.is_money})
            areas.append({"id": area, "title": titles.get(area, area), "rows": rows})
        kinds = Counter(s["side"].kind for a in areas for s in a["rows"])
        pages.append({"id": r.id, "slug": slug(r.id), "title": r.title, "chain": list(r.chain),
                      "sources": list(r.sources), "promises": r.promised(), "scale": r.money_scale,
                      "areas": areas, "kinds": dict(kinds), "anchor": anchors.get(r.id),
                      "findings": [{"id": f.id, "anchor": anchor(f.id), "kind": f.kind, "summary": f.summary}
                                   for f in involved.get(r.id, [])]})
    return pages


def topic_groups(reg, comparison: Comparison) -> list[dict]:
    titles = {a.id: a.title for a in reg.catalogue.areas}
    groups: dict[str, list] = {}
    for f in comparison.findings:
        groups.setdefault(f.topic, []).append({"f": f, "anchor": anchor(f.id),
                                               "picture": charts.witness_picture(f.witness)})
    return [{"id": t, "title": titles.get(t, t), "items": items} for t, items in groups.items()]


def question_rows(reg, rs) -> list[dict]:
    ctx = _Ctx(reg)
    rows = []
    for q in load_questions():
        answers = [answer(q, r, ctx) for r in rs]
        decided = {tuple(key(s.normalized) for s in a.sides) for a in answers
                   if all(s.kind in ("cited", "assumed") for s in a.sides)}
        rows.append({"q": q, "answers": [{"a": a, "slug": slug(a.ruleset)} for a in answers],
                     "disputed": len(decided) > 1,
                     "silent": any(s.kind in ("silent", "undecided") for a in answers for s in a.sides)})
    return rows


def column_of(invariant: str) -> str:
    """Matrix column: each invariant, plus one column each for constraints, vacuity and bounded runs."""
    if invariant.startswith("constraint:"):
        return "parameter constraints"
    if invariant.startswith("bounded:"):
        return "bounded runs"
    if invariant == "(enabled)":
        return "rules can fire (vacuity)"
    return invariant


def check_matrix(check: CheckRun, ids: list[str]) -> dict[str, Any]:
    if check.status != "ran":
        return {"status": check.status, "reason": check.reason}
    columns = list(dict.fromkeys(column_of(str(r.get("invariant"))) for r in check.results))
    grouped = ("parameter constraints", "rules can fire (vacuity)", "bounded runs")
    special = [c for c in columns if c in grouped]
    columns = sorted(c for c in columns if c not in special) + special
    rulesets = [i for i in ids if any(r.get("ruleset") == i for r in check.results)]
    rulesets += sorted({str(r.get("ruleset")) for r in check.results} - set(rulesets))
    cells: dict[tuple[str, str], Counter] = defaultdict(Counter)
    problems = []
    for r in check.results:
        v = str(r.get("verdict"))
        promised = bool(r.get("promised"))
        label = v if v == "PROVED" or promised else f"{v} (not promised)"
        cells[(str(r.get("ruleset")), column_of(str(r.get("invariant"))))][label] += 1
        if v != "PROVED":
            problems.append(r)
    table = []
    for rid in rulesets:
        row = []
        for col in columns:
            c = cells.get((rid, col))
            if not c:
                row.append({"state": "none", "text": "—"})
                continue
            state = ("VIOLATED" if c["VIOLATED"] else "UNKNOWN" if c["UNKNOWN"] else
                     "UNPROMISED" if any(k.endswith("(not promised)") for k in c) else "PROVED")
            text = ", ".join(f"{n} {v}" for v, n in sorted(c.items()))
            mark = {"PROVED": "✓", "VIOLATED": "✗", "UNKNOWN": "?"}
            short = " ".join(f"{n}{mark.get(v, '·')}" for v, n in sorted(c.items()))
            row.append({"state": state, "text": text, "short": short})
        table.append({"ruleset": rid, "slug": slug(rid) if rid in ids else None, "cells": row})
    totals = Counter(str(r.get("verdict")) + ("" if r.get("promised") or r.get("verdict") == "PROVED"
                                              else " (not promised)") for r in check.results)
    problems.sort(key=lambda r: (not r.get("promised"), str(r.get("verdict")) != "VIOLATED",
                                 str(r.get("ruleset")), str(r.get("invariant"))))
    open_values: dict[str, dict[str, None]] = defaultdict(dict)   # ruleset -> how its open values were checked
    for r in check.results:
        for text in r.get("open_values") or ():
            open_values[str(r.get("ruleset"))][str(text)] = None
    return {"status": "ran", "invariants": columns, "table": table, "totals": dict(totals),
            "problems": problems[:300], "more": max(0, len(problems) - 300), "elapsed": check.elapsed_s,
            "count": len(check.results), "source": check.reason,
            "open_values": {rid: list(texts) for rid, texts in open_values.items()}}


def simulation_view(sim: Simulation) -> dict[str, Any]:
    if sim.status != "ran":
        return {"status": sim.status, "reason": sim.reason, "games": sim.games}
    ok = [dict(r.data, ruleset=r.ruleset) for r in sim.runs if r.status == "ran"]
    return {"status": "ran", "games": sim.games, "seed": sim.seed, "players": sim.players,
            "elapsed": sim.elapsed_s, "lengths": charts.game_lengths(ok),
            "runs": [{"ruleset": r.ruleset, "slug": slug(r.ruleset), "status": r.status, "reason": r.reason,
                      "data": r.data, "landings": charts.landings(r.data.get("landings"))
                      if r.status == "ran" else None} for r in sim.runs]}


def build(opts: ReportOptions, hooks: dict[str, Callable] | None = None) -> dict[str, Any]:
    """Render the whole report into ``opts.out`` atomically. Returns a summary (pages, counts, timings)."""
    hooks = hooks or {}
    t0 = time.perf_counter()
    reg = load_registry()
    rs = ordered(reg)
    ids = [r.id for r in rs]
    comparison = compare(reg=reg)
    pl = plan(rs, load_declared())
    anchors = {rid: a for a, rid in pl.variants}
    if opts.check_json is not None:
        check = load_check_json(opts.check_json, ids)
    elif opts.run_check:
        check = (hooks.get("check") or run_check)(ids)   # every ruleset, overlays stacked on their base
    else:
        check = CheckRun("not run", reason="skipped (--no-check)")
    sim_targets = [(r.id, _players(r)) for r in rs]
    sim = (hooks.get("simulate") or run_simulation)(sim_targets, opts.games, opts.seed) \
        if opts.run_simulation else Simulation("not run", opts.games, "—", opts.seed,
                                               reason="skipped (--no-simulate)")
    env = environment()
    common = {
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "rulesets": [{"id": r.id, "slug": slug(r.id), "title": r.title, "overlay": "+" in r.id,
                      "base": r.id in pl.base_games, "anchor": anchors.get(r.id)} for r in rs],
        "kinds": KINDS, "kind_text": KIND_TEXT, "languages": LANGUAGES,
    }
    pages = {
        "index.html": ("index.html", {"counts": comparison.counts(), "base_games": pl.base_games,
                                      "check_status": check.status, "sim_status": sim.status,
                                      "questions": len(load_questions()),
                                      "equivalent": comparison.equivalent}),
        "contradictions.html": ("contradictions.html", {"topics": topic_groups(reg, comparison),
                                                        "counts": comparison.counts()}),
        "questions.html": ("questions.html", {"rows": question_rows(reg, rs),
                                              "ambiguities": ambiguity_rows(comparison)}),
        "matrix.html": ("matrix.html", {"m": check_matrix(check, ids)}),
        "simulation.html": ("simulation.html", {"s": simulation_view(sim)}),
    }
    written = []
    with atomic_dir(opts.out) as tmp:
        for name, (template, ctx) in pages.items():
            html = env.get_template(template).render(page=name, **common, **ctx)
            (tmp / name).write_text(html, encoding="utf-8")
            written.append(name)
            if "after_page" in hooks:
                hooks["after_page"](name)
        (tmp / "contradictions.json").write_text(
            json.dumps(comparison.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        written.append("contradictions.json")
        for page in ruleset_pages(reg, rs, comparison, anchors):
            html = env.get_template("ruleset.html").render(page=page["slug"], r=page, **common)
            (tmp / page["slug"]).write_text(html, encoding="utf-8")
            written.append(page["slug"])
    return {"out": str(opts.out), "pages": written, "counts": comparison.counts(), "check": check.status,
            "simulation": sim.status, "games": opts.games, "elapsed_s": round(time.perf_counter() - t0, 2)}
