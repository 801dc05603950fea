"""``verify show RULESET``: every resolved value with its provenance."""

from __future__ import annotations

import json

import click

from ..spec.open_values import supply
from ..spec.readings import with_readings
from .ruleset_options import reading_option, set_option
from ..spec.registry import load_ruleset


@click.command()
@click.argument("ruleset")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--area", default=None, help="Only parameters of this catalogue area (e.g. jail).")
@reading_option
@set_option
def command(ruleset: str, as_json: bool, area: str | None, readings: tuple[str, ...], settings: dict) -> None:
    """The resolved values of RULESET (an id, a file, base+overlay, or RULESET@READING) with quote,
    gloss or reason, and each entry's alternative readings."""
    r = supply(load_ruleset(with_readings(ruleset, readings)), settings)
    cat = r.catalogue
    if as_json:
        out = {"id": r.id, "title": r.title, "chain": list(r.chain), "sources": list(r.sources),
               "promises": r.promised(), "readings": list(r.readings_applied),
               "supplied": dict(r.supplied),
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
    if r.readings_applied:
        con.print(f"readings: {', '.join(r.readings_applied)}")
    if r.supplied:
        con.print("supplied with --set: " + ", ".join(f"{escape(k)}={escape(repr(v))}" for k, v in r.supplied))
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
            if e.reading:
                con.print(f"    [blue]read as {escape(e.reading)}[/blue] (chosen with @{escape(e.reading)}; "
                          "without it the ruleset plays its own value)")
            for rd in e.readings:
                mark = "→ " if rd.name == e.reading else ""
                con.print(f"    [blue]{mark}reading {escape(rd.name)}[/blue]: {escape(repr(rd.value))} — "
                          f"{escape(rd.gloss)}" + (f" [dim]({escape(rd.why)})[/dim]" if rd.why else ""))
