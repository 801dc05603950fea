"""``verify replay``: re-check a recorded trace against the rules and the invariants.

Every action is re-applied to the previous state through the step API and
the result compared with the recorded state; the invariants the ruleset
promises are evaluated on every state and step. Exit status 0 only when the
whole trace follows the rules.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ..errors import Location, VerifyError
from ..config import EngineConfig
from ..engine.engines import rules_for
from ..engine.trace import InvariantChecker, TraceError, open_trace, read_games, replay_game
from ..spec import load_ruleset
from ..spec.registry import is_path
from ..spec.open_values import require_supplied, supply
from ..spec.played import announce
from .ruleset_options import set_option


@click.command()
@click.argument("trace", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--ruleset", default=None, help="Check against this ruleset instead of the one in the trace header.")
@click.option("--no-invariants", is_flag=True, help="Only re-apply the actions; skip invariant checks.")
@click.option("--all", "all_problems", is_flag=True, help="Report every problem, not only the first per game.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@set_option
def command(trace: Path, ruleset: str | None, no_invariants: bool, all_problems: bool, as_json: bool,
            settings: dict) -> None:
    """Re-check every step of TRACE (JSON Lines from `verify simulate --trace`, plain or .gz).

    Values the trace was played with (``--set`` in its header) are applied again; --set here
    adds to or overrides them. A ruleset with an open value nobody supplied is refused (E020).
    A trace cut short (a run killed while writing) is reported as truncated: the steps before
    the cut are checked, and the exit status is 1, without calling the missing part a violation.
    """
    name = str(trace)
    games = steps = 0
    problems: list[str] = []
    truncated = None
    with open_trace(trace) as fh:
        for game in read_games(fh, name):
            header = game.header
            rid = ruleset or _recorded(header, trace) or header.get("ruleset")
            if not rid:
                raise TraceError("the trace header names no ruleset; pass --ruleset", Location(name, 1))
            r = supply(_load(rid, header, ruleset is None, name), {**_header_set(header, name), **settings})
            require_supplied(r, "replay")
            if games == 0 and not as_json:
                announce(r)
            cfg = EngineConfig.from_ruleset(r)
            recorded = header.get("config_hash")
            if ruleset and recorded and recorded != cfg.hash():
                raise click.BadParameter(
                    f"{ruleset} compiles to config {cfg.hash()}, but game {header.get('game', games)} was "
                    f"recorded with {header.get('ruleset')!r} (config {recorded}): no step can be checked "
                    "against it", param_hint="--ruleset")
            checker = None if no_invariants else InvariantChecker(cfg, r.promised())
            k, found = replay_game(cfg, rules_for(cfg), header, game.steps, name, checker,
                                   stop_at_first=not all_problems)
            games += 1
            steps += k
            problems.extend(found)
            if game.truncated:
                truncated = {"game": header.get("game", games - 1), "why": game.truncated}
    if games == 0:
        raise TraceError("the trace holds no game", Location(name))
    if steps == 0 and not problems:
        raise TraceError("no step was checked: the trace holds game headers only", Location(name))
    ok = not problems and truncated is None
    if as_json:
        click.echo(json.dumps({"trace": name, "games": games, "steps": steps, "ok": ok,
                               "problems": problems, "truncated": truncated}))
    else:
        for p in problems:
            click.echo(p, err=True)
        verdict = ("every step follows the rules" if not problems else f"{len(problems)} problem(s)")
        if truncated:
            verdict += (f"; TRUNCATED: the trace was cut short in game {truncated['game']} "
                        f"({truncated['why']}), so the rest of that game was never recorded")
        click.echo(f"{name}: {games} game(s), {steps} step(s) checked: {verdict}")
    sys.exit(0 if ok else 1)


def _recorded(header: dict, trace: Path) -> str | None:
    """The ruleset files a trace was recorded from (relative to the trace's folder), as paths to read."""
    files = header.get("ruleset_files")
    if not isinstance(files, str) or not files:
        return None
    folder = Path(trace).parent
    return "+".join(str(folder / p) if is_path(p) else p for p in files.split("+"))


def _load(rid: str, header: dict, from_header: bool, name: str):
    """Resolve the ruleset a game names; a table file that is gone is one error saying what to do."""
    try:
        return load_ruleset(rid)
    except VerifyError as exc:
        if not from_header or exc.code != "E011":
            raise
        was = header.get("ruleset_files") or header.get("ruleset")
        raise TraceError(f"game {header.get('game', 0)} was recorded with ruleset {was!r}, which cannot be "
                         f"found from here ({exc.message}); pass the ruleset file with --ruleset FILE",
                         Location(name, 1)) from None


def _header_set(header: dict, name: str) -> dict:
    values = header.get("set") or {}
    if not isinstance(values, dict):
        raise TraceError("the trace header's 'set' must map parameters to values", Location(name, 1))
    return values


__all__ = ["command", "VerifyError"]
