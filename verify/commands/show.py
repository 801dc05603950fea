"""``verify show RULESET``: every resolved value with its provenance."""

from __future__ import annotations

import json

import click

from ..spec.registry import load_ruleset
from .options import area_callback


@click.command()
@click.argument("ruleset")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--area", default=None, callback=area_callback,
              help="Only parameters of this catalogue area (e.g. jail).")
def command(ruleset: str, as_json: bool, area: str | None) -> None:
    """The resolved values of RULESET (an id, a file, or base+overlay) with quote, gloss or reason."""
    r = load_ruleset(ruleset)
    cat = r.catalogue
    if as_json:
        out = {"id": r.id, "title": r.title, "chain": list(r.chain), "sources": list(r.sources),
               "promises": r.promised(),
               "rules": {pid: (r.entries[pid].to_json() if pid in r.entries else
                               {"kind": "undecided", "fallback": r.value(pid)})
                         for pid in cat.parameters if area in (None, cat[pid].area)}}
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.markup import escape

    con = Console()
    con.print(f"[bold]{escape(r.id)}[/bold] — {escape(r.title)}")
    con.print(f"chain: {' -> '.join(r.chain)}   sources: {', '.join(r.sources)}")
    con.print(f"promises: {', '.join(r.promised()) or 'none'}")
    for area_id, params in cat.by_area().items():
        if area not in (None, area_id):
            continue
        con.rule(area_id)
        for p in params:
            e = r.entries.get(p.id)
            if e is None:
                con.print(f"[red]{p.id}[/red] undecided (engine uses {r.value(p.id)!r})")
                continue
            where = f"[dim]{e.where} ({e.ruleset})[/dim]"
            if e.kind == "cited":
                con.print(f"[bold]{p.id}[/bold] = {escape(repr(e.value))}  {where}")
                for q in e.quotes:
                    con.print(f"    «{escape(q)}» [dim]{e.source}[/dim]")
                con.print(f"    [italic]{escape(e.gloss or '')}[/italic]")
            elif e.kind == "assumed":
                con.print(f"[bold]{p.id}[/bold] = {escape(repr(e.value))} [yellow]assumed[/yellow]: "
                          f"{escape(e.reason or '')}  {where}")
            elif e.kind == "silent":
                con.print(f"[bold]{p.id}[/bold] [magenta]silent[/magenta]"
                          f"{': ' + escape(e.reason) if e.reason else ''} (engine uses {r.value(p.id)!r})  {where}")
            else:
                con.print(f"[bold]{p.id}[/bold] [cyan]open[/cyan] ({escape(e.reason or '')}): "
                          f"«{escape(' … '.join(e.quotes))}»  {where}")
