"""``verify report``: the HTML report, rendered from the comparison, the questions, check and simulate.

Reads (never recomputes differently) what the other stages produce: the
resolved rulesets, the classified findings with their witnesses, each
ruleset's answer to every clarification question, the ``verify check``
matrix and ``verify simulate`` summaries. A user's tables (``verify report
TABLE...``) join the bundled rulesets — with the files they extend — and
lead the report. Pages are the ``site.PAGES`` list, rendered with jinja2
(autoescape on; templates ship inside the package) into a temporary folder
that replaces the target only when everything succeeded.
"""

from __future__ import annotations

import datetime as _dt
import json
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable

import click

from ..compare.declared import load_declared
from ..execute.progress import Progress
from ..compare.from_rulesets import Plan, _Ctx, compare, default_members, load_registry, ordered, plan
from ..compare.model import KINDS, Comparison
from ..compare.questions import load_questions
from ..compare.values import show
from ..compare.table import compare_table, diff_table, table_name
from ..compare.witness import write as write_witnesses
from ..spec.open_values import not_played, supply
from ..spec.played import table_values
from ..spec.registry import DEFAULT_RULESET, Registry
from ..spec.ruleset import ID_RESERVED, Ruleset
from ..spec.sources import LANGUAGES
from ..study import page as study_page
from ..conform import render as conform_render
from ..smt.run import config_hash
from ..study.charts import percent
from . import charts, findings, matrix, questions, sample
from .ambiguities import ambiguity_rows
from ..output import atomic_dir
from .decisions import decisions
from .effects import Effects, measure as measure_effects
from .runs import CheckRun, SimRun, Simulation, load_check_json, run_check, run_simulation
from .site import PAGES, Card, Page, environment, notes, register, slug

KIND_TEXT = {
    "contradiction": "Sources presenting the same game state different rules.",
    "internal": "One rulebook states one quantity twice, differently.",
    "inferred": "The rulebooks differ, but where they part one side rests on an inference, an absence, a "
                "general clause or a number borrowed from another rulebook, not on a statement.",
    "ambiguous": "The words of one rulebook allow several readings; each is played and witnessed.",
    "assumed": "The rulebooks differ only through a value one of them does not state (assumed).",
    "medium": "A difference that exists because one game is played on a board and the other online "
              "(timers, pauses, rating, payment steps, a banker).",
    "silent": "One side leaves the question open while others answer it.",
    "variant": "A declared mode, a house rule or your table differs from its base on purpose.",
    "redundancy": "A clause implied by other rulings (proved by z3).",
}


@dataclass(frozen=True)
class ReportOptions:
    out: Path
    games: int = 30
    seed: int = 1
    run_check: bool = True
    run_simulation: bool = True
    check_json: Path | None = None      # a saved `verify check --json` instead of running it
    tables: tuple[str, ...] = ()        # the user's tables (ids, files, stacks): they lead the report
    settings: tuple[tuple[str, Any], ...] = ()   # --set PARAM=VALUE, given to each of the user's tables
    effect_games: int = 0               # games per answer when measuring what each answer changes (0: not
    #                                     measured; `verify report` measures 300)
    study: Path | None = None           # a `verify study` document (study.json) to add as study.html
    conform: tuple[Path, ...] = ()      # `verify conform --html` folders (or their conform.json): conformance.html


@dataclass(frozen=True)
class Inputs:
    """Everything a page may show, computed once."""

    opts: ReportOptions
    reg: Registry
    rulesets: tuple[Ruleset, ...]       # reading order: the user's tables, then base games, then variants
    tables: tuple[str, ...]             # ids of the user's tables
    comparison: Comparison              # every finding, the tables' against the rulebooks included
    plan: Plan
    check: CheckRun
    sim: Simulation
    study: dict | None = None           # a `verify study` document, shown as study.html
    conform: tuple[dict, ...] = ()      # saved conformance runs, shown as conformance.html
    #: each question answered by every ruleset (the first page, the questions page and the sheet)
    question_rows: tuple[dict, ...] = ()
    effects: Effects | None = None      # what each answer to a question to decide changes in play

    @property
    def ids(self) -> list[str]:
        return [r.id for r in self.rulesets]


