"""``verify simulate``: play seeded games of a ruleset with bots and summarise them.

Per-game seeds derive from ``--seed`` and the game's index, so the summary is
the same for any ``--jobs``. ``--trace FILE`` writes every game as JSON Lines
(``verify replay`` re-checks it); ``--check-invariants`` evaluates the
invariants the ruleset promises after every action and stops at the first
violation, printing the action, its events and the state.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import GameError
from ..spec import DEFAULT_RULESET, load_ruleset
from ..spec.open_values import require_supplied, supply
from ..spec.readings import with_readings
from .ruleset_options import reading_option, set_option


@click.command()
@click.argument("ruleset", required=False, default=DEFAULT_RULESET)
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--players", "-p", default=None, type=int,
              help="Players per game [default: 4, or the nearest count the ruleset allows].")
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@click.option("--jobs", "-j", default=1, show_default=True, type=click.IntRange(min=1),
              help="Worker processes (the result does not depend on it).")
@click.option("--policy", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True)
@click.option("--jail-strategy", "jail", type=click.Choice(["leave", "stay"]), default="leave", show_default=True)
@click.option("--max-turns", default=2000, show_default=True, type=click.IntRange(min=1),
              help="A game stops (and counts as hitting a limit) after this many player-turns.")
@click.option("--check-invariants", is_flag=True,
              help="Evaluate the promised invariants after every action; stop at the first violation.")
@click.option("--trace", "trace", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write every game as a JSON Lines trace (runs in one process).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@reading_option
@set_option
def command(ruleset, games, players, seed, jobs, policy, jail, max_turns, check_invariants, trace, as_json,
            readings, settings):
    """Play GAMES seeded games of RULESET (default: official) and summarise them.

    A ruleset with an open value (set by a host or the players) is refused until the value is
    supplied: --set PARAM=VALUE or an overlay file (RULESET+my-table.yaml)."""
    from ..config import EngineConfig
    from ..engine.simulate import CampaignSpec, Summary, game_seed, play_game, run_campaign
    from ..engine.policies import make_policies
    from ..engine.rules import rules_for
    from ..engine.trace import TRACE_SCHEMA, InvariantBroken, InvariantChecker, TraceRecorder

    r = load_ruleset(with_readings(ruleset, readings))
    if r.is_overlay:
        raise click.UsageError(f"{ruleset} is an overlay; stack it on a ruleset, e.g. {DEFAULT_RULESET}+{ruleset}")
    r = supply(r, settings)
    require_supplied(r, "play")
    cfg = EngineConfig.from_ruleset(r)
    lo, hi = cfg.setup.players_min, cfg.setup.players_max
    if players is None:
        players = min(max(4, lo), hi)
        if cfg.teams.enabled and players % cfg.teams.size:
            players += cfg.teams.size - players % cfg.teams.size
    if not lo <= players <= hi:
        raise GameError(f"{r.id} is played by {lo} to {hi} players; --players {players} is outside that range")
    if cfg.teams.enabled and players % cfg.teams.size:
        raise GameError(f"{r.id} is played in teams of {cfg.teams.size}; --players must be a multiple of it")
    spec = CampaignSpec(cfg, players, seed, policy, jail, max_turns,
                        tuple(r.promised()) if check_invariants else None)
    progress, finish = _progress(games, as_json)
    if trace is None:
        summary = run_campaign(spec, games, r.id, jobs, progress)
        if summary.violation is not None:
            finish()
            _report_violation(r.id, summary.violation, as_json)
            sys.exit(1)
    else:
        import time
        rules = rules_for(cfg)
        checker = InvariantChecker(cfg, r.promised()) if check_invariants else None
        summary = Summary(r.id, games, players, seed, policy, jail)
        t0 = time.perf_counter()
        with trace.open("w", encoding="utf-8") as out:
            for i in range(games):
                s = game_seed(seed, i)
                header = {"trace": TRACE_SCHEMA, "state_schema": "verify.state/1", "ruleset": r.id,
                          "config_hash": cfg.hash(), "seed": s, "campaign_seed": seed, "game": i,
                          "players": players, "policy": policy, "jail": jail}
                if r.supplied:
                    header["set"] = dict(r.supplied)
                rec = TraceRecorder(out, header, checker)
                try:
                    summary.results.append(play_game(rules, make_policies(policy, players, jail, s), s,
                                                     max_turns, rec))
                except InvariantBroken as exc:
                    out.flush()
                    finish()
                    _report_violation(r.id, dict(exc.report(), game=i, seed=s), as_json)
                    sys.exit(1)
                progress(1)
        summary.elapsed_s = time.perf_counter() - t0
    finish()
    doc = summary.to_json()
    if check_invariants:
        doc["invariants_checked"] = r.promised()
    if as_json:
        click.echo(json.dumps(doc))
    else:
        _print_summary(doc)


def _progress(total: int, quiet: bool):
    if not sys.stderr.isatty():
        return (lambda k: None), (lambda: None)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    from rich.console import Console
    bar = Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                   TimeRemainingColumn(), console=Console(stderr=True), transient=True)
    bar.start()
    task = bar.add_task("games", total=total)
    return (lambda k: bar.advance(task, k)), bar.stop


def _report_violation(rid: str, bad: dict, as_json: bool) -> None:
    if as_json:
        click.echo(json.dumps({"ruleset": rid, "game": bad["game"], "seed": bad["seed"], "violation": bad}))
        return
    click.echo(f"invariant violated in {rid}, game {bad['game']} (seed {bad['seed']}), step {bad['step']}:", err=True)
    for v in bad["violations"]:
        click.echo(f"  {v}", err=True)
    click.echo(f"action: {json.dumps(bad['action'])}", err=True)
    click.echo(f"events: {json.dumps(bad['events'])}", err=True)
    click.echo(f"state:  {json.dumps(bad['state'])}", err=True)


def _print_summary(d: dict) -> None:
    e = click.echo
    e(f"ruleset {d['ruleset']}: {d['games']} games, {d['players']} players, seed {d['seed']}, "
      f"policy {d['policy']} (jail: {d['jail_strategy']})")
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(d["end_reasons"].items()))
    e(f"finished {d['finished']}, hit the turn limit {d['hit_limit']}  ({reasons})")
    t, r = d["turns"], d["rolls_per_game"]
    e(f"player-turns per game: mean {t['mean']}, median {t['median']}, p90 {t['p90']}   (total {d['player_turns']})")
    e(f"rolls per game:        mean {r['mean']}, median {r['median']}, p90 {r['p90']}   (total {d['rolls']})")
    e("wins by seat:          " + ", ".join(f"{i}: {w}" for i, w in enumerate(d["wins"])))
    e("bankruptcies by seat:  " + ", ".join(f"{i}: {w}" for i, w in enumerate(d["bankruptcies"])))
    total = sum(d["landings"]) or 1
    top = sorted(range(40), key=lambda i: -d["landings"][i])[:5]
    e("most landed:           " + ", ".join(f"{i} ({100 * d['landings'][i] / total:.1f}%)" for i in top))
    e(f"elapsed {d['elapsed_s']} s ({d['player_turns_per_s']} player-turns/s)")
