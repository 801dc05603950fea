"""``verify check``: prove or refute every invariant of every ruleset with z3, action by action.

Exit status 0 only when every promised check is PROVED or a consequence of another that is not; a
VIOLATED check prints the run from a game's start that breaks it (``--runs DIR`` writes each as a
trace ``verify replay`` plays again), an UNKNOWN one its reason.
"""

from __future__ import annotations

import difflib
import json
import sys
import time
from pathlib import Path

import click

from ..execute.options import campaign_options, cli_errors
from ..output import output_option
from ..invariants import load_invariants
from ..report.matrix import build_matrix
from ..report.terminal import print_check
from ..config import EngineConfig
from ..runs import traces
from ..runs.check import check
from ..smt.reach import DEFAULT_DEPTH
from ..smt.transitions import ALIASES, TRANSITIONS
from ..spec import DEFAULT_RULESET, load_ruleset
from ..spec.open_values import supply
from ..spec.played import announce
from ..spec.registry import registry
from .options import SECONDS
from .ruleset_options import set_option
from .simulate import recorded_name


@click.command()
@click.argument("rulesets", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document: {\"results\": [...]}.")
@click.option("--timeout", "timeout", type=SECONDS, default=10.0, show_default=True,
              help="Seconds the solver may spend on one query (a timeout gives UNKNOWN).")
@campaign_options(jobs_help="Worker processes [default: up to 2; with --scheduler local, one per CPU].")
@click.option("--matrix", is_flag=True, help="Also print each ruleset's invariants x actions grid.")
@click.option("--action", "actions", multiple=True,
              help="Only these actions (repeatable; skips the bounded runs). `--action help` lists them.")
@click.option("--invariant", "invariants", multiple=True, help="Only report these invariants (repeatable).")
@click.option("--all-counterexamples", is_flag=True,
              help="Print a scenario for every violated cell, promised or not (default: promised ones).")
@click.option("--depth", type=click.IntRange(0, 40), default=DEFAULT_DEPTH, show_default=True,
              help="The longest run from a game's start searched for a refuted check, in moves before the "
                   "breaking one (deeper runs take longer).")
@click.option("--runs", "runs_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write each VIOLATED check's run from a game's start as a trace `verify replay` plays.")
@output_option
@set_option
def command(rulesets: tuple[str, ...], as_json: bool, timeout: float, jobs: int | None, scheduler: str | None,
            resume, matrix: bool, actions: tuple[str, ...], invariants: tuple[str, ...],
            all_counterexamples: bool, depth: int, runs_dir: Path | None, settings: dict) -> None:
    """Check RULESETS (ids, files, or stacks like official+house-no-auction; all bundled when none).

    For each ruleset: the cross-parameter constraints; for every action and every
    invariant, the inductive step (invariants and guard before, transition,
    invariant after) as PROVED, VIOLATED with a counterexample, or UNKNOWN; every
    action enabled in some state (else a dead rule); bounded runs (a house
    shortage and a bankruptcy are reachable, no building from nothing).
    """
    if "help" in actions:
        for a in TRANSITIONS:
            click.echo(f"{a.name:24s} {a.title}  [{a.link}]")
        return
    actions = tuple(_current(a) for a in actions)
    _known("--action", actions, [a.name for a in TRANSITIONS])
    if invariants:
        _known("--invariant", invariants, [i.id for i in load_invariants()])
    named = _named(rulesets, settings)
    if not as_json:
        for r in named:
            announce(r, checking=True)
    t0 = time.perf_counter()
    with cli_errors():
        results = check(list(rulesets), timeout_s=timeout, jobs=jobs, actions=actions, settings=settings,
                        scheduler=scheduler, resume=resume, progress=True, depth=depth)
    if invariants:
        results = [r for r in results if r.invariant in invariants]
    elapsed = time.perf_counter() - t0
    failed = build_matrix([r.to_json() for r in results]).promised_failures()
    if as_json:
        click.echo(json.dumps({"results": [r.to_json() for r in results],
                               "summary": {"checks": len(results), "promised_failed": len(failed),
                                           "elapsed_s": round(elapsed, 2)}}, ensure_ascii=False))
    else:
        print_check([r.to_json() for r in results], elapsed, matrix, all_counterexamples)
        _promise_notes(named, failed)
    if runs_dir is not None:
        _write_runs([r.to_json() for r in results], runs_dir, rulesets, settings, as_json)
    sys.exit(1 if failed else 0)


def _write_runs(results: list[dict], folder: Path, names, settings: dict, quiet: bool) -> None:
    """Each VIOLATED check's run as a trace in ``folder`` (a table's files recorded relative to it, so
    ``verify replay`` finds them from anywhere)."""
    given = {r.id: (name, r) for name, r in zip(names, _named(names, settings))}
    configs: dict[str, EngineConfig] = {}
    written = []
    for r in results:
        run = (r.get("counterexample") or {}).get("run") if r.get("verdict") == "VIOLATED" else None
        if not run:
            continue
        rid = r["ruleset"]
        name, ruleset = given.get(rid) or (rid, None)
        if rid not in configs:
            configs[rid] = EngineConfig.from_ruleset(ruleset or _named([rid], settings)[0])
        extra: dict = {"set": dict(settings)} if settings else {}
        files = recorded_name(name, folder / "trace.jsonl")
        if files:
            extra["ruleset_files"] = files
        written.append(traces.write(configs[rid], r, folder, extra))
    if not quiet:
        for path in written:
            click.echo(f"run written: {path}  (verify replay {path})")


def _current(name: str) -> str:
    """A transition's name now, for one it had before (said on stderr: the old name still works)."""
    new = ALIASES.get(name)
    if new is None:
        return name
    click.echo(f"verify: --action {name} is deprecated: the action is called {new} now", err=True)
    return new


def _known(option: str, given, known: list[str]) -> None:
    """A name the option does not know is a usage error (exit 2) naming the option, with a suggestion."""
    for name in given:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise click.BadParameter(f"unknown name {name!r}{hint}; one of: {', '.join(known)}",
                                     param_hint=option)


def _named(names, settings: dict) -> list:
    """The rulesets named on the command line, resolved as the check resolves them."""
    out = []
    for name in names:
        r = load_ruleset(name)
        out.append(supply(load_ruleset(f"{DEFAULT_RULESET}+{name}") if r.is_overlay else r, settings))
    return out


def _promise_notes(named: list, failed: list[dict]) -> None:
    """For each failed promise a ruleset inherits, where it comes from and how a table drops it."""
    reg = registry()
    for r in named:
        own = reg.files.get(r.chain[-1])
        path = str(own.path) if own is not None and not reg.is_bundled(own.id) else None
        for inv in dict.fromkeys(f["invariant"] for f in failed if f["ruleset"] == r.id):
            note = r.promise_note(inv, path)
            if note:
                click.echo(note)