def _players(r) -> int:
    lo, hi = r.value("setup.players_min"), r.value("setup.players_max")
    lo = lo if isinstance(lo, int) else 2
    hi = hi if isinstance(hi, int) else 8
    return min(max(4, lo), hi)


def _runnable(reg: Registry, rid: str) -> str:
    """A name the check and simulate commands resolve on their own: a user's file by its path."""
    return "+".join(p if reg.is_bundled(p) else str(reg.files[p].path) for p in rid.split("+"))


def _gather(opts: ReportOptions, hooks: dict[str, Callable]) -> Inputs:
    study = None
    if opts.study is not None:                 # a bad study document fails before any work
        study = study_page.load(opts.study)
    conform = tuple(conform_render.load_run(p) for p in opts.conform)  # a bad run fails before any work too
    reg = load_registry()
    tables = tuple(dict.fromkeys(table_name(reg, t) for t in opts.tables))
    for t in tables:
        r = reg.resolve(t)                              # a broken table is an error, never left out
        if opts.settings:                               # --set: the table as `simulate --set` plays it
            reg.pin(t, supply(r, dict(opts.settings)))
    extra = []
    for t in tables:                                    # with the user's files they build on
        for part in reg.resolve(t).chain:
            f = reg.files[part]
            if not reg.is_bundled(part) and part not in tables and f.kind != "overlay":
                extra.append(part)
    bundled = [n for n in default_members(reg) if all(reg.is_bundled(p) for p in n.split("+"))]
    names = list(dict.fromkeys(extra + list(tables) + bundled))
    say = hooks.get("say") or _say
    rs = ordered(reg, names)
    if tables:
        rank = {t: i for i, t in enumerate(tables)}
        rs = sorted(rs, key=lambda r: rank.get(r.id, len(rank)))    # stable: the tables lead
    runnable = {r.id: _runnable(reg, r.id) for r in rs}
    back = {v: k for k, v in runnable.items()}
    saved = None
    if opts.check_json is not None:     # saved for these rulesets (by id or as run) as they are now, else E031 or E032:
        now = {r.id: config_hash(r) for r in rs}                    # refused before any work
        saved = load_check_json(opts.check_json, [r.id for r in rs] + list(back),
                                {**now, **{name: now[rid] for name, rid in back.items()}})
    say(f"comparing {len(names)} rulesets (findings and their z3 witnesses)")
    if tables:
        comparison = compare([r.id for r in rs], reg=reg)
        seen = {f.id for f in comparison.findings}
        more = [f for t in tables for f in compare_table(reg, t).findings if f.id not in seen]
        more = list({f.id: f for f in more}.values())
        order = {a.id: i for i, a in enumerate(reg.catalogue.areas)}
        comparison = replace(comparison, findings=tuple(sorted(
            comparison.findings + tuple(more), key=lambda f: (order.get(f.topic, 99), f.kind != "contradiction",
                                                              f.id))))
    else:
        comparison = compare(reg=reg)
    pl = plan(rs, load_declared())
    if saved is not None:
        check = saved
    elif opts.run_check:
        say(f"check: every invariant of {len(rs)} rulesets with z3")
        given = {runnable[t]: dict(opts.settings) for t in tables} if opts.settings else {}
        check = (hooks.get("check") or run_check)([runnable[r.id] for r in rs], *([given] if given else []))
    else:
        check = CheckRun("not run", reason="skipped (--no-check)")
    check = replace(check, results=tuple(dict(r, ruleset=back.get(r.get("ruleset"), r.get("ruleset")))
                                         for r in check.results))
    if check.status == "ran":              # a saved check may cover fewer rulesets: the others say "not run"
        checked = {r.get("ruleset") for r in check.results}
        check = replace(check, not_run=tuple(r.id for r in rs if r.id not in checked))
    if opts.run_simulation:
        say(f"simulation: {opts.games} games of each playable ruleset")
        sim = _simulate(opts, rs, runnable, back, hooks.get("simulate") or run_simulation, tables)
    else:
        sim = Simulation("not run", opts.games, "—", opts.seed, reason="skipped (--no-simulate)")
    rows = tuple(questions.question_rows(reg, rs, tables, comparison.findings))
    base = next((r for r in rs if r.id == DEFAULT_RULESET), None) or next(
        (r for r in rs if r.id in pl.base_games), None)
    if not (opts.run_simulation and opts.effect_games) or base is None:
        why = "skipped (--no-simulate)" if not opts.run_simulation else "skipped (--effect-games 0)"
        found = Effects(base.id if base else "—", 0, 0, {}, {}, "not run", why)
    else:
        say(f"effects: each answer to the {sum(1 for r in rows if r['to_decide'])} questions a table decides, "
            f"played on {base.id} ({opts.effect_games} games each)")
        found = (hooks.get("effects") or measure_effects)(base, list(rows), opts.effect_games, opts.seed)
    return Inputs(opts, reg, tuple(rs), tables, comparison, pl, check, sim, study, conform, rows, found)


