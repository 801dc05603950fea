"""``verify simulate``: play seeded games of a ruleset with bots and summarise them.

The games are a campaign of seeded chunks run by the execution layer
(``verify.execute``): ``--jobs N`` local processes or ``--scheduler`` a Dask
cluster, ``--resume DIR`` keeps every finished chunk and continues; per-game
seeds derive from ``--seed`` and the game's index, so the summary is the same
however the games are run. ``--trace FILE`` writes every game as JSON Lines
(in this process; ``verify replay`` re-checks it); ``--check-invariants``
evaluates the invariants the ruleset promises after every action and stops at
the first violation, printing the action, its events and the state.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import click

from ..execute.options import campaign_options, execute
from ..output import atomic_file
from ..spec import DEFAULT_RULESET, load_ruleset
from ..spec.open_values import require_supplied, supply
from ..spec.played import announce, table_values
from ..spec.registry import is_path
from ..spec.readings import with_readings
from ..config import EngineConfig
from ..engine.campaign import CampaignSpec, Row, games_campaign, Tally
from ..engine.engines import rules_for
from ..engine.policies import make_policies
from ..engine.simulate import game_seed, play_game
from .options import output_file_callback, players_for
from .ruleset_options import reading_option, set_option

#: fields of a summary that measure time, not the games (they differ between runs)
TIMING = ("elapsed_s", "player_turns_per_s", "cpu_s")


@click.command()
@click.argument("ruleset", required=False, default=DEFAULT_RULESET)
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--players", "-p", default=None, type=int,
              help="Players per game [default: 4, or the nearest count the ruleset allows].")
@click.option("--seed", "-s", default=0, show_default=True, type=int)
@campaign_options()
@click.option("--policy", type=click.Choice(["heuristic", "random"]), default="heuristic", show_default=True)
@click.option("--jail-strategy", "jail", type=click.Choice(["leave", "stay"]), default="leave", show_default=True)
@click.option("--max-turns", default=2000, show_default=True, type=click.IntRange(min=1),
              help="A game stops (and counts as hitting a limit) after this many player-turns.")
@click.option("--check-invariants", is_flag=True,
              help="Evaluate the promised invariants after every action; stop at the first violation.")
@click.option("--trace", "trace", type=click.Path(dir_okay=False, path_type=Path), default=None,
              callback=output_file_callback,
              help="Write every game as a JSON Lines trace (runs in one process; a name ending in .gz "
                   "is compressed).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@reading_option
@set_option
def command(ruleset, games, players, seed, jobs, scheduler, resume, policy, jail, max_turns, check_invariants,
            trace, as_json, readings, settings):
    """Play GAMES seeded games of RULESET (default: official) and summarise them.

    A ruleset with an open value (set by a host or the players) is refused until the value is
    supplied: --set PARAM=VALUE or an overlay file (RULESET+my-table.yaml)."""
    r = load_ruleset(with_readings(ruleset, readings))
    if r.is_overlay:
        raise click.UsageError(f"{ruleset} is an overlay; stack it on a ruleset, e.g. {DEFAULT_RULESET}+{ruleset}")
    r = supply(r, settings)
    require_supplied(r, "play")
    played = table_values(r) if as_json else announce(r)     # a fallback is never played without a word
    cfg = EngineConfig.from_ruleset(r)
    players = players_for(cfg, r.id, players)
    spec = CampaignSpec(cfg, players, seed, policy, jail, max_turns,
                        tuple(r.promised()) if check_invariants else None)
    if trace is not None:
        if scheduler or resume or (jobs or 1) > 1:
            raise click.UsageError("--trace writes one file from this process; drop --jobs/--scheduler/--resume")
        doc, elapsed = _traced(r.id, spec, games, trace, dict(r.supplied),
                               recorded_name(with_readings(ruleset, readings), trace))
    else:
        rules_for(cfg)                     # refuse an unplayable ruleset before starting workers
        out = execute(games_campaign([Row(r.id, spec, games)]), jobs, scheduler, resume)
        doc, elapsed = out.result[0], out.elapsed_s
    doc["elapsed_s"] = round(elapsed, 3)
    doc["player_turns_per_s"] = round(doc["player_turns"] / elapsed, 1) if elapsed > 0 else None
    if doc["violation"] is not None:
        _report_violation(r.id, doc["violation"], as_json)
        sys.exit(1)
    if not check_invariants:
        doc.pop("violation")
    if played:
        doc["table_values"] = [v.to_json() for v in played]
    if as_json:
        click.echo(json.dumps(doc))
    else:
        _print_summary(doc)


def recorded_name(name: str, trace: Path) -> str | None:
    """``name`` as ``verify replay`` finds it again: each file in it as a path relative to the trace's
    folder (a table of one's own travels with its trace); None when it names bundled rulesets only."""
    parts = name.split("+")
    if not any(is_path(p) for p in parts):
        return None
    folder = Path(trace).resolve().parent
    return "+".join(Path(os.path.relpath(Path(p).resolve(), folder)).as_posix() if is_path(p) else p
                    for p in parts)


def _traced(rid: str, spec, games: int, trace: Path, supplied: dict,
            name: str | None = None) -> tuple[dict, float]:
    """Every game written to ``trace``, in this process, with the same tally as a campaign."""
    from ..engine.trace import TRACE_SCHEMA, InvariantBroken, InvariantChecker, TraceRecorder  # (a traced run)
    rules = rules_for(spec.config)
    checker = InvariantChecker(spec.config, spec.check) if spec.check is not None else None
    tally = Tally(spec.players, spec.config.board.size)
    t0 = time.perf_counter()
    with atomic_file(trace) as out:
        for i in range(games):
            s = game_seed(spec.seed, i)
            header = {"trace": TRACE_SCHEMA, "state_schema": "verify.state/1", "ruleset": rid,
                      "config_hash": spec.config.hash(), "seed": s, "campaign_seed": spec.seed, "game": i,
                      "players": spec.players, "policy": spec.policy, "jail": spec.jail}
            if supplied:
                header["set"] = supplied         # --set values: replay applies them again
            if name:
                header["ruleset_files"] = name   # a table's files, relative to the trace: replay reads them
            try:
                tally.add(play_game(rules, make_policies(spec.policy, spec.players, spec.jail, s), s,
                                    spec.max_turns, TraceRecorder(out, header, checker)))
            except InvariantBroken as exc:
                tally.violation = dict(exc.report(), game=i, seed=s)
                break
    return tally.summary(rid, spec, games), time.perf_counter() - t0


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
    top = sorted(range(len(d["landings"])), key=lambda i: -d["landings"][i])[:5]
    e("most landed:           " + ", ".join(f"{i} ({100 * d['landings'][i] / total:.1f}%)" for i in top))
    e(f"elapsed {d['elapsed_s']} s ({d['player_turns_per_s']} player-turns/s)")
