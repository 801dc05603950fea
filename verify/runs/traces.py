"""A run of ``verify check`` as a trace file that ``verify replay`` plays again (``verify.trace/2``).

A counterexample's run (``counterexample.run``: the game's seed and players, and every action the
engine took) is played again from the game's start through the step API, and each step written
with its events and state, as ``verify simulate --trace`` writes a game; the end line says the game
stopped at a broken invariant. ``verify replay FILE`` then re-applies every action and reports the
broken promise at the step the check names.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..config import EngineConfig
from ..engine.step import apply, new_game
from ..engine.trace import TRACE_SCHEMA
from ..output import file_stem, write_text


def trace_lines(config: EngineConfig, ruleset: str, run: dict, header_extra: dict | None = None) -> list[dict]:
    """The run as the lines of a trace: header, the game's start (step 0), every step, the end line."""
    state = new_game(config, int(run["players"]), int(run["seed"]))
    header = {"trace": TRACE_SCHEMA, "state_schema": "verify.state/1", "ruleset": ruleset,
              "config_hash": config.hash(), "seed": run["seed"], "game": 0, "players": run["players"],
              "policy": "verify check"}
    header.update(header_extra or {})
    lines = [header, {"step": 0, "action": None, "events": [], "state": state}]
    for k, action in enumerate(run["actions"], 1):
        state, events = apply(config, state, action)
        lines.append({"step": k, "action": action, "events": events, "state": state})
    lines.append({"end": {"steps": len(run["actions"]), "over": state.get("phase") == "over",
                          "result": state.get("result"), "stopped": "invariant violated"}})
    return lines


def file_name(result: dict) -> str:
    """The trace file of one result: ruleset, invariant and action."""
    return file_stem(f"{result['ruleset']}--{result['invariant']}--{result['action']}") + ".jsonl"


def write(config: EngineConfig, result: dict, folder: Path, header_extra: dict | None = None) -> Path:
    """Write the run of ``result`` (a VIOLATED check with a run) into ``folder``; the file's path."""
    path = Path(folder) / file_name(result)
    lines = trace_lines(config, result["ruleset"], result["counterexample"]["run"], header_extra)
    write_text(path, "".join(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines),
               make_parents=True)
    return path