def _say(text: str) -> None:
    """One plain line on stderr naming the part of the report under way (a bar follows where it has one)."""
    click.echo(f"report: {text}", err=True)


def _simulate(opts: ReportOptions, rs: list[Ruleset], runnable: dict[str, str], back: dict[str, str],
              run: Callable, tables: tuple[str, ...] = ()) -> Simulation:
    """Simulate every ruleset that can be played; one with an open value nobody supplied is not played
    (never at a value its rulebook does not give) and its row says why (``open_values.not_played``).
    The user's tables are played with the ``--set`` values given to them."""
    unplayed = {r.id: why for r in rs if (why := not_played(r))}
    given = {runnable[t]: dict(opts.settings) for t in tables if t not in unplayed} if opts.settings else {}
    sim = run([(runnable[r.id], _players(r)) for r in rs if r.id not in unplayed], opts.games, opts.seed,
              *([given] if given else []))
    ran = {back.get(one.ruleset, one.ruleset): one for one in sim.runs}
    return replace(sim, runs=tuple(SimRun(r.id, "not played", reason=unplayed[r.id]) if r.id in unplayed
                                   else replace(ran[r.id], ruleset=r.id) for r in rs if r.id in unplayed or r.id in ran))


# --- the pages ---------------------------------------------------------------------------------------

def _index(x: Inputs):
    cat = x.reg.catalogue
    table_views = []
    for t in x.tables:
        mine = [f for f in x.comparison.findings if t in findings.side_rulesets(f)]
        r = next(r for r in x.rulesets if r.id == t)
        # what it changes is what `verify diff` lists: values it decides otherwise, and values it leaves
        # silent or open where its base decides them
        diff = diff_table(x.reg, t) if x.reg.base_of(t) is not None else None
        changes = [c.finding for c in diff.changes] if diff else [f for f in mine if f.kind == "variant"]
        own = x.reg.files.get(r.chain[-1])
        table_views.append({"id": t, "slug": slug(t), "title": r.title, "chain": list(r.chain),
                            "description": own.description if own is not None else None,
                            "extra_rules": [{"file": fid, "text": text} for fid, text in r.extra_rules],
                            "same": [{"param": s.param, "value": show(s.table.value)} for s in diff.same]
                            if diff else [],
                            "supplied": [{"param": p, "value": show(v)} for p, v in r.supplied],
                            "changes": [findings.line(f, cat) for f in changes],
                            "disputes": [findings.line(f, cat) for f in mine if f.kind == "contradiction"],
                            "undecided": [{"param": v.param, "text": v.text()} for v in table_values(r, x.reg)],
                            "length": _length_verdict(x, t)})
    yield "index.html", {"my_tables": table_views, "counts": x.comparison.counts(),
                         "mine": x.comparison.counts_of(x.tables), "base_games": x.plan.base_games,
                         "decide": decisions(list(x.question_rows), x.effects), "effects": x.effects,
                         "equivalent": x.comparison.equivalent,
                         "top": findings.matters_most(x.comparison.findings, cat, x.tables),
                         "apart": findings.apart(x.comparison.findings)}


