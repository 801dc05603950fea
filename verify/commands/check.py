"""``verify check``: prove or refute every invariant of every ruleset with z3, action by action.

Exit status 0 only when every promised check is PROVED; a VIOLATED check
prints its counterexample as a scenario, an UNKNOWN one its reason.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict

import click

from ..output import output_option
from .options import JOBS, SECONDS
from .ruleset_options import set_option

_MARK = {"PROVED": ("✓", "green"), "VIOLATED": ("✗", "red"), "UNKNOWN": ("?", "yellow")}
#: Short column heads for the summary table (the legend under it spells them out).
_SHORT = {"constraints": "cons", "(enabled)": "live", "even-build": "even", "house-supply": "hsup",
          "hotel-supply": "tsup", "building-limits": "lim", "buildings-need-full-group": "full",
          "buildings-need-unmortgaged-group": "unmg", "cash-nonnegative": "cash", "single-owner": "own",
          "bankruptcy-transfer": "bkrt", "money-conservation": "mon",
          "bounded:house-shortage-reachable": "shrt", "bounded:bankruptcy-reachable": "bkrr",
          "bounded:no-building-from-nothing": "nobf"}


@click.command()
@click.argument("rulesets", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document: {\"results\": [...]}.")
@click.option("--timeout", "timeout", type=SECONDS, default=10.0, show_default=True,
              help="Seconds the solver may spend on one query (a timeout gives UNKNOWN).")
@click.option("--jobs", "-j", type=JOBS, default=None, help="Worker processes (default: up to 2).")
@click.option("--matrix", is_flag=True, help="Also print each ruleset's invariants x actions grid.")
@click.option("--action", "actions", multiple=True,
              help="Only these actions (repeatable; skips the bounded runs). `--action help` lists them.")
@click.option("--invariant", "invariants", multiple=True, help="Only report these invariants (repeatable).")
@click.option("--all-counterexamples", is_flag=True,
              help="Print a scenario for every violated cell, promised or not (default: promised ones).")
@output_option
@set_option
def command(rulesets: tuple[str, ...], as_json: bool, timeout: float, jobs: int | None, matrix: bool,
            actions: tuple[str, ...], invariants: tuple[str, ...], all_counterexamples: bool,
            settings: dict) -> None:
    """Check RULESETS (ids, files, or stacks like official+house-no-auction; all bundled when none).

    For each ruleset: the cross-parameter constraints; for every action and every
    invariant, the inductive step (invariants and guard before, transition,
    invariant after) as PROVED, VIOLATED with a counterexample, or UNKNOWN; every
    action enabled in some state (else a dead rule); bounded runs (a house
    shortage and a bankruptcy are reachable, no building from nothing).
    """
    from ..smt.actions import ACTIONS
    from ..smt.run import check

    if "help" in actions:
        for a in ACTIONS:
            click.echo(f"{a.name:24s} {a.title}")
        return
    if invariants:
        from ..invariants import by_id
        by_id(invariants)          # unknown ids: E013 with a suggestion
    t0 = time.perf_counter()
    results = check(list(rulesets), timeout_s=timeout, jobs=jobs, actions=actions, settings=settings)
    if invariants:
        results = [r for r in results if r.invariant in invariants]
    elapsed = time.perf_counter() - t0
    failed = [r for r in results if r.promised and r.verdict.value != "PROVED"]
    if as_json:
        click.echo(json.dumps({"results": [r.to_json() for r in results],
                               "summary": {"checks": len(results), "promised_failed": len(failed),
                                           "elapsed_s": round(elapsed, 2)}}, ensure_ascii=False))
    else:
        _render(results, elapsed, matrix, all_counterexamples)
    sys.exit(1 if failed else 0)


def _render(results, elapsed: float, matrix: bool, all_cex: bool) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    rulesets = list(dict.fromkeys(r.ruleset for r in results))
    columns = list(dict.fromkeys(r.invariant for r in results if not r.invariant.startswith("constraint:")))
    # (enabled) first, then the invariants in file order, then the bounded runs
    columns.sort(key=lambda c: (c != "(enabled)", c.startswith("bounded:")))
    checks = ["constraints"] + columns
    wide = console.width >= 34 + 4 * len(rulesets)
    table = Table(title="verify check: invariants x rulesets (each cell over every action)", padding=(0, 1))
    table.add_column("check", no_wrap=True)
    for i, _rid in enumerate(rulesets, 1):
        table.add_column(str(i), justify="center", no_wrap=True)
    cells = defaultdict(list)
    for r in results:
        key = "constraints" if r.invariant.startswith("constraint:") else r.invariant
        cells[(r.ruleset, key)].append(r)
    for c in checks:
        label = c if wide else _SHORT.get(c, c[:4])
        table.add_row(label, *[_cell(cells.get((rid, c), [])) for rid in rulesets])
    console.print(table)
    console.print("rulesets: " + "  ".join(f"{i}={rid}" for i, rid in enumerate(rulesets, 1)), highlight=False)
    if not wide:
        console.print("[dim]" + " · ".join(f"{_SHORT.get(c, c[:4])}={c}" for c in checks) + "[/]")
    console.print("[dim]✓ every check PROVED · ✗n n VIOLATED · ?n n UNKNOWN · dim: not promised by the ruleset; "
                  "(enabled) = every action enabled in some state, else a dead rule[/]")
    if matrix:
        for rid in rulesets:
            _grid(console, rid, [r for r in results if r.ruleset == rid and ":" not in r.invariant])
    shown = 0
    for r in results:
        if r.verdict.value == "VIOLATED" and r.counterexample and (r.promised or all_cex):
            console.rule(f"[red]{r.ruleset}: {r.invariant} VIOLATED by {r.action}[/]")
            for line in r.counterexample.get("scenario") or []:
                console.print(line, markup=False, highlight=False)
            shown += 1
    for r in results:
        if r.promised and r.verdict.value != "PROVED" and not r.counterexample:
            console.print(f"[yellow]{r.ruleset}: {r.invariant} / {r.action}: {r.verdict.value}[/] "
                          f"— {r.reason or ''}", highlight=False)
    _open_values(console, results)
    totals = Counter(r.verdict.value for r in results)
    promised_failed = sum(1 for r in results if r.promised and r.verdict.value != "PROVED")
    console.print(f"{len(results)} checks on {len(rulesets)} ruleset(s) in {elapsed:.1f} s: "
                  + ", ".join(f"{n} {v}" for v, n in sorted(totals.items()))
                  + (f"; [red]{promised_failed} promised check(s) not proved[/]" if promised_failed
                     else "; [green]every promised check PROVED[/]"))


def _open_values(console, results) -> None:
    """How each ruleset's open values (host- or player-set, none supplied) were checked."""
    notes: dict[str, dict[str, None]] = defaultdict(dict)
    for r in results:
        for text in r.open_values:
            notes[r.ruleset][text] = None
    for rid, texts in notes.items():
        console.print(f"[cyan]{rid}: open values[/] (supply one with --set PARAM=VALUE):", highlight=False)
        for text in texts:
            console.print(f"  {text}", markup=False, highlight=False)


