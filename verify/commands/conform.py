"""``verify conform``: drive an engine through generated scenarios and check every step against a ruleset.

Exit status 0 when no step departs from the ruleset, 1 with any violation
(each printed as its shrunk scenario and saved as a replayable JSON file) or
on bad input (E026, E015, E020: one line, from ``verify.cli``), 2 on a usage error. ``--replay FILE`` re-runs one
saved scenario. The scenarios are a campaign of seeded chunks run by the execution layer (``verify.execute``:
``--jobs N``, ``--scheduler``, ``--resume``, progress over the campaign); the result does not depend on how.
A ruleset with an open value is refused (E020) until ``--set PARAM=VALUE`` or an overlay supplies it.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path

import click

from ..conform.trace_check import Budget, check_log, text
from ..execute.options import campaign_options
from ..conform import baseline as baselines
from ..conform.harness import conform, load_target, replay
from ..conform.render import junit, run_text
from ..conform.scenario_file import load, save
from ..conform.transport import EngineSpec
from ..engine.engines import rules_for
from ..spec.open_values import playable
from ..spec.played import announce
from ..spec.readings import with_readings
from ..output import write_text
from .options import output_path_callback
from .ruleset_options import reading_option, set_option


@click.command()
@click.option("--engine", "engine", metavar="MODULE:CLASS", help="An in-process engine class (protocol 1).")
@click.option("--engine-cmd", "engine_cmd", metavar="CMD",
              help="A command that speaks protocol 1 as JSON Lines on stdin/stdout.")
@click.option("--ruleset", default="official", show_default=True, metavar="RULESET",
              help="The ruleset the engine must follow (an id, a file, or a stack like official+house-no-auction).")
@click.option("--examples", type=click.IntRange(min=1), default=500, show_default=True,
              help="Scenarios to check (each generated from the seed and checked step by step).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the run (the same seed gives the same scenarios).")
@click.option("--step-timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Seconds an engine may take to answer one request.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@click.option("--junit", "junit_file", type=click.Path(dir_okay=False, path_type=Path), callback=output_path_callback,
              help="Write a JUnit XML report (for CI).")
@click.option("--html", "html_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Write an HTML report and conform.json into this folder (replaced as a whole); "
                   "`verify report --conform DIR` adds it to the main report.")
@click.option("--replay", "replay_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Re-run one saved scenario file instead of generating scenarios.")
@click.option("--validate-trace", "trace_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Check an engine's own game log (verify.game-log/1) instead of driving an engine: every "
                   "logged transition must be explained by legal actions of the ruleset.")
@click.option("--trace-states", type=click.IntRange(min=1), default=600, show_default=True,
              help="States the search explores for one logged transition (--validate-trace).")
@click.option("--scenarios", "scenario_dir", type=click.Path(file_okay=False, path_type=Path),
              default=Path("conform-scenarios"), show_default=True,
              help="Where failing scenarios are saved (only when there are some).")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Accepted causes (a file --write-baseline wrote): exit 0 unless a cause it lacks appears or an "
                   "accepted one changes its effect.")
@click.option("--write-baseline", "write_baseline", type=click.Path(dir_okay=False, path_type=Path),
              help="Write every cause of this run into FILE as accepted (atomically) and exit 0.")
@click.option("--prune-baseline", is_flag=True,
              help="Drop from the --baseline file the accepted causes this run did not meet.")
@click.option("--strict", is_flag=True,
              help="Deviations that rest only on a value the rulebook leaves silent (or that was assumed) "
                   "fail the run too.")
@campaign_options()
@reading_option
@set_option
def command(engine, engine_cmd, ruleset, examples, seed, step_timeout, as_json, junit_file, html_dir,
            replay_file, trace_file, trace_states, scenario_dir, baseline_file, write_baseline, prune_baseline, strict,
            jobs, scheduler, resume, readings, settings) -> None:
    """Check an engine step by step against RULESET; each cause of a deviation is reported once, with how
    many scenarios showed it and a shrunk, replayable scenario.

    A ruleset with an open value (set by a host or the players) is refused until the value is
    supplied: --set PARAM=VALUE or an overlay file (RULESET+my-table.yaml)."""
    from ..report.conformance import html

    if trace_file is not None:
        _validate_trace(trace_file, ruleset, readings, settings, trace_states, as_json,
                        engine or engine_cmd or replay_file or jobs or scheduler or resume)
    if (engine is None) == (engine_cmd is None):
        raise click.UsageError("give the engine as --engine MODULE:CLASS or as --engine-cmd \"CMD\" (one of them)")
    if prune_baseline and baseline_file is None:
        raise click.UsageError("--prune-baseline drops causes from the --baseline file: give --baseline FILE")
    if replay_file is not None and (jobs or scheduler or resume):
        raise click.UsageError("--replay re-runs one scenario in this process; drop --jobs/--scheduler/--resume")
    spec = EngineSpec(target=engine, cmd=engine_cmd, step_timeout=step_timeout)
    engine_arg = spec.cli_args
    doc = load(replay_file) if replay_file is not None else None
    accepted = baselines.load(baseline_file) if baseline_file is not None else None
    if doc is not None:                           # the values it was found with, then this command's
        rid = with_readings(ruleset if _given("ruleset") else doc["ruleset"], readings)
        settings = {**(doc.get("set") or {}), **settings}
    else:
        rid = with_readings(ruleset, readings)
    # the ruleset resolves, every open value is supplied (E020) and the engine plays it (E018), before
    # any engine or worker starts
    rules_for(load_target(rid, settings)[0])
    if not as_json:                               # what is played for a table's silent or open values
        announce(playable(rid, settings))
    _exit_on_terminate()
    try:
        if doc is not None:
            result = replay(spec, doc, rid, settings)
        else:
            result = conform(spec, rid, seed, examples, settings, jobs=jobs, scheduler=scheduler, resume=resume,
                             quiet=as_json)
    except Terminated as exc:                     # the engines are gone already (finally blocks)
        click.echo(f"verify conform: stopped by signal {exc.signum}", err=True)
        sys.exit(128 + exc.signum)
    result.judged(accepted, strict)
    files = [str(save(doc, scenario_dir)) for doc in result.violations]
    notes = []
    if write_baseline is not None:
        n = baselines.write(write_baseline, result)
        notes.append(f"verify conform: wrote {n} cause(s) to {write_baseline} as accepted")
        if accepted is None:                      # the run as it stands now: every cause accepted, passed
            result.judged(baselines.load(write_baseline), strict)
    if prune_baseline and accepted is not None:
        n = baselines.prune(accepted, [d["signature"] for d in result.deviations])
        notes.append(f"verify conform: dropped {n} cause(s) no longer seen from {baseline_file}")
    if junit_file is not None:
        _write(junit_file, junit(result, files, engine_arg))
    if html_dir is not None:
        html(result, files, html_dir, engine_arg)
    if as_json:
        click.echo(json.dumps(result.to_json(files), ensure_ascii=False))
    else:
        click.echo(run_text(result, files, engine_arg))
    for line in notes:
        click.echo(line, err=True)
    # a baseline written is today's behaviour accepted: the step succeeded whatever the run found
    sys.exit(0 if result.ok or write_baseline is not None else 1)


def _validate_trace(path: Path, ruleset: str, readings, settings: dict, states: int, as_json: bool,
                    other) -> None:
    """``--validate-trace``: no engine runs; the log is checked against the ruleset (exit 0 or 1)."""
    if other:
        raise click.UsageError("--validate-trace checks a log without an engine: drop --engine/--engine-cmd, "
                               "--replay and --jobs/--scheduler/--resume")
    result = check_log(str(path), with_readings(ruleset, readings), settings, Budget(states=states))
    click.echo(json.dumps(result.to_json(), ensure_ascii=False) if as_json else text(result))
    sys.exit(0 if result.ok else 1)


class Terminated(BaseException):
    """A termination signal, raised where the run is (not SystemExit: hypothesis would take that for a
    failing scenario and try to shrink it)."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(signum)


def _exit_on_terminate() -> None:
    """SIGTERM and SIGHUP end the run like Ctrl-C does: through the ``finally`` blocks that kill the
    engines' process groups (by default they would end Python at once and orphan the engines' children)."""
    if threading.current_thread() is not threading.main_thread():
        return

    def stop(signum, _frame):
        raise Terminated(signum)

    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)


def _given(name: str) -> bool:
    ctx = click.get_current_context()
    return ctx.get_parameter_source(name) not in (click.core.ParameterSource.DEFAULT, None)


def _write(path: Path, text: str) -> None:
    write_text(path, text, make_parents=True)