def _cli(value: Any) -> str:
    """A ``--set`` value as it is typed on the command line."""
    return json.dumps(value) if isinstance(value, (bool, list)) else str(value)


def _length_verdict(x: Inputs, table: str) -> str | None:
    """Whether the report's games show the table playing longer or shorter than its base, or cannot tell."""
    base = x.reg.base_of(table)
    if base is None or x.sim.status != "ran":
        return None
    runs = {r.ruleset: r.data for r in x.sim.runs if r.status == "ran"}
    name = _runnable(x.reg, table) + "".join(f" --set {p}={_cli(v)}" for p, v in x.opts.settings)
    v = sample.compare_lengths(table, base.id, runs, name)
    return v.text if v is not None else None


def _findings_index(x: Inputs):
    cat = x.reg.catalogue
    groups = findings.topics(x.reg, x.comparison)
    yield "contradictions.html", {"topics": [{"id": g["id"], "title": g["title"], "file": g["file"],
                                               "lines": [findings.line(it["f"], cat) for it in g["items"]]}
                                              for g in groups],
                                  "counts": x.comparison.counts()}


def _topic_pages(x: Inputs):
    groups = findings.topics(x.reg, x.comparison)
    for g in groups:
        yield g["file"], {"t": g, "topics": [{"id": o["id"], "title": o["title"], "file": o["file"],
                                              "n": len(o["items"])} for o in groups]}


def _ruleset_pages(x: Inputs):
    ctx = _Ctx(x.reg)
    cat = x.reg.catalogue
    titles = {a.id: a.title for a in cat.areas}
    anchors = {rid: a for a, rid in x.plan.variants}
    involved: dict[str, list] = defaultdict(list)
    for f in x.comparison.findings:
        for rid in findings.side_rulesets(f):
            involved[rid].append(f)
    page_ids = set(x.ids)
    for r in x.rulesets:
        areas = []
        for area, params in cat.by_area().items():
            rows = []
            for p in params:
                s = ctx.side(r, p.id)
                rows.append({"pid": p.id, "question": p.question, "side": s,
                             "origin_link": slug(s.origin) if s.origin in page_ids else None,
                             "inherited": bool(s.origin and s.origin != r.chain[-1])})
            areas.append({"id": area, "title": titles.get(area, area), "rows": rows})
        kinds = Counter(row["side"].kind for a in areas for row in a["rows"])
        page = {"id": r.id, "slug": slug(r.id), "title": r.title, "chain": list(r.chain),
                "sources": list(r.sources), "promises": r.promised(), "scale": r.money_scale,
                "areas": areas, "kinds": dict(kinds), "anchor": anchors.get(r.id), "table": r.id in x.tables,
                "description": getattr(x.reg.files.get(r.chain[-1]), "description", None),
                "extra_rules": [{"file": fid, "text": text} for fid, text in r.extra_rules],
                "findings": [findings.line(f, cat) for f in involved.get(r.id, [])]}
        yield page["slug"], {"r": page}


def _questions(x: Inputs):
    rows = x.question_rows
    picked = list(x.tables) + [b for b in x.plan.base_games if b not in x.tables]
    yield "questions.html", {"rows": rows, "picked": picked[:6],
                             "ambiguity_count": sum(1 for f in x.comparison.findings if f.kind == "ambiguous")}


def _ambiguities(x: Inputs):
    rows = ambiguity_rows(x.comparison)
    if rows:
        yield "ambiguities.html", {"ambiguities": rows}


