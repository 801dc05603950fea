"""``verify contradictions``: every disagreement between the rulebooks, classified and witnessed.

Given one ruleset alone (a user's table, a file path or a stack), it shows
that table's choices instead: its changes against what it builds on, and
where the rulebooks answer those questions differently.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..compare import compare
from ..compare.model import KINDS, document
from ..compare.values import show
from ..compare.witness import write
from ..output import output_option
from ..report.terminal import echo_side, echo_witness
from ..compare.from_rulesets import load_registry
from ..compare.table import compare_table

_COLOUR = {"contradiction": "red", "internal": "magenta", "inferred": "bright_blue", "silent": "yellow", "variant": "cyan",
           "ambiguous": "blue", "assumed": "bright_black", "medium": "bright_black"}


@click.command()
@click.argument("rulesets", nargs=-1)
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON document {\"schema\": \"verify.contradictions/2\", \"findings\": [...]}.")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(list(KINDS)),
              help="Only findings of this kind (repeatable).")
@click.option("--witnesses", "witness_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Also write each witness the engine played as a trace file in this folder "
                   "(`verify replay FILE` plays it again).")
@output_option
def command(rulesets: tuple[str, ...], as_json: bool, kinds: tuple[str, ...], witness_dir: Path | None) -> None:
    """Compare RULESETS (default: every bundled ruleset, and each overlay on the default one).

    Each finding is a contradiction (sources presenting the same game state different rules), internal
    (one source states a quantity twice, differently), ambiguous (an entry whose words allow other
    readings: each reading, and what the other rulebooks say), assumed (a difference resting on a value
    a source does not state), medium (a difference that exists because one game is played on a board
    and the other online), silent (one side leaves the question open), variant (a mode or house rule
    differs on purpose) or redundancy (a clause implied by others, proved by z3). Each side says what it
    rests on (cited, assumed, silent, open, not applicable). Differences in meaning carry a witness: a
    situation and what the reference engine plays in it for each side (--witnesses DIR writes each as a
    trace file `verify replay` plays again), or UNKNOWN with the reason.

    One RULESET alone (e.g. your table, my-table.yaml) shows its changes against what it extends
    (variant) and, for each, where the rulebooks' base games rule otherwise (contradiction).
    """
    if len(rulesets) == 1:
        result = compare_table(load_registry(), rulesets[0])
    else:
        result = compare(list(rulesets) or None)
    findings = [f for f in result.findings if not kinds or f.kind in kinds]
    if witness_dir is not None:
        written = write(findings, witness_dir)
        if not as_json:
            click.echo(f"{len(written)} witness file(s) written to {witness_dir}", err=True)
    if as_json:
        click.echo(json.dumps(document(findings), ensure_ascii=False, indent=2))
        return
    topic = None
    for f in findings:
        if f.topic != topic:
            topic = f.topic
            click.secho(f"\n== {topic} ==", bold=True)
        click.secho(f"[{f.kind}] {f.id}", fg=_COLOUR.get(f.kind, "green"))
        click.echo(f"  {f.summary}")
        for s in f.sides:
            echo_side(s)
        for s in f.related:
            click.echo(f"    elsewhere, {s.ruleset}: {show(s.value) if s.kind in ('cited', 'assumed') else s.kind}")
        echo_witness(f.witness)
        for c in f.consequences:
            click.echo(f"  consequence {c.id}: {c.summary}")
    counts = {k: sum(1 for f in findings if f.kind == k) for k in KINDS}
    click.echo("\n" + ", ".join(f"{v} {k}" for k, v in counts.items())
               + f" across {len(result.rulesets)} ruleset(s)")
