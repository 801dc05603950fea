"""``verify diff [BASE] TABLE``: what a table changes against what it extends, rulebooks beside it.

A group writing its house rules wants to see exactly what they changed and
what each rulebook says on those points; this prints that, one parameter at
a time, with a witness where the change alters play.
"""

from __future__ import annotations

import json

import click

from ..compare.from_rulesets import load_registry
from ..compare.table import diff_table
from ..report.terminal import echo_side, echo_witness, value_text


@click.command()
@click.argument("names", nargs=-1, required=True, metavar="[BASE] TABLE")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def command(names: tuple[str, ...], as_json: bool) -> None:
    """Show what TABLE (an id, a file, or a stack like official+my-rules.yaml) changes against BASE
    (default: what it extends; an overlay alone is read on the default ruleset), each change with
    the base's and the table's evidence, a witness situation, and every rulebook's own ruling."""
    if len(names) > 2:
        raise click.UsageError("give at most two rulesets: [BASE] TABLE")
    base, table = (names[0], names[1]) if len(names) == 2 else (None, names[0])
    reg = load_registry()
    d = diff_table(reg, table, base)
    if as_json:
        click.echo(json.dumps(d.to_json(), ensure_ascii=False, indent=2))
        return
    titles = {a.id: a.title for a in reg.catalogue.areas}
    click.secho(f"{d.table.id} against {d.base.id}: {len(d.changes)} change(s)", bold=True)
    f = reg.files.get(d.table.chain[-1])
    if f is not None and isinstance(f.description, str) and f.description.strip():
        click.echo(" ".join(f.description.split()))
    area = None
    for c in d.changes:
        if c.area != area:
            area = c.area
            click.secho(f"\n== {titles.get(area, area)} ==", bold=True)
        click.secho(f"{c.param}", fg="cyan", nl=False)
        click.echo(f" — {c.question}")
        echo_side(c.base, "  ")
        echo_side(c.table, "  ")
        echo_witness(c.finding.witness)
        if c.rulebooks:
            click.echo("  the rulebooks:")
            for s in c.rulebooks:
                echo_side(s, "    ")
    if d.same:
        click.secho("\nstated as the base rules them (no change):", bold=True)
        for x in d.same:
            click.echo(f"  {x.param} = {value_text(x.table)}")
    if d.extra_rules:
        click.secho("\nrules in the table's own words (not played, not checked):", bold=True)
        for fid, text in d.extra_rules:
            click.echo(f"  - {text} ({fid})")
    if not d.changes and not d.extra_rules:
        click.echo("no change: every parameter rules as in the base")