def _rulings(x: Inputs):
    """The rulings sheet starts from the user's first table (a file): each question set to the table's own
    ruling, saved as an overlay on that table under a name of its own."""
    bases = questions.sheet_bases(x.reg, x.rulesets, x.tables)
    table = next((b["id"] for b in bases if b["table"]), None)
    default = table or (x.plan.base_games[0] if x.plan.base_games else "official")
    # the questions to decide first, in the first page's order (the house-rule classics, then by effect), so
    # the sheet's numbers are the first page's; then the others, as the catalogue orders them
    first = [d["row"] for d in decisions(list(x.question_rows), x.effects)]
    rows = first + [r for r in x.question_rows if not any(r is f for f in first)]
    yield "rulings.html", {"rows": rows, "bases": bases, "default_base": default, "table": table,
                           "presets": questions.table_presets(x.question_rows, table) if table else {},
                           "id_reserved": ID_RESERVED,
                           "extra_rules": [{"file": fid, "text": text} for fid, text in
                                           next(r for r in x.rulesets if r.id == table).extra_rules] if table else [],
                           "sheet_id": f"{table}-rulings" if table else "our-table"}


def _matrix(x: Inputs):
    if x.check.status != "ran":
        yield "matrix.html", {"m": {"status": x.check.status, "reason": x.check.reason}}
        return
    m = matrix.view(x.check.results, x.ids)
    yield "matrix.html", {"m": dict(m, status="ran", elapsed=x.check.elapsed_s, source=x.check.reason,
                                    not_run=list(x.check.not_run), slugs={rid: slug(rid) for rid in x.ids})}


def _simulation(x: Inputs):
    sim = x.sim
    if sim.status != "ran":
        yield "simulation.html", {"s": {"status": sim.status, "reason": sim.reason, "games": sim.games}}
        return
    ok = [dict(r.data, ruleset=r.ruleset) for r in sim.runs if r.status == "ran"]
    yield "simulation.html", {"s": {
        "status": "ran", "games": sim.games, "seed": sim.seed, "players": sim.players, "elapsed": sim.elapsed_s,
        "not_played": _not_played(sim),
        "lengths": charts.game_lengths(ok),
        "intervals": {r.ruleset: sample.mean_interval(r.data["turns"], int(r.data["games"]))
                      for r in sim.runs if r.status == "ran"},
        "verdicts": [v for v in (_length_verdict(x, t) for t in x.tables) if v],
        "runs": [{"ruleset": r.ruleset, "slug": slug(r.ruleset), "status": r.status, "reason": r.reason,
                  "data": r.data, "landings": charts.landings(r.data.get("landings"), r.ruleset)
                  if r.status == "ran" else None} for r in sim.runs]}}


def _not_played(sim: Simulation) -> list[str]:
    return [r.ruleset for r in sim.runs if r.status == "not played"]


def _study(x: Inputs):
    if x.study is not None:
        yield "study.html", dict(study_page.view(x.study), standalone=False, pct=percent)


def _study_card(x: Inputs) -> Card:
    return Card("study.html", str(len(x.study["rows"])),
                f"rulesets in the balance study ({x.study['games']} games each, `verify study`)")


def _conformance(x: Inputs):
    if x.conform:
        yield "conformance.html", conform_render.view(list(x.conform), standalone=False)


def _conformance_card(x: Inputs) -> Card:
    bad = sum(len(d["violations"]) for d in x.conform)
    return Card("conformance.html", str(bad), f"conformance violation{'' if bad == 1 else 's'} in {len(x.conform)} "
                "engine run(s) (`verify conform`), each shrunk to a replayable scenario")


def _findings_card(x: Inputs) -> Card:
    c, mine = x.comparison.counts(), x.comparison.counts_of(x.tables)
    return Card("contradictions.html", str(sum(c.values())),
                "findings: " + ", ".join(f"{c[k]} {k}" + (f" ({mine[k]} of them your tables')" if mine[k] else "")
                                         for k in KINDS) + "; one page per topic, searchable")


def _matrix_card(x: Inputs) -> Card:
    if x.check.status != "ran":
        return Card("matrix.html", x.check.status, "verification matrix (`verify check`)")
    m = matrix.build_matrix(x.check.results)
    failed = len(m.promised_failures())
    missing = f"; {len(x.check.not_run)} not run" if x.check.not_run else ""
    return Card("matrix.html", "all proved" if not failed else f"{failed} failed",
                f"promised checks of {len(m.rulesets)} rulesets{missing}; "
                f"{sum(len(v) for v in m.dead_rules().values())} dead rules flagged; unpromised checks apart")


