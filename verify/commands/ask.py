"""``verify ask QUESTION [TABLE...]``: the clarification questions matching QUESTION, answered by every
ruleset, and first by the user's own tables when some are given."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..compare.from_rulesets import _Ctx, load_registry, ordered
from ..compare.questions import Question, answer, load_questions, search
from ..compare.table import table_name
from ..compare.values import show
from ..spec.registry import is_path
from .options import POSITIVE


def _is_table(token: str) -> bool:
    """A ruleset file (or a stack with one), not a word of the question: a name ending in .yaml/.yml,
    or a path to an existing file."""
    parts = token.split("+")
    return any(p.endswith((".yaml", ".yml")) for p in parts) or (is_path(token) and Path(token).is_file())


def _own_questions(tables, yours: set[str]) -> tuple[Question, ...]:
    """A question for each value a table of the user's rules (or leaves silent or open) that no clarification
    question asks: the catalogue's own question for the parameter, so every value of a table can be asked."""
    asked = {pid for q in load_questions() for pid in q.params}
    out: dict[str, Question] = {}
    for r in tables:
        for pid, e in r.entries.items():
            if e.ruleset in yours and pid not in asked and pid not in out:
                p = r.catalogue[pid]
                out[pid] = Question(pid, p.question, (pid,), (pid, pid.replace(".", " ").replace("_", " ")))
    return tuple(out.values())


@click.command()
@click.argument("text", nargs=-1, required=True, metavar="QUESTION... [TABLE...]")
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Only these rulesets (repeatable).")
@click.option("--limit", default=3, show_default=True, type=POSITIVE, help="How many matching questions to answer.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def command(text: tuple[str, ...], rulesets: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Find the questions matching QUESTION (any language) and print each ruleset's answer.

    Answers are the rulesets' own entries: the verbatim quote with its English gloss, or
    "assumed", "silent" or "open" with the reason. Ruleset files among the words (TABLE: a
    name ending in .yaml, e.g. `verify ask rent in jail my-table.yaml`) are your tables:
    they answer first, beside the rulebooks, and their values are credited to them.
    """
    tables = [t for t in text if _is_table(t)]
    query = " ".join(t for t in text if not _is_table(t))
    if not query.strip():
        raise click.BadParameter("the question is empty; give some words, e.g. 'rent in jail'",
                                 param_hint="QUESTION")
    reg = load_registry()
    mine = [reg.resolve(table_name(reg, t)) for t in tables]          # a broken table is an error
    yours = {f for r in mine for f in r.chain if not reg.is_bundled(f)}
    hits = search(query, load_questions() + _own_questions(mine, yours), limit=limit)
    table_ids = {r.id for r in mine}
    rs = mine + [r for r in ordered(reg, list(rulesets), strict=bool(rulesets)) if r.id not in table_ids]
    ctx = _Ctx(reg)
    if as_json:
        click.echo(json.dumps({"query": query, "tables": [r.id for r in mine], "questions": [
            {"id": q.id, "text": q.text, "score": round(s, 2), "params": list(q.params),
             "answers": [{"ruleset": a.ruleset, "table": r.id in table_ids, "status": a.status,
                          "sides": [x.to_json() for x in a.sides]}
                         for r, a in ((r, answer(q, r, ctx)) for r in rs)]} for q, s in hits]},
            ensure_ascii=False, indent=2))
        return
    if not hits:
        click.echo(f"No question matches {query!r}. Try other words; `verify report` lists every question.")
        return
    for q, _s in hits:
        click.secho(f"\n{q.text}  [{q.id}]", bold=True)
        shown: set[str] = set()
        for r in rs:
            a = answer(q, r, ctx)
            if r.id in table_ids:
                click.secho(f"  your table {r.id}", fg="green", bold=True)
            else:
                click.secho(f"  {r.id}", fg="cyan")
            for side in a.sides:
                label = side.param
                by = " by your table" if side.origin in yours else ""
                if side.origin in shown and side.origin != r.chain[-1] and side.kind in ("cited", "assumed"):
                    click.echo(f"    {label} = {show(side.value)} (as in {side.origin})")
                elif side.kind == "cited":
                    click.echo(f"    {label} = {show(side.value)}")
                    click.echo(f"      «{side.quote}» ({side.source})")
                    click.echo(f"      {side.gloss}")
                elif side.kind == "assumed":
                    click.echo(f"    {label} = {show(side.value)} (assumed{by}: {side.gloss})")
                else:
                    kind = side.kind.replace("_", " ")
                    gloss = (side.gloss or "").removeprefix(kind + ": ")
                    click.echo(f"    {label}: {kind}{by}{' — ' + gloss if gloss else ''}")
                e = r.entries.get(side.param)
                if e is not None and e.note and not (side.origin in shown and side.origin != r.chain[-1]):
                    click.echo(f"      note: {' '.join(e.note.split())}")
            shown.add(r.id)
