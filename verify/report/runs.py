"""Results the report borrows from other stages: ``verify check`` and ``verify simulate``.

Both are called in-process through their click commands with ``--json``, so
the report reads exactly the documented JSON. When a stage is not installed
or fails, the report says so ("not run" / "failed", with the reason); it
never shows a verdict or a figure that was not computed.
"""

from __future__ import annotations

import importlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from click.testing import CliRunner

from ..interrupt import Interrupted
from ..execute.progress import Progress
from ..runs.check import check       # judged on real games, as `verify check` prints it
from ..errors import Location, SpecError
from ..smt.verdict import StaleCheck, results_from_json
from ..spec.yamlsafe import read_text


#: Largest saved check read (the full check of every bundled ruleset is about 2 MB).
CHECK_JSON_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class CheckRun:
    status: str                       # ran | not run | failed
    results: tuple[dict, ...] = ()
    reason: str | None = None
    elapsed_s: float = 0.0
    not_run: tuple[str, ...] = ()     # rulesets of the report with no result (a saved check of fewer rulesets)

    @property
    def summary(self) -> str:
        """One line for the command's output: ``ran``, or how many rulesets it covers when not all."""
        if self.status != "ran" or not self.not_run:
            return self.status
        ran = len({r.get("ruleset") for r in self.results})
        return f"ran for {ran} of {ran + len(self.not_run)} rulesets ({len(self.not_run)} not run)"


@dataclass(frozen=True)
class SimRun:
    ruleset: str
    status: str                       # ran | failed | not played (an open value nobody supplied)
    data: dict = field(default_factory=dict)
    reason: str | None = None


@dataclass(frozen=True)
class Simulation:
    status: str                       # ran | not run
    games: int
    players: str
    seed: int
    runs: tuple[SimRun, ...] = ()
    reason: str | None = None
    elapsed_s: float = 0.0


def _command(name: str):
    try:
        mod = importlib.import_module(f"verify.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("verify"):
            return None
        raise
    return getattr(mod, "command", None)


def _json_out(result) -> Any:
    text = result.stdout if hasattr(result, "stdout") else result.output
    start = text.find("{")
    if start < 0:
        raise ValueError("no JSON document in the output")
    return json.loads(text[start:])


def _why(result) -> str:
    if result.exception and not isinstance(result.exception, SystemExit):
        return f"{type(result.exception).__name__}: {result.exception}"
    err = getattr(result, "stderr", "") if getattr(result, "stderr_bytes", None) is not None else ""
    text = (err or result.output or "").strip().splitlines()
    return (text[-1] if text else f"exit status {result.exit_code}")[:400]


def run_check(rulesets: list[str], settings: dict[str, dict] | None = None) -> CheckRun:
    """``verify check`` of ``rulesets`` in this process, its progress on stderr as the report's check part;
    the results as ``verify check --json`` gives them. ``settings`` gives some of them ``--set`` values
    (by name): those are checked with their values, the others as they are."""
    t0 = time.perf_counter()
    settings = settings or {}
    plain = [n for n in rulesets if n not in settings]
    groups = ([(plain, None)] if plain else []) + [([n], v) for n, v in settings.items() if n in rulesets]
    try:
        results = tuple(r.to_json() for names, values in groups
                        for r in check(names, settings=values, progress=True, label="report: check"))
    except Interrupted as exc:
        exc.detail = None      # the check's chunks are not resumable from `verify report`
        raise
    except Exception as exc:  # noqa: BLE001 - a peer's failure is reported, not propagated
        return CheckRun("failed", reason=f"{type(exc).__name__}: {exc}"[:400], elapsed_s=time.perf_counter() - t0)
    if not results:
        return CheckRun("failed", reason="`verify check` returned no results", elapsed_s=time.perf_counter() - t0)
    return CheckRun("ran", results, elapsed_s=time.perf_counter() - t0)


def load_check_json(path, rulesets: list[str] | None = None, configs: dict[str, str] | None = None) -> CheckRun:
    """A saved ``verify check --json`` document (so a slow check need not run on every report).

    Its shape is checked, every result must be for one of ``rulesets``, and, given ``configs``
    (ruleset -> ``verify.smt.run.config_hash`` now), computed for the ruleset as it is now: an
    empty, fake, foreign or stale file is an error (E031; E032 when stale or saved for other rulesets), never shown as results."""
    try:
        results = results_from_json(json.loads(read_text(path, limit=CHECK_JSON_BYTES)), None, configs)
    except StaleCheck as exc:
        raise SpecError("E032", f"stale `verify check --json` document: {exc}", Location(str(path))) from None
    except ValueError as exc:
        raise SpecError("E031", f"not a usable `verify check --json` document: {exc}",
                        Location(str(path))) from None
    foreign = next((i for i, r in enumerate(results, 1) if rulesets is not None and r["ruleset"] not in rulesets),
                   None)
    if foreign is not None:
        raise SpecError("E032", f"result {foreign} is for ruleset {results[foreign - 1]['ruleset']!r}, which this "
                        "report does not include (the check was saved for other rulesets)", Location(str(path)))
    return CheckRun("ran", results, reason=f"read from {path}")


def run_simulation(rulesets: list[tuple[str, int]], games: int, seed: int = 1,
                   settings: dict[str, dict] | None = None) -> Simulation:
    """Simulate ``games`` games of each (ruleset, players) in-process, progress by ruleset on stderr; a
    ruleset named in ``settings`` is played with those ``--set`` values."""
    cmd = _command("simulate")
    players = ", ".join(sorted({str(p) for _, p in rulesets})) or "—"
    if cmd is None:
        return Simulation("not run", games, players, seed,
                          reason="the engine (`verify simulate`) is not part of this build")
    t0 = time.perf_counter()
    runs = []
    bar = Progress(len(rulesets), "rulesets", "report: simulation")
    bar.start()
    try:
        for rid, p in rulesets:
            bar.describe(rid)
            runs.append(_simulate_one(cmd, rid, p, games, seed, (settings or {}).get(rid)))
            bar.advance(1)
    finally:
        bar.close()
    return Simulation("ran", games, players, seed, tuple(runs), elapsed_s=time.perf_counter() - t0)


def _simulate_one(cmd, rid: str, p: int, games: int, seed: int, values: dict | None = None) -> SimRun:
    """One ruleset's games through ``verify simulate --json``; a failure is the run's reason, never raised."""
    res = None
    try:
        args = [rid, "--games", str(games), "--players", str(p), "--seed", str(seed), "--json"]
        for pid, v in (values or {}).items():
            args += ["--set", f"{pid}={_yaml_scalar(v)}"]
        res = CliRunner().invoke(cmd, args, catch_exceptions=True)
        data = _json_out(res)
        if not isinstance(data.get("landings"), list) or "turns" not in data:
            raise ValueError("the simulate JSON lacks landings or turns")
        return SimRun(rid, "ran", data)
    except Exception as exc:  # noqa: BLE001
        reason = _why(res) if res is not None and res.exit_code else f"{type(exc).__name__}: {exc}"
        return SimRun(rid, "failed", reason=reason[:400])


def _yaml_scalar(v: Any) -> str:
    """A ``--set`` value as ``verify simulate --set`` reads it back (a YAML scalar or list)."""
    return json.dumps(v)