for _page in (
    Page("index.html", "Overview", "index.html", _index),
    Page("contradictions.html", "Findings", "contradictions.html", _findings_index, _findings_card),
    Page("questions.html", "Questions", "questions.html", _questions,
         lambda x: Card("questions.html", str(len(load_questions())),
                        "clarification questions, rulesets side by side, every reading with its quotes")),
    Page("ambiguities.html", "Ambiguities", "ambiguities_page.html", _ambiguities,
         lambda x: Card("ambiguities.html", str(sum(1 for f in x.comparison.findings if f.kind == "ambiguous")),
                        "entries whose words allow several readings: each played and witnessed")),
    Page("rulings.html", "Rulings sheet", "rulings.html", _rulings,
         lambda x: Card("rulings.html", "sheet", "table rulings: fill in, print, save as an overlay file")),
    Page("matrix.html", "Verification", "matrix.html", _matrix, _matrix_card),
    Page("simulation.html", "Simulation", "simulation.html", _simulation,
         lambda x: Card("simulation.html", x.sim.status, "simulated games: length and landings"
                        + "".join(f"; {n} not played (open values)" for n in [len(_not_played(x.sim))] if n))),
    Page("study.html", "Balance study", "study.html", _study, _study_card),
    Page("conformance.html", "Conformance", "conform.html", _conformance, _conformance_card),
    Page("findings-*.html", None, "topic.html", _topic_pages),
    Page("ruleset-*.html", None, "ruleset.html", _ruleset_pages),
):
    register(_page)


def build(opts: ReportOptions, hooks: dict[str, Callable] | None = None) -> dict[str, Any]:
    """Render the whole report into ``opts.out`` atomically. Returns a summary (pages, counts, timings)."""
    hooks = hooks or {}
    t0 = time.perf_counter()
    x = _gather(opts, hooks)
    env = environment()
    env.globals["note_of"] = notes(x.reg)
    (hooks.get("say") or _say)(f"pages: writing the report into {opts.out}")
    rendered: list[tuple[Page, list[tuple[str, dict]]]] = [(p, list(p.files(x))) for p in PAGES]
    common = {
        "generated": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "nav": [(p.file, p.label) for p, files in rendered if p.label and files],
        "cards": [c for p, files in rendered if files and p.card for c in [p.card(x)] if c],
        "rulesets": [{"id": r.id, "slug": slug(r.id), "title": r.title, "overlay": "+" in r.id,
                      "table": r.id in x.tables, "base": r.id in x.plan.base_games,
                      "anchor": dict((v, a) for a, v in x.plan.variants).get(r.id)} for r in x.rulesets],
        "ruleset_ids": set(x.ids), "kinds": KINDS, "kind_text": KIND_TEXT, "languages": LANGUAGES,
        "tables": list(x.tables),
    }
    written = []
    bar = Progress(sum(len(files) for _, files in rendered), "pages", "report: pages")
    bar.start()
    with atomic_dir(opts.out) as tmp:
        for page, files in rendered:
            for name, ctx in files:
                bar.describe(name)
                html = env.get_template(page.template).render(page=name, **{**common, **ctx})
                (tmp / name).write_text(html, encoding="utf-8")
                written.append(name)
                bar.advance(1)
                if "after_page" in hooks:
                    hooks["after_page"](name)
        bar.close()
        (tmp / "contradictions.json").write_text(
            json.dumps(x.comparison.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        written.append("contradictions.json")
        witnesses = [f"witnesses/{p.name}" for p in write_witnesses(x.comparison.findings, tmp / "witnesses")]
        if x.study is not None:
            (tmp / "study.json").write_text(json.dumps(x.study, ensure_ascii=False), encoding="utf-8")
            written.append("study.json")
    return {"out": str(opts.out), "pages": written, "witnesses": witnesses, "counts": x.comparison.counts(),
            "tables_counts": x.comparison.counts_of(x.tables), "check": x.check.summary,
            "simulation": x.sim.status, "not_played": _not_played(x.sim), "games": opts.games, "tables": list(x.tables),
            "elapsed_s": round(time.perf_counter() - t0, 2)}
