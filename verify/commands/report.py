"""``verify report [TABLE...]``: the full HTML report for the bundled rulesets (the README's main job),
led by the user's own tables when any are given."""

from __future__ import annotations

from pathlib import Path

import click

from ..report import ReportOptions, build
from .options import POSITIVE, report_dir_callback
from .ruleset_options import set_option


@click.command()
@click.argument("tables", nargs=-1)
@click.option("--out", type=click.Path(path_type=Path), default=Path("reports"), show_default=True,
              callback=report_dir_callback,
              help="Folder to write; replaced as a whole only when the new report is complete.")
@click.option("--games", default=30, show_default=True, type=POSITIVE, help="Simulated games per ruleset.")
@click.option("--seed", default=1, show_default=True, help="Seed of the simulations.")
@click.option("--effect-games", default=300, show_default=True, type=click.IntRange(min=0),
              help="Games per answer when measuring what each answer to a question a table decides changes "
                   "(game length, money in play) on official; 0: not measured.")
@click.option("--no-check", is_flag=True, help="Skip `verify check` (the matrix page says 'not run').")
@click.option("--no-simulate", is_flag=True, help="Skip the simulations (the page says 'not run').")
@click.option("--check-json", type=click.Path(path_type=Path, exists=True, dir_okay=False), default=None,
              help="Use a saved `verify check --json` output instead of running the check.")
@click.option("--study", type=click.Path(path_type=Path, exists=True), default=None,
              help="Add a balance study page: the study.json (or its folder) written by `verify study`.")
@click.option("--conform", "conform", type=click.Path(path_type=Path, exists=True), multiple=True,
              help="Add a conformance page: a folder written by `verify conform --html DIR` (or its "
                   "conform.json); repeatable, one section per run.")
@set_option
def command(tables: tuple[str, ...], out: Path, games: int, seed: int, effect_games: int, no_check: bool,
            no_simulate: bool,
            check_json: Path | None, study: Path | None, conform: tuple[Path, ...], settings: dict) -> None:
    """Write the HTML report: overview, one page per ruleset, findings by topic with witnesses,
    clarification questions side by side, a rulings sheet, the verification matrix, simulation
    charts, (with --study) a balance study and (with --conform) engine conformance runs. TABLES (your ruleset files, ids or stacks like
    official+my-rules.yaml) join the bundled rulesets with the files they extend and lead the report.
    Self-contained pages; a failed run leaves the previous report untouched. --set PARAM=VALUE gives
    each of your TABLES a value (an open one above all), as `verify simulate --set` does."""
    if settings and not tables:
        raise click.UsageError("--set gives a value to your tables: name one, e.g. "
                               "`verify report our-table.yaml --set setup.starting_cash=2000`")
    summary = build(ReportOptions(out=out, games=games, seed=seed, run_check=not no_check,
                                  run_simulation=not no_simulate, check_json=check_json, tables=tables,
                                  study=study, conform=conform, settings=tuple(settings.items()),
                                  effect_games=effect_games))
    mine = summary["tables_counts"]
    counts = ", ".join(f"{n} {k}" + (f" ({mine[k]} of them your tables')" if mine.get(k) else "")
                       for k, n in summary["counts"].items())
    click.echo(f"wrote {len(summary['pages'])} pages and {len(summary['witnesses'])} witness trace files to "
               f"{summary['out']} in {summary['elapsed_s']} s"
               + (f"; led by {', '.join(summary['tables'])}" if summary["tables"] else ""))
    click.echo(f"findings: {counts}; check: {summary['check']}; simulation: {summary['simulation']} "
               f"({summary['games']} games per ruleset"
               + (f"; not played, open values: {', '.join(summary['not_played'])}" if summary["not_played"] else "")
               + ")")
