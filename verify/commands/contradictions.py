"""``verify contradictions``: every disagreement between the rulebooks, classified and witnessed."""

from __future__ import annotations

import json

import click

from ..compare import compare
from ..compare.model import KINDS
from ..compare.values import show
from ..output import output_option


@click.command()
@click.argument("rulesets", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document {\"findings\": [...]}.")
@click.option("--kind", "kinds", multiple=True,
              type=click.Choice(list(KINDS)),
              help="Only findings of this kind (repeatable).")
@output_option
def command(rulesets: tuple[str, ...], as_json: bool, kinds: tuple[str, ...]) -> None:
    """Compare RULESETS (default: every bundled ruleset, and each overlay on the default one).

    Each finding is a contradiction (sources presenting the same game disagree), a variant (a mode or
    house rule differs on purpose), internal (one source disagrees with itself), silent (one side
    leaves the question open), redundancy (a clause implied by others, proved by z3) or ambiguous (an
    entry whose words allow other readings: each reading, and what the other rulebooks say). Differences
    in meaning carry a witness: a situation where the rulings give different outcomes.
    """
    result = compare(list(rulesets) or None)
    findings = [f for f in result.findings if not kinds or f.kind in kinds]
    if as_json:
        click.echo(json.dumps({"findings": [f.to_json() for f in findings]}, ensure_ascii=False, indent=2))
        return
    topic = None
    for f in findings:
        if f.topic != topic:
            topic = f.topic
            click.secho(f"\n== {topic} ==", bold=True)
        click.secho(f"[{f.kind}] {f.id}", fg={"contradiction": "red", "internal": "magenta",
                                               "silent": "yellow", "variant": "cyan"}.get(f.kind, "green"))
        click.echo(f"  {f.summary}")
        for s in f.sides:
            label = f"{s.ruleset}@{s.reading}" if s.reading else s.ruleset
            where = f"{label} ({s.source})" if s.source else label
            if s.quote:
                click.echo(f"    {where}: «{s.quote}» — {s.gloss}")
            else:
                click.echo(f"    {where}: {s.kind}{': ' + s.gloss if s.gloss else ''}")
        for s in f.related:
            click.echo(f"    elsewhere, {s.ruleset}: {show(s.value) if s.kind in ('cited', 'assumed') else s.kind}")
        w = f.witness
        if w and w.method in ("z3", "direct"):
            click.echo(f"  witness ({w.method}): {w.question}")
            click.echo(f"    situation: {w.situation_text}")
            for o in w.outcomes:
                click.echo(f"    {o.ruleset}: {o.text}")
            for rid, pid, value in w.assumed:
                click.echo(f"    (assumed: {rid} leaves {pid} open; computed with {value!r})")
        elif w and w.method == "proof":
            click.echo(f"  {w.verdict}: {w.detail}")
    counts = {k: sum(1 for f in findings if f.kind == k) for k in KINDS}
    click.echo("\n" + ", ".join(f"{v} {k}" for k, v in counts.items())
               + f" across {len(result.rulesets)} ruleset(s)")
