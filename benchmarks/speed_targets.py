"""Issue 10's speed figures in one run, each beside its target.

    python benchmarks/speed_targets.py [--games 2000] [--rounds 6] [--json]

Runs ``engine_bench.py`` (one core, unchecked and checked), ``campaign_bench.py``
(one process, ``--jobs 2`` and a two-worker Dask LocalCluster, rounds in a
turning order) and GNOME's games from ``open_engine_bench.py`` (the open engine installed for
conformance, compared with the engine figure of the same run; the issue's
"three times the fastest open peer") back to back in this process and prints one table: the
figure, the target, met or not. The two scripts remain
the place for their own details (``--help`` on each).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import campaign_bench  # noqa: E402
import engine_bench  # noqa: E402
import open_engine_bench  # noqa: E402


def _json_of(main, argv: list[str]) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--json"])
    if code != 0:
        raise SystemExit(f"{main.__module__} exited {code}: {out.getvalue()[-500:]}")
    return json.loads(out.getvalue())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--gnome-games", type=int, default=200)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    engine = _json_of(engine_bench.main, ["--games", str(args.games)])
    camp = _json_of(campaign_bench.main, ["--games", str(args.games), "--rounds", str(args.rounds)])
    unchecked, checked = engine["results"]
    gnome = open_engine_bench.gnome(args.gnome_games)   # beside the engine figure above (not measured again)
    peer = {"rows": [gnome], "reference_vs_gnome": round(unchecked["player_turns_per_cpu_s"]
                                                         / gnome["player_turns_per_cpu_s"], 1)}
    rows = [
        ("player-turns per CPU-second, one core, official, 4 heuristic players",
         unchecked["player_turns_per_cpu_s"], ">= 250,000", unchecked["player_turns_per_cpu_s"] >= 250_000),
        ("checked run (--check-invariants) / unchecked, CPU per player-turn",
         checked["cost_per_player_turn_vs_unchecked"], "<= 10", checked["cost_per_player_turn_vs_unchecked"] <= 10),
        ("--jobs 2 / one process, speed", camp["rows"][1]["speedup_vs_1_process"], ">= 1.8",
         camp["rows"][1]["speedup_vs_1_process"] >= 1.8),
        ("Dask LocalCluster / --jobs 2 at 2 workers, time", camp["dask_time_vs_local"], "<= 1.15",
         camp["dask_time_vs_local"] <= 1.15),
        ("reference engine / GNOME (the open engine installed here), player-turns per CPU-second",
         peer["reference_vs_gnome"], ">= 3", peer["reference_vs_gnome"] >= 3),
    ]
    doc = {"load_before": round(load, 2), "engine": engine, "campaign": camp, "open_engine": peer,
           "targets": [{"figure": f, "value": v, "target": t, "met": m} for f, v, t, m in rows]}
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"issue 10 speed targets, one run ({args.games} games; load average {load:.2f} before, "
          f"{camp['load_after']:.2f} after; merged campaign results identical: "
          f"{'yes' if camp['identical_results'] else 'NO'})")
    for figure, value, target, met in rows:
        shown = f"{value:,}" if isinstance(value, int) else f"{value}"
        print(f"  {figure:<84} {shown:>9}  target {target:<10} {'met' if met else 'NOT MET'}")
    print(f"  (Dask/local per round: {', '.join(str(x) for x in camp['dask_time_vs_local_per_round'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
