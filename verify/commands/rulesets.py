"""``verify rulesets``: list the bundled rulesets and overlays."""

from __future__ import annotations

import json

import click

from ..spec.registry import DEFAULT_RULESET, registry


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def command(as_json: bool) -> None:
    """The bundled rulesets: id, title, sources and what each extends."""
    reg = registry()
    rows = []
    for rid in reg.bundled_ids():        # (not a user's table an earlier command of this process read)
        f = reg.files[rid]
        resolved = reg.resolve(rid)
        rows.append({"id": rid, "title": f.title, "kind": f.kind, "sources": list(resolved.sources),
                     "extends": list(f.extends)})
    if as_json:
        click.echo(json.dumps({"default": DEFAULT_RULESET, "rulesets": rows}, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"Bundled rulesets (default: {DEFAULT_RULESET}; stack overlays with +)")
    for col in ("id", "kind", "title", "extends", "sources"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"] + (" *" if r["id"] == DEFAULT_RULESET else ""), r["kind"], r["title"],
                      ", ".join(r["extends"]), ", ".join(r["sources"]))
    Console().print(table)
