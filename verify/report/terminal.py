"""Terminal writers shared by the commands: a side's ruling with its evidence, and its origin.

``verify contradictions`` and ``verify diff`` print the same thing for a
ruling (value, quote, gloss or the reason it was assumed, and which file set
it), so they print it here, once.
"""

from __future__ import annotations

import click

from ..compare.model import Side
from ..compare.values import show
from ..spec.played import as_written
from .findings import outcome_text
from .matrix import build_matrix, role, scenario_lines, LIVE


def value_text(s: Side) -> str:
    if s.kind in ("cited", "assumed"):
        text = show(s.value)
        if s.scale != 1 and s.normalized is not None and s.normalized != s.value:
            text += f" (= {show(s.normalized)} classic)"
        return text
    return s.kind.replace("_", " ")


def origin_text(s: Side) -> str:
    """Who rules it: the rulebook quoted, or the table (file) that set it."""
    set_by = s.origin if s.origin and s.origin != s.ruleset.split("+")[-1] else None
    bits = [f"set in {set_by}"] if set_by else []
    if s.source:
        bits.append(s.source)
    return f" ({', '.join(bits)})" if bits else ""


def echo_side(s: Side, indent: str = "    ", label: str | None = None) -> None:
    """One ruling: ``label: value`` then the quote and gloss, or the assumed/silent/open reason."""
    name = label or (f"{s.ruleset}@{s.reading}" if getattr(s, "reading", None) else s.ruleset)
    head = f"{indent}{name}{origin_text(s)}: {value_text(s)}"
    point = getattr(s, "point", None)
    if point and point.get("evidence") not in ("stated", "assumed"):
        head += f" [where the rulings part: {point['evidence']} — {point.get('says', '')}]"
    if s.kind == "cited" and s.quotes:
        click.echo(head)
        for q in s.quotes:
            click.echo(f"{indent}    «{q}»")
        if s.gloss:
            click.echo(f"{indent}    {s.gloss}")
    elif s.gloss:
        gloss = s.gloss.removeprefix(value_text(s) + ": ")     # "not applicable: not applicable: ..." once
        click.echo(f"{head} — {s.kind}: {gloss}" if s.kind in ("cited", "assumed") else f"{head}: {gloss}")
    else:
        click.echo(head)


def echo_witness(w, indent: str = "  ") -> None:
    if w is None:
        return
    if w.method in ("smt", "engine", "direct"):
        how = {"smt": "situation found by the SMT layer, played by the engine",
               "engine": "played by the engine", "direct": "the rulings themselves"}[w.method]
        click.echo(f"{indent}witness ({how}): {w.question}")
        if w.verdict == "UNKNOWN":
            click.echo(f"{indent}  UNKNOWN: {w.detail}")
            return
        if w.method == "direct" and w.detail:
            click.echo(f"{indent}  ({w.detail})")
        click.echo(f"{indent}  situation: {w.situation_text}")
        for o in w.outcomes:
            text = f"{o.text}: {o.why}" if getattr(o, "why", None) else outcome_text(o)
            click.echo(f"{indent}  {o.ruleset} (its own game): {text}" if w.method != "direct"
                       else f"{indent}  {o.ruleset}: {text}")
        one = getattr(w, "one_value", None)
        if one is not None:
            click.echo(f"{indent}  one value only: {one.why}")
            for o in one.outcomes:
                click.echo(f"{indent}    {o.ruleset}'s value in {one.game}'s game: {outcome_text(o)}")
        for rid, pid, value in getattr(w, "assumed", ()):
            click.echo(f"{indent}  (supplied: {rid} leaves {pid} open; played with {as_written(value)})")
        unstated = [u for u in getattr(w, "unstated", ()) if u["evidence"] != "supplied"]
        if unstated:
            click.echo(f"{indent}  read, not quoted: " + "; ".join(
                f"{u['ruleset']} {u['param']} = {show(u['value'])} ({u['evidence']})" for u in unstated))
    elif w.method == "proof":
        click.echo(f"{indent}{w.verdict}: {w.detail}")


# --- verify check: the summary grid and the per-ruleset grids, readable in 80 columns ---------------

