"""``verify study``: compare how rulesets play (balance), on many seeded games, as JSON and an HTML page.

Each ruleset (ids, files, stacks such as ``official+house-no-auction``; an
overlay alone is stacked on the default ruleset) plays the same seeded games
(game i has the same dice seed under every ruleset). The games are one
campaign for the execution layer: ``--jobs``, ``--scheduler``, ``--resume``
work as for ``verify simulate`` and the study is the same however it ran.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..execute.options import campaign_options, execute
from ..config import EngineConfig
from ..engine.campaign import CampaignSpec, Row, Tally, by_row, games_campaign
from ..engine.engines import rules_for
from ..spec import DEFAULT_RULESET, load_ruleset
from ..study import analysis
from ..study.collect import StudyCollector, merge_collected
from .options import players_for
from ..spec.open_values import require_supplied, supply
from ..spec.played import announce
from .options import output_files_callback
from .ruleset_options import set_option


@click.command()
@click.argument("rulesets", nargs=-1, required=True)
@click.option("--games", "-n", default=1000, show_default=True, type=click.IntRange(min=1),
              help="Games per ruleset.")
@click.option("--players", "-p", default=None, type=click.IntRange(min=2),
              help="Players per game [default: 4, or the nearest count each ruleset allows].")
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@click.option("--policy", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True)
@click.option("--max-turns", default=2000, show_default=True, type=click.IntRange(min=1),
              help="A game still running after this many player-turns counts as stalled.")
@campaign_options()
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("study"), show_default=True,
              callback=output_files_callback("study.json", "study.html"), is_eager=False,
              help="Folder for study.json and study.html (each written atomically).")
@click.option("--json", "as_json", is_flag=True, help="Print the study document on stdout.")
@set_option
def command(rulesets, games, players, seed, policy, max_turns, jobs, scheduler, resume, out, as_json, settings):
    """Play GAMES seeded games of each of RULESETS and compare them: game length, stalls, win share by seat
    (95 % Wilson intervals), bankruptcies, houses and the bank's stock over time, money in play, the first
    complete colour group. --set gives every one of RULESETS the value (an open value above all)."""
    from ..study.page import write_study

    rows, titles, scales = [], {}, {}
    for name in rulesets:
        r = load_ruleset(name)
        if r.is_overlay:
            r = load_ruleset(f"{DEFAULT_RULESET}+{name}")
        r = supply(r, settings)
        require_supplied(r, "play")             # an open value is never played silently (E020)
        if not as_json:
            announce(r)                         # nor a fallback without a word
        if r.id in titles:
            raise click.UsageError(f"{r.id} is named twice")
        cfg = EngineConfig.from_ruleset(r)
        rules_for(cfg)                          # refuse an unplayable ruleset before any game (E018)
        spec = CampaignSpec(cfg, players_for(cfg, r.id, players), seed, policy, "leave", max_turns)
        rows.append(Row(r.id, spec, games))
        titles[r.id] = r.title
        scales[r.id] = r.money_scale

    def merge(results: list[dict]) -> list[dict]:
        grouped = by_row(rows, results)
        return [analysis.row(row.label, titles[row.label], row.spec, row.games,
                             Tally.merge([x["tally"] for x in grouped[row.label]]),
                             merge_collected([x["collected"] for x in grouped[row.label]]), scales[row.label])
                for row in rows]

    outcome = execute(games_campaign(rows, "study", StudyCollector, merge), jobs, scheduler, resume)
    doc = analysis.document(outcome.result, games, seed, policy, players)
    doc["elapsed_s"] = round(outcome.elapsed_s, 3)
    paths = write_study(doc, out)
    if as_json:
        click.echo(json.dumps(doc))
        return
    _print(doc)
    click.echo(f"wrote {paths[0]} and {paths[1]}")


def _pct(s: dict) -> str:
    return "—" if s["share"] is None else f"{100 * s['share']:.1f}% [{100 * s['lo']:.1f}, {100 * s['hi']:.1f}]"


def _print(doc: dict) -> None:
    e = click.echo
    e(f"{doc['games']} games per ruleset, seed {doc['seed']}, {doc['policy']} bots; shares with 95% Wilson "
      f"intervals")
    for r in doc["rows"]:
        ln, fg = r["length"], r["first_group"]
        e(f"{r['ruleset']} ({r['players']} players)")
        e(f"  length (player-turns): median {ln['median']}, p10 {ln['p10']}, p90 {ln['p90']}, mean {ln['mean']}")
        e(f"  stalled at the {r['max_turns']}-turn cap: {_pct(r['outcomes']['stalled'])}; ended by a rule limit: "
          f"{_pct(r['outcomes']['rule_limit'])}")
        e(f"  first player wins: {_pct(r['seats'][0])} (fair share {100 * r['fair_share']:.1f}%)")
        e(f"  bankruptcies per game: {r['bankruptcies']['per_game']}; first complete colour group: median turn "
          f"{fg['median']}, never in {_pct(fg['share_never'])}")
