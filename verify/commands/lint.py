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

    PATHS are ruleset files or folders (every .yaml file under a folder); none: the bundled
    rulesets. Exit status 0 only when clean.
    """
    files: list[Path] = []
    for p in paths:
        if p.is_dir():                      # every ruleset file under a folder of one's own
            found = sorted(f for f in p.rglob("*") if f.suffix in (".yaml", ".yml") and f.is_file())
            if not found:
                raise click.BadParameter(f"{p}: the folder holds no .yaml file", param_hint="PATHS")
            files += found
        elif p.is_file():
            files.append(p)
        else:
            raise click.BadParameter(f"{p}: no such file or folder", param_hint="PATHS")
    ids, errors = lint(files or None)
    for err in errors:
        click.echo(str(err), err=True)
    if errors:
        click.echo(f"{len(errors)} problem(s); {len(ids)} ruleset(s) checked", err=True)
        sys.exit(1)
    click.echo(f"clean: {len(ids)} ruleset(s)")