#: Short row labels when the full ones do not fit (the legend under the grid spells them out).
SHORT = {"parameter constraints": "cons", "rules can fire": "live", "even-build": "even",
         "house-supply": "hsup", "hotel-supply": "tsup", "building-limits": "lim",
         "buildings-need-full-group": "full", "buildings-need-unmortgaged-group": "unmg",
         "cash-nonnegative": "cash", "single-owner": "own", "bankruptcy-transfer": "bkrt",
         "money-conservation": "mon", "hotel-after-full-houses": "htl", "split-group-buildings": "splt",
         "bounded runs": "bnd"}
_STYLE = {"PROVED": "green", "VIOLATED": "red", "UNKNOWN": "yellow", "DEAD": "magenta", "HOLDS": "dim",
          "FAILS": "dim", "NONE": "dim", "CONSEQUENCE": "dark_orange", "UNREACHED": "dim"}
LEGEND = ("✓ every promised check PROVED · ✗n: n promised checks VIOLATED · ?n: n UNKNOWN · "
          "↳n: n VIOLATED only as consequences of another break · "
          "†n: n dead rules (actions that can never fire) · ○n: n rules not shown live nor dead · "
          "not promised: · holds, ~n: n do not hold")


def _short(label: str) -> str:
    return SHORT.get(label, label[:4])


def _chunks(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), max(1, size))] or [[]]


