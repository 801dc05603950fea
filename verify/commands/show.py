"""``verify show RULESET``: every resolved value with its provenance.

A user's own file (a table) is labelled as such, with the files it builds on,
and its values (assumed ones above all) are credited to the table, never to
the rulebook it extends."""

from __future__ import annotations

import json

import click

from ..spec.open_values import supply
from ..spec.readings import with_readings
from ..spec.registry import load_ruleset, registry
from .options import area_callback
from .ruleset_options import reading_option, set_option


@click.command()
@click.argument("ruleset")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--area", default=None, callback=area_callback,
              help="Only parameters of this catalogue area (e.g. jail).")
@reading_option
@set_option
def command(ruleset: str, as_json: bool, area: str | None, readings: tuple[str, ...], settings: dict) -> None:
    """The resolved values of RULESET (an id, a file, base+overlay, or RULESET@READING) with quote,
    gloss or reason, and each entry's alternative readings."""
    r = supply(load_ruleset(with_readings(ruleset, readings)), settings)
    cat = r.catalogue
    reg = registry()
    #: the user's own files in the chain (id -> path): the table, and the files of theirs it extends
    yours = {fid: str(reg.files[fid].path) for fid in r.chain if fid in reg.files and not reg.is_bundled(fid)}
    if as_json:
        out = {"id": r.id, "title": r.title, "chain": list(r.chain), "your_files": yours, "sources": list(r.sources),
               "promises": r.promised(), "promised_by": {inv: r.promised_by.get(inv) for inv in r.promised()},
               "description": _description(reg, r),
               "extra_rules": [{"file": fid, "text": text, "played": False, "checked": False}
                               for fid, text in r.extra_rules],
               "readings": list(r.readings_applied),
               "supplied": dict(r.supplied),
               "rules": {pid: (r.entries[pid].to_json() if pid in r.entries else
                               {"kind": "undecided", "fallback": r.value(pid)})
                         for pid in cat.parameters if area in (None, cat[pid].area)}}
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.markup import escape

    def by(fid: str) -> str:
        return f"your table {fid}" if fid in yours else fid

    con = Console()
    if yours:
        table = [f for f in r.chain if f in yours][-1]
        under = [f"{f} (your file {yours[f]})" if f in yours else f"{f} (a rulebook's ruleset)"
                 for f in reversed(r.chain) if f != table]
        con.print(f"[bold green]your table[/bold green] {escape(table)} ({escape(yours[table])})"
                  + (f", built on {escape(' and '.join(under))}" if under else ""))
    con.print(f"[bold]{escape(r.id)}[/bold] — {escape(r.title)}")
    if _description(reg, r):
        con.print(escape(_description(reg, r)))
    con.print(f"chain: {' -> '.join(escape(by(f)) for f in r.chain)}   sources: {', '.join(r.sources)}")
    con.print("promises: " + (", ".join(f"{inv} ({by(r.promised_by.get(inv, r.chain[-1]))})" for inv in r.promised())
                              or "none") + "  [dim](drop one with promises: {ID: false})[/dim]")
    for fid, text in r.extra_rules:
        con.print(f"[bold]extra rule[/bold] [yellow](not played, not checked)[/yellow]: {escape(text)}  "
                  f"[dim]({escape(by(fid))})[/dim]")
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
            where = f"[dim]{escape(str(e.where))} ({escape(by(e.ruleset))})[/dim]"
            if e.kind == "cited":
                con.print(f"[bold]{p.id}[/bold] = {escape(repr(e.value))}  {where}")
                for q in e.quotes:
                    con.print(f"    «{escape(q)}» [dim]{e.source}[/dim]")
                con.print(f"    [italic]{escape(e.gloss or '')}[/italic]")
            elif e.kind == "assumed":
                con.print(f"[bold]{p.id}[/bold] = {escape(repr(e.value))} [yellow]assumed"
                          f"{' by your table' if e.ruleset in yours else ''}[/yellow]: "
                          f"{escape(e.reason or '')}  {where}")
            elif e.kind == "silent":
                con.print(f"[bold]{p.id}[/bold] [magenta]silent[/magenta]"
                          f"{': ' + escape(e.reason) if e.reason else ''} (engine uses {r.value(p.id)!r})  {where}")
            else:
                words = f"«{escape(' … '.join(e.quotes))}»" if e.quotes else "in your table's own words"
                con.print(f"[bold]{p.id}[/bold] [cyan]open[/cyan] ({escape(e.reason or '')}): {words}"
                          f" (supply it with --set {p.id}=VALUE to play)  {where}")
            for c in e.claims:
                con.print(f"    claim [{'green' if c.stated else 'yellow'}]{escape(c.evidence)}[/]: {escape(c.says)}"
                          + (f" [dim](settles {escape(c.settles)})[/dim]" if c.settles else ""))
                for q in c.quotes:
                    con.print(f"        «{escape(q)}»" + (f" [italic]{escape(' '.join(c.gloss.split()))}[/italic]"
                                                          if c.gloss else ""))
                if c.why or c.borrowed_from:
                    con.print("        [dim]" + escape(" ".join(filter(None, (
                        f"from {c.borrowed_from}:" if c.borrowed_from else None,
                        " ".join((c.why or "").split()))))) + "[/dim]")
            if e.note:
                con.print(f"    [dim]note: {escape(' '.join(e.note.split()))}[/dim]")
            if e.reading:
                con.print(f"    [blue]read as {escape(e.reading)}[/blue] (chosen with @{escape(e.reading)}; "
                          "without it the ruleset plays its own value)")
            for rd in e.readings:
                mark = "→ " if rd.name == e.reading else ""
                con.print(f"    [blue]{mark}reading {escape(rd.name)}[/blue]: {escape(repr(rd.value))} — "
                          f"{escape(rd.gloss)}" + (f" [dim]({escape(rd.why)})[/dim]" if rd.why else ""))


def _description(reg, r) -> str | None:
    """The ``description`` of the ruleset's own (last) file, in one paragraph."""
    f = reg.files.get(r.chain[-1])
    text = f.description if f is not None else None
    return " ".join(text.split()) if isinstance(text, str) and text.strip() else None
