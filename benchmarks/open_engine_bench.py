"""The reference engine beside an open Monopoly engine, player-turns per CPU-second, in one run.

    python benchmarks/open_engine_bench.py [--games 1000] [--gnome-games 200] [--json]

The open engine is the one this project installs for conformance (USC/ISI GNOME, ``monopoly-simulator-test``
0.0.9: the README's first command installs it): four of its ``background_agent_v3_1`` bots (its strongest
shipped agent) play whole games through its own ``gameplay.simulate_game_instance`` with its logging off;
a player-turn is one pass of its game loop (counted where the loop asks whether the game is over). GNOME
ends a game when a player's cash passes 10,000, so its games are shorter; the rate per player-turn is
what is compared. The reference engine plays the official rules with 4 heuristic players, as in
``engine_bench.py``. Both run in this process, CPU time (``time.process_time``), one after the other.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.config import EngineConfig  # noqa: E402
from verify.engine.campaign import CampaignSpec, run_campaign  # noqa: E402
from verify.spec import DEFAULT_RULESET, load_ruleset  # noqa: E402


def ours(games: int) -> dict:
    cfg = EngineConfig.from_ruleset(load_ruleset(DEFAULT_RULESET))
    spec = CampaignSpec(cfg, 4, 1)
    run_campaign(spec, 10, DEFAULT_RULESET)                      # warm-up
    cpu0 = time.process_time()
    s = run_campaign(spec, games, DEFAULT_RULESET).to_json()
    cpu = time.process_time() - cpu0
    return {"engine": "verify reference engine (official, 4 heuristic players)", "games": games,
            "player_turns": s["player_turns"], "cpu_s": round(cpu, 3), "player_turns_per_cpu_s": round(s["player_turns"] / cpu)}


def gnome(games: int) -> dict:
    from verify.conform.adapters.gnome_board import gnome as gnome_modules, gnome_version, new_board
    gnome_modules()                                               # a clear error when it is not installed
    import monopoly_simulator
    sys.path.insert(0, os.path.dirname(monopoly_simulator.__file__))   # gameplay imports its siblings flat
    from monopoly_simulator import background_agent_v3_1 as bot
    from monopoly_simulator import card_utility_actions, gameplay
    from monopoly_simulator.agent import Agent

    turns = [0]
    is_over = card_utility_actions.check_for_game_termination

    def counted(board, elapsed):                                  # asked once per pass of the game loop
        turns[0] += 1
        return is_over(board, elapsed)

    logging.disable(logging.CRITICAL)
    gameplay.card_utility_actions.check_for_game_termination = counted
    try:
        cpu = 0.0
        for seed in range(games + 2):
            board = new_board(4, lambda _i: Agent(**bot.decision_agent_methods))
            for p in board["players"]:
                p.agent.startup(board)
            if seed < 2:                                          # warm-up games, not counted
                gameplay.simulate_game_instance(board, np_seed=10_000 + seed)
                turns[0] = 0
                continue
            t = time.process_time()
            gameplay.simulate_game_instance(board, np_seed=seed)
            cpu += time.process_time() - t
    finally:
        gameplay.card_utility_actions.check_for_game_termination = is_over
        logging.disable(logging.NOTSET)
    return {"engine": f"GNOME {gnome_version()} (4 background_agent_v3_1 bots)", "games": games,
            "player_turns": turns[0], "cpu_s": round(cpu, 3), "player_turns_per_cpu_s": round(turns[0] / cpu)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="reference engine games")
    ap.add_argument("--gnome-games", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows = [ours(args.games), gnome(args.gnome_games)]
    ratio = round(rows[0]["player_turns_per_cpu_s"] / rows[1]["player_turns_per_cpu_s"], 1)
    doc = {"python": platform.python_version(), "rows": rows, "reference_vs_gnome": ratio}
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"player-turns per CPU-second, one process, Python {platform.python_version()}")
    for r in rows:
        print(f"  {r['engine']:<58} {r['games']:>5} games {r['player_turns']:>8,} player-turns "
              f"{r['player_turns_per_cpu_s']:>8,} per CPU-s")
    print(f"the reference engine does {ratio}x GNOME's player-turns per CPU-second")
    return 0


if __name__ == "__main__":
    sys.exit(main())