def _grid(console, title: str, rows: list[tuple[str, list[tuple[str, str]]]], heads: list[str],
          cell_w: int) -> None:
    """Rows of (label, [(text, style)]) under numbered column heads, split into blocks of columns
    so that no line is wider than the console."""
    from rich.markup import escape
    width = max(40, console.width)
    full = max([len(label) for label, _ in rows] + [5])
    label_w = full if full + cell_w * min(len(heads), 6) <= width else 5
    per_block = max(1, (width - label_w - 1) // cell_w)
    console.print(title, highlight=False)
    for block in _chunks(list(range(len(heads))), per_block):
        console.print(" " * label_w + "".join(heads[i].rjust(cell_w) for i in block), style="bold",
                      highlight=False)
        for label, cells in rows:
            shown = label if label_w >= len(label) else _short(label)
            line = escape(shown.ljust(label_w))
            for i in block:
                text, style = cells[i]
                line += f"[{style}]{escape(text.rjust(cell_w))}[/]"
            console.print(line, highlight=False)
    if label_w < full:
        console.print("[dim]" + escape(" · ".join(f"{_short(label)}={label}" for label, _ in rows)) + "[/]",
                      highlight=False)


def print_check(results: list[dict], elapsed: float, matrix: bool = False, all_counterexamples: bool = False,
                console=None) -> None:
    """The ``verify check`` text output: one grid of checks × rulesets (promised, dead, not promised
    kept apart), per-ruleset invariants × actions grids with ``--matrix``, counterexamples, totals."""
    from rich.console import Console


    console = console or Console()
    m = build_matrix(results)
    rows = [(col, [(m.cells.get((rid, col)).short if (rid, col) in m.cells else "—",
                    _STYLE[m.cells[(rid, col)].state] if (rid, col) in m.cells else "dim")
                   for rid in m.rulesets]) for col in m.columns]
    _grid(console, "verify check: checks × rulesets (each cell over every action)", rows,
          [str(i) for i in range(1, len(m.rulesets) + 1)], 4)
    console.print("rulesets: " + "  ".join(f"{i}={rid}" for i, rid in enumerate(m.rulesets, 1)), highlight=False)
    console.print(f"[dim]{LEGEND}[/]", highlight=False)
    number = {rid: i for i, rid in enumerate(m.rulesets, 1)}
    same: dict[tuple, list[int]] = {}
    for rid, rs in m.dead_rules().items():
        same.setdefault(tuple(str(r.get("action")) for r in rs), []).append(number[rid])
    for actions, nums in same.items():
        console.print(f"[magenta]† dead rules in {', '.join(map(str, nums))}:[/] {', '.join(actions)}",
                      highlight=False)
    for rid, rs in m.unreached_rules().items():
        for r in rs:
            console.print(f"[dim]○ {number[rid]}: {r.get('action')} not shown live nor dead — {r.get('reason') or ''}[/]",
                          highlight=False)
    if matrix:
        for rid in m.rulesets:
            _action_grid(console, rid, [r for r in m.results if r.get("ruleset") == rid])
    for r in m.results:
        kind = role(r)
        if r.get("verdict") == "VIOLATED" and r.get("counterexample") and (
                kind in ("promised", "consequence") or (all_counterexamples and kind == "informational")):
            colour = {"promised": "red", "consequence": "dark_orange"}.get(kind, "dim")
            note = {"promised": "", "consequence": " (a consequence)"}.get(kind, " (not promised)")
            console.rule(f"[{colour}]{r['ruleset']}: {r['invariant']} VIOLATED by {r['action']}{note}[/]")
            for line in scenario_lines(r):
                console.print(line, markup=False, highlight=False)
    for r in m.promised_failures():
        if r.get("invariant") == LIVE:          # an action of the ruleset that no state allows
            console.print(f"[red]{r['ruleset']}: {r['action']} can never fire[/], though the ruleset has it "
                          f"— {r.get('reason') or ''}", highlight=False)
        elif not r.get("counterexample"):
            console.print(f"[yellow]{r['ruleset']}: {r['invariant']} / {r['action']}: {r['verdict']}[/] "
                          f"— {r.get('reason') or ''}", highlight=False)
    _open_values(console, m.results)
    totals = m.totals()
    failed = len(m.promised_failures())
    parts = [f"promised: {', '.join(f'{n} {v}' for v, n in sorted(totals['promised'].items())) or 'none'}"]
    if totals["consequence"]:
        parts.append(f"{sum(totals['consequence'].values())} VIOLATED as consequence(s) of those")
    if totals["dead"]:
        parts.append(f"{sum(totals['dead'].values())} dead rule(s)")
    if totals["unreached"]:
        parts.append(f"{sum(totals['unreached'].values())} rule(s) not shown live nor dead")
    if totals["informational"]:
        parts.append("not promised: " + ", ".join(f"{n} {v}" for v, n in sorted(totals["informational"].items())))
    console.print(f"{len(m.results)} checks on {len(m.rulesets)} ruleset(s) in {elapsed:.1f} s — "
                  + "; ".join(parts)
                  + (f"; [red]{failed} promised check(s) not proved[/]" if failed
                     else "; [green]every promised check PROVED[/]"), highlight=False)


def _open_values(console, results: list[dict]) -> None:
    """How each ruleset's open values (host- or player-set, none supplied) were checked."""
    notes: dict[str, dict[str, None]] = {}
    for r in results:
        for text in r.get("open_values") or ():
            notes.setdefault(r["ruleset"], {})[text] = None
    for rid, texts in notes.items():
        console.print(f"[cyan]{rid}: open values[/] (supply one with --set PARAM=VALUE):", highlight=False)
        for text in texts:
            console.print(f"  {text}", markup=False, highlight=False)


def _action_grid(console, rid: str, rows: list[dict]) -> None:
    """One ruleset: actions (rows) × invariants (numbered columns); a dead action is flagged, its
    vacuous verdicts greyed."""
    live = {r.get("action"): r for r in rows if r.get("invariant") == LIVE}
    invs = list(dict.fromkeys(str(r.get("invariant")) for r in rows
                              if ":" not in str(r.get("invariant")) and r.get("invariant") != LIVE))
    actions = list(dict.fromkeys(str(r.get("action")) for r in rows if ":" not in str(r.get("invariant"))))
    by = {(r.get("invariant"), r.get("action")): r for r in rows}
    mark = {"PROVED": "✓", "VIOLATED": "✗", "UNKNOWN": "?"}
    out = []
    for a in actions:
        is_dead = live.get(a, {}).get("verdict") == "VIOLATED"
        cells = []
        for inv in invs:
            r = by.get((inv, a))
            if is_dead:
                cells.append(("-", "dim"))
            elif r is None:
                cells.append(("·", "dim"))
            else:
                v = str(r.get("verdict"))
                style = {"PROVED": "green", "VIOLATED": "red", "UNKNOWN": "yellow"}.get(v, "")
                cells.append((mark.get(v, "?"), style if r.get("promised") else "dim"))
        out.append((a + (" †dead" if is_dead else ""), cells))
    console.print()
    _grid(console, f"{rid}: actions × invariants (dim: not promised; †dead: the action can never fire, "
          "its checks are vacuous)", out, [str(i) for i in range(1, len(invs) + 1)], 3)
    console.print("[dim]" + "  ".join(f"{i}={inv}" for i, inv in enumerate(invs, 1)) + "[/]", highlight=False)
