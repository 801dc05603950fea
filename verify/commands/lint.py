"""``verify lint``: every check on the bundled rulesets or the given files."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..spec.lint import lint


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
def command(paths: tuple[Path, ...]) -> None:
    """Check rulesets: YAML, parameters, types, quotes, extends, constraints, completeness.

    Exit status 0 only when clean.
    """
    for p in paths:
        if not p.is_file():
            click.echo(f"{p}: [E011] no such file", err=True)
            sys.exit(2)
    ids, errors = lint(list(paths) or None)
    for err in errors:
        click.echo(str(err), err=True)
    if errors:
        click.echo(f"{len(errors)} problem(s); {len(ids)} ruleset(s) checked", err=True)
        sys.exit(1)
    click.echo(f"clean: {len(ids)} ruleset(s)")
