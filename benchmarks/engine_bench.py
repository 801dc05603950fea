"""Engine throughput on one core, unchecked and checked, side by side in one run.

    python benchmarks/engine_bench.py [--ruleset official] [--games 2000] [--players 4] [--checked 100]

Plays the same seeded campaign (heuristic bots, jail strategy leave) in this
process and prints player-turns per CPU-second (CPU time: the single-core rate
even when other work shares the machine; issue 10's target: 250,000 for the
default ruleset with 4 heuristic players). Then, in the same run, the first
``--checked`` games with every promised invariant checked after every action
(``--check-invariants``), and how many times the CPU per player-turn of the
unchecked run that costs (issue 10's target: at most 10). Several processes and
Dask are measured by ``benchmarks/campaign_bench.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from verify.config import EngineConfig
from verify.engine.campaign import CampaignSpec, run_campaign
from verify.spec import DEFAULT_RULESET, load_ruleset


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def measure(spec: CampaignSpec, games: int, ruleset: str, jobs: int) -> dict:
    cpu0 = time.process_time()
    s = run_campaign(spec, games, ruleset, jobs=jobs).to_json()
    cpu = time.process_time() - cpu0
    row = {"jobs": jobs, "checked": spec.check is not None, "games": games, "finished": s["finished"], "player_turns": s["player_turns"],
           "elapsed_s": s["elapsed_s"], "games_per_s": round(games / s["elapsed_s"], 1),
           "player_turns_per_s": round(s["player_turns"] / s["elapsed_s"])}
    if jobs == 1:   # CPU time of this process: the single-core rate even on a busy machine
        row["cpu_s"] = round(cpu, 3)
        row["player_turns_per_cpu_s"] = round(s["player_turns"] / cpu)
    return row


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=DEFAULT_RULESET)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--checked", type=int, default=100, help="games for the checked run (0: skip it)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    r = load_ruleset(args.ruleset)
    cfg = EngineConfig.from_ruleset(r)
    spec = CampaignSpec(cfg, args.players, args.seed)
    checked = CampaignSpec(cfg, args.players, args.seed, check=tuple(r.promised()))
    load_before = _load()
    run_campaign(spec, 20, args.ruleset)          # warm-up (imports, table building)
    if args.checked:
        run_campaign(checked, 2, args.ruleset)    # and the checks' (their predicates compiled once per config)
    rows = [measure(spec, args.games, args.ruleset, 1)]
    if args.checked:
        rows.append(measure(checked, min(args.checked, args.games), args.ruleset, 1))
        rows[-1]["cost_per_player_turn_vs_unchecked"] = round(
            (rows[-1]["cpu_s"] / rows[-1]["player_turns"]) / (rows[0]["cpu_s"] / rows[0]["player_turns"]), 1)
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "players": args.players, "python": platform.python_version(),
                          "load_before": load_before, "load_after": _load(),
                          "results": rows}))
        return 0
    print(f"engine benchmark: {args.ruleset}, {args.players} heuristic players, {args.games} games, "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(f"load average before the run: {load_before:.2f}, after it: {_load():.2f}, on {os.cpu_count()} cores "
          f"(wall-clock rates drop under load)")
    print(f"{'processes':>9} {'checked':>8} {'games':>6} {'games/s':>9} {'player-turns/s':>15} {'elapsed s':>10}"
          f" {'finished':>9} {'player-turns/CPU-s':>19}")
    for row in rows:
        cpu = f"{row['player_turns_per_cpu_s']:>19,}" if "cpu_s" in row else f"{'':>19}"
        print(f"{row['jobs']:>9} {'yes' if row['checked'] else 'no':>8} {row['games']:>6} {row['games_per_s']:>9} "
              f"{row['player_turns_per_s']:>15,} {row['elapsed_s']:>10} {row['finished']:>9} {cpu}")
    if args.checked:
        print(f"checking every promised invariant after every action costs "
              f"{rows[-1]['cost_per_player_turn_vs_unchecked']}x the CPU time per player-turn")
    return 0


if __name__ == "__main__":
    sys.exit(main())