def _cell(rows) -> str:
    if not rows:
        return "—"
    promised = any(r.promised for r in rows)
    c = Counter(r.verdict.value for r in rows if r.promised or not promised)
    if c["VIOLATED"]:
        text = f"[red]✗{c['VIOLATED']}[/]"
    elif c["UNKNOWN"]:
        text = f"[yellow]?{c['UNKNOWN']}[/]"
    else:
        text = "[green]✓[/]"
    return text if promised else f"[dim]{_plain(text)}[/]"


def _plain(text: str) -> str:
    import re
    return re.sub(r"\[/?[a-z ]*\]", "", text)


def _grid(console, rid: str, rows) -> None:
    from rich.table import Table
    actions = list(dict.fromkeys(r.action for r in rows))
    invs = list(dict.fromkeys(r.invariant for r in rows))
    t = Table(title=f"{rid}: invariants x actions", show_lines=False)
    t.add_column("invariant", no_wrap=True)
    for i, _ in enumerate(actions, 1):
        t.add_column(str(i), justify="center")
    by = {(r.invariant, r.action): r for r in rows}
    for inv in invs:
        line = [inv]
        for a in actions:
            r = by.get((inv, a))
            if r is None:
                line.append("·")
                continue
            mark, colour = _MARK[r.verdict.value]
            line.append(f"[{colour}]{mark}[/]" if r.promised else f"[dim]{mark}[/]")
        t.add_row(*line)
    console.print(t)
    console.print("[dim]" + "  ".join(f"{i}={a}" for i, a in enumerate(actions, 1)) + "[/]")
