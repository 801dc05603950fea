"""``verify contradictions``: every disagreement between the rulebooks, classified and witnessed."""

from __future__ import annotations

import json

import click

from ..compare import compare
from ..output import output_option


@click.command()
@click.argument("rulesets", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document {\"findings\": [...]}.")
@click.option("--kind", "kinds", multiple=True,
              type=click.Choice(["contradiction", "variant", "internal", "silent", "redundancy"]),
              help="Only findings of this kind (repeatable).")
@output_option
def command(rulesets: tuple[str, ...], as_json: bool, kinds: tuple[str, ...]) -> None:
    """Compare RULESETS (default: every bundled ruleset, and each overlay on the default one).

    Each finding is a contradiction (sources presenting the same game disagree), a variant (a mode or
    house rule differs on purpose), internal (one source disagrees with itself), silent (one side
    leaves the question open) or redundancy (a clause implied by others, proved by z3). Differences
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
            where = f"{s.ruleset} ({s.source})" if s.source else s.ruleset
            if s.quote:
                click.echo(f"    {where}: «{s.quote}» — {s.gloss}")
            else:
                click.echo(f"    {where}: {s.kind}{': ' + s.gloss if s.gloss else ''}")
        w = f.witness
        if w and w.method in ("z3", "direct"):
            click.echo(f"  witness ({w.method}): {w.question}")
            click.echo(f"    situation: {w.situation_text}")
            for o in w.outcomes:
                click.echo(f"    {o.ruleset}: {o.text}")
        elif w and w.method == "proof":
            click.echo(f"  {w.verdict}: {w.detail}")
    counts = {k: sum(1 for f in findings if f.kind == k) for k in
              ("contradiction", "variant", "internal", "silent", "redundancy")}
    click.echo("\n" + ", ".join(f"{v} {k}" for k, v in counts.items())
               + f" across {len(result.rulesets)} ruleset(s)")
