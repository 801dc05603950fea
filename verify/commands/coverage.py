"""``verify coverage``: which sentences of each rulebook are cited, waived or uncovered."""

from __future__ import annotations

import json
import sys

import click

from ..spec.coverage import coverage
from ..spec.registry import Registry


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def command(as_json: bool) -> None:
    """For each source, its normative sentences and whether each is cited or waived."""
    reg = Registry.load(strict=False)
    for err in reg.errors:
        click.echo(str(err), err=True)
    result = coverage(reg)
    if as_json:
        click.echo(json.dumps({"sources": [c.to_json() for c in result]}, ensure_ascii=False, indent=2))
    else:
        for c in result:
            click.echo(f"{c.source}: {c.sentences} sentences, {c.cited} cited, {c.waived} waived, "
                       f"{len(c.uncovered)} uncovered")
            for s in c.uncovered:
                click.echo(f"  line {s.line}: {s.text}")
    if reg.errors or any(c.uncovered for c in result):
        sys.exit(1)
