"""Engine throughput: complete games/s and player-turns/s, one process and --jobs 2, side by side.

    python benchmarks/engine_bench.py [--ruleset official] [--games 2000] [--players 4]

Plays the same seeded campaign (heuristic bots, jail strategy leave) with one
process and with two worker processes, and prints both measurements. The
one-process figure is the single-core throughput (issue 3's target: 80,000
player-turns/s for the default ruleset with 4 heuristic players).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time

from verify.engine.config import EngineConfig
from verify.engine.simulate import CampaignSpec, run_campaign
from verify.spec import DEFAULT_RULESET, load_ruleset


def measure(spec: CampaignSpec, games: int, ruleset: str, jobs: int) -> dict:
    cpu0 = time.process_time()
    s = run_campaign(spec, games, ruleset, jobs=jobs).to_json()
    cpu = time.process_time() - cpu0
    row = {"jobs": jobs, "games": games, "finished": s["finished"], "player_turns": s["player_turns"],
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
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cfg = EngineConfig.from_ruleset(load_ruleset(args.ruleset))
    spec = CampaignSpec(cfg, args.players, args.seed)
    run_campaign(spec, 20, args.ruleset)          # warm-up (imports, table building)
    rows = [measure(spec, args.games, args.ruleset, 1), measure(spec, args.games, args.ruleset, 2)]
    if args.json:
        print(json.dumps({"ruleset": args.ruleset, "players": args.players, "python": platform.python_version(),
                          "results": rows}))
        return 0
    print(f"engine benchmark: {args.ruleset}, {args.players} heuristic players, {args.games} games, "
          f"Python {platform.python_version()} on {platform.machine()}")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average before the run: {load:.2f} on {os.cpu_count()} cores (wall-clock rates drop under load)")
    print(f"{'processes':>9} {'games/s':>9} {'player-turns/s':>15} {'elapsed s':>10} {'finished':>9}"
          f" {'player-turns/CPU-s':>19}")
    for r in rows:
        cpu = f"{r['player_turns_per_cpu_s']:>19,}" if "cpu_s" in r else f"{'':>19}"
        print(f"{r['jobs']:>9} {r['games_per_s']:>9} {r['player_turns_per_s']:>15,} {r['elapsed_s']:>10} "
              f"{r['finished']:>9} {cpu}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
