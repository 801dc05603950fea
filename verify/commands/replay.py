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
    """Re-check every step of TRACE (JSON Lines from `verify simulate --trace`).

    Values the trace was played with (``--set`` in its header) are applied again; --set here
    adds to or overrides them. A ruleset with an open value nobody supplied is refused (E020)."""
    from ..config import EngineConfig
    from ..engine.rules import rules_for
    from ..engine.trace import InvariantChecker, TraceError, read_trace, replay_game
    from ..spec import load_ruleset
    from ..spec.open_values import require_supplied, supply

    name = str(trace)
    games = steps = 0
    problems: list[str] = []
    with trace.open(encoding="utf-8") as fh:
        for header, records in read_trace(fh, name):
            rid = ruleset or header.get("ruleset")
            if not rid:
                raise TraceError("the trace header names no ruleset; pass --ruleset", Location(name, 1))
            r = supply(load_ruleset(rid), {**_header_set(header, name), **settings})
            require_supplied(r, "replay")
            cfg = EngineConfig.from_ruleset(r)
            checker = None if no_invariants else InvariantChecker(cfg, r.promised())
            k, found = replay_game(cfg, rules_for(cfg), header, records, name, checker,
                                   stop_at_first=not all_problems)
            games += 1
            steps += k
            problems.extend(found)
    if games == 0:
        raise TraceError("the trace holds no game", Location(name))
    if as_json:
        click.echo(json.dumps({"trace": name, "games": games, "steps": steps, "ok": not problems,
                               "problems": problems}))
    else:
        for p in problems:
            click.echo(p, err=True)
        click.echo(f"{name}: {games} game(s), {steps} step(s) checked: "
                   + ("every step follows the rules" if not problems else f"{len(problems)} problem(s)"))
    sys.exit(1 if problems else 0)


def _header_set(header: dict, name: str) -> dict:
    values = header.get("set") or {}
    if not isinstance(values, dict):
        from ..engine.trace import TraceError
        raise TraceError("the trace header's 'set' must map parameters to values", Location(name, 1))
    return values


__all__ = ["command", "VerifyError"]
