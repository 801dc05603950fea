"""What a rule the ruleset switches off costs the compiled engine: this tree's engine against the same
engine compiled from a copy of its source with the off rules' code cut out, side by side in one run.

    python benchmarks/off_rules.py [--ruleset online-vn] [--games 300] [--rounds 5] [--instructions] [--json]

``online-vn`` plays without the speed die, the casino, a limited building supply (so no shortage
auction can arise) and rent claims. The copy (``CUTS``: each a piece of source replaced by
``False``, so that mypyc leaves the branch out) is compiled into its own package folder (a minute
or two). Each round plays the same seeded games (4 heuristic players) with both engines, each in a
child process of its own, in alternating order, and compares CPU time per player-turn; the median
ratio is printed (1.0: the off rules cost nothing). ``--instructions`` also counts the instructions
the game loop executes in each engine under valgrind (callgrind; exact, unlike CPU time on a shared
machine; 100 games each).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine_ratio import WORKER  # noqa: E402 - the same child as the engine ratio

#: (file, the guard of a rule online-vn switches off): in the copy, the guard becomes ``False``
CUTS = (
    ("verify/engine/rules/turns.py", "sd.enabled and len(dice) > n"),                 # the speed die
    ("verify/engine/rules/base.py", "t.cfg.speed_die.enabled and speed_active(t, g, p)"),
    ("verify/engine/rules/movement.py", 'k == "casino" and t.cfg.casino.enabled'),    # the casino square
    ("verify/engine/rules/building.py", 'g.phase in (PRE_ROLL, POST_ROLL) and construction.shortage(t, g, "house")'),
    ("verify/engine/rules/building.py", 'g.phase in (PRE_ROLL, POST_ROLL) and construction.shortage(t, g, "hotel")'),
    ("verify/engine/policies.py", "construction.shortage_possible(t, g)"),                 # the bots' bound
    ("verify/engine/rules/movement.py", "t.must_claim"),                               # rent claims
)


def copy(into: Path, name: str, cuts: tuple[tuple[str, str], ...] = ()) -> Path:
    """A copy of this tree's verify/, rulesets/ and specs/ (so that edits during the run change nothing) with
    every guard of ``cuts`` replaced by False."""
    dest = into / name
    for folder in ("verify", "rulesets", "specs"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=shutil.ignore_patterns("__pycache__"))
    for rel, guard in cuts:
        path = dest / rel
        text = path.read_text(encoding="utf-8")
        if text.count(guard) != 1:
            raise SystemExit(f"{rel}: the guard {guard!r} occurs {text.count(guard)} times (update CUTS)")
        path.write_text(text.replace(guard, "False"), encoding="utf-8")
    return dest


def child(tree: Path, ruleset: str, games: int, env: dict, valgrind: bool = False) -> dict:
    cmd = [sys.executable, "-c", WORKER, ruleset, str(games), "0"]
    if valgrind:
        cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=CPyPy_loop___play",
               f"--callgrind-out-file={os.devnull}", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, env=dict(env, PYTHONPATH=str(tree)), cwd=str(tree),
                         check=True)
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    if doc["path"] != "compiled":
        raise SystemExit(f"{tree}: played the {doc['path']} engine (build it first)")
    if valgrind:
        doc["instructions"] = int(re.search(r"Collected : (\d+)", out.stderr).group(1))
    return doc


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="online-vn")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--instructions", action="store_true", help="also count instructions under valgrind")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        # this tree's copy carries this tree's build, if it is built (the same source: the same key)
        trees = {"this": copy(Path(tmp), "this"), "cut": copy(Path(tmp), "cut", CUTS)}
        envs = {"this": dict(os.environ), "cut": dict(os.environ)}
        for name, tree in trees.items():         # build both engines first (each into its own copy)
            subprocess.run([sys.executable, "-m", "verify.engine.native", "--build"], cwd=str(tree), check=True,
                           env=dict(envs[name], PYTHONPATH=str(tree)), stdout=subprocess.DEVNULL)
        rows = []
        for k in range(args.rounds):
            order = ["this", "cut"] if k % 2 == 0 else ["cut", "this"]
            got = {name: child(trees[name], args.ruleset, args.games, envs[name]) for name in order}
            same = got["this"]["turns"] == got["cut"]["turns"]
            cpu = {name: got[name]["cpu_s"] / got[name]["turns"] for name in got}
            rows.append({"round": k + 1, "same_games": same, "this_over_cut": round(cpu["this"] / cpu["cut"], 3)})
            if not args.json:
                print(json.dumps(rows[-1]), flush=True)
        doc = {"ruleset": args.ruleset, "games": args.games, "rounds": args.rounds, "cuts": [g for _, g in CUTS],
               "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
               "median_this_over_cut": statistics.median(r["this_over_cut"] for r in rows), "rows": rows}
        if args.instructions:
            counted = {name: child(trees[name], args.ruleset, 100, envs[name], valgrind=True) for name in trees}
            doc["instructions_per_player_turn"] = {name: round(c["instructions"] / c["turns"], 1)
                                                   for name, c in counted.items()}
            doc["same_games_counted"] = counted["this"]["turns"] == counted["cut"]["turns"]
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"{args.ruleset}, 4 heuristic players, {args.games} games per engine and round, {args.rounds} rounds; "
          f"load average {doc['load_before']} before, {doc['load_after']} after")
    print(f"CPU per player-turn, this engine / the same engine without the off rules' code: median "
          f"{doc['median_this_over_cut']}x")
    if args.instructions:
        ipt = doc["instructions_per_player_turn"]
        print(f"instructions per player-turn (game loop, callgrind, 100 games): this {ipt['this']}, without the "
              f"off rules' code {ipt['cut']} ({(ipt['this'] / ipt['cut'] - 1) * 100:+.2f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
