"""``verify ask TEXT``: the clarification questions matching TEXT, answered by every ruleset."""

from __future__ import annotations

import json

import click

from ..compare.from_rulesets import _Ctx, load_registry, ordered
from ..compare.questions import answer, load_questions, search
from ..compare.values import show
from .options import POSITIVE


@click.command()
@click.argument("text", nargs=-1, required=True)
@click.option("--ruleset", "-r", "rulesets", multiple=True, help="Only these rulesets (repeatable).")
@click.option("--limit", default=3, show_default=True, type=POSITIVE, help="How many matching questions to answer.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def command(text: tuple[str, ...], rulesets: tuple[str, ...], limit: int, as_json: bool) -> None:
    """Find the questions matching TEXT (any language) and print each ruleset's answer.

    Answers are the rulesets' own entries: the verbatim quote with its English gloss, or
    "assumed", "silent" or "open" with the reason.
    """
    query = " ".join(text)
    if not query.strip():
        raise click.BadParameter("the question is empty; give some words, e.g. 'rent in jail'",
                                 param_hint="TEXT")
    hits = search(query, load_questions(), limit=limit)
    reg = load_registry()
    rs = ordered(reg, list(rulesets), strict=bool(rulesets))
    ctx = _Ctx(reg)
    if as_json:
        click.echo(json.dumps({"query": query, "questions": [
            {"id": q.id, "text": q.text, "score": round(s, 2), "params": list(q.params),
             "answers": [{"ruleset": a.ruleset, "status": a.status, "sides": [x.to_json() for x in a.sides]}
                         for a in (answer(q, r, ctx) for r in rs)]} for q, s in hits]},
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
            click.secho(f"  {r.id}", fg="cyan")
            for side in a.sides:
                label = side.param
                if side.origin in shown and side.origin != r.chain[-1] and side.kind in ("cited", "assumed"):
                    click.echo(f"    {label} = {show(side.value)} (as in {side.origin})")
                elif side.kind == "cited":
                    click.echo(f"    {label} = {show(side.value)}")
                    click.echo(f"      «{side.quote}» ({side.source})")
                    click.echo(f"      {side.gloss}")
                elif side.kind == "assumed":
                    click.echo(f"    {label} = {show(side.value)} (assumed: {side.gloss})")
                else:
                    click.echo(f"    {label}: {side.kind}{' — ' + side.gloss if side.gloss else ''}")
            shown.add(r.id)
