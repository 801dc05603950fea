"""Player-turns per CPU-second of this engine against a baseline commit's, side by side in one run,
and where a turn's time goes by rule family.

    python benchmarks/engine_ratio.py [--baseline 5dbd122] [--games 300] [--rounds 5] [--ruleset official]
                                      [--checked 40] [--profile] [--json]

The baseline is extracted from git (``git archive``) into a temporary folder. Each round
plays the same seeded games (4 heuristic players, jail strategy leave) once with the
baseline and once with this tree, each in a child process of its own, in alternating
order; a child reports the CPU time of its games alone (imports, config compilation and
one warm-up game excluded). The ratio of the two rates is taken per round and the median
printed, so a machine whose speed drifts (other work, frequency) bends both sides alike.

``--checked N``: in the same rounds, this tree's first N games again, unchecked and with every
promised invariant checked after every action, alternately three times each, and the ratio of
their CPU time checked / unchecked (the same games, so the same player-turns). ``--profile``: where an unchecked player-turn of this tree goes, by rule family
(cProfile's own time per function, the rule functions grouped by their module; the bots,
the game loop and the state apart), on its readable modules: the compiled engine is built
from them, and cProfile cannot see inside it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # --profile measures this tree, not an installed copy

#: runs in a child process, with PYTHONPATH at the tree measured; old and new APIs alike
WORKER = r'''
import json, sys, time
from verify.config import EngineConfig
from verify.spec import load_ruleset
from verify.engine.policies import make_policies
from verify.engine.simulate import play_game, game_seed
try:
    from verify.engine.engines import rules_for
except ImportError:                                  # a tree from before verify.engine.engines
    from verify.engine.rules import rules_for
rid, games, checked = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
r = load_ruleset(rid)
cfg = EngineConfig.from_ruleset(r)
engine = rules_for(cfg)

def play(n, check=False):
    recorder = None
    turns = 0
    if check:
        from verify.engine.trace import InvariantChecker, TraceRecorder
        checker = InvariantChecker(cfg, r.promised())
    t0 = time.process_time()
    for i in range(n):
        seed = game_seed(1, i)
        if check:
            recorder = TraceRecorder(None, None, checker)
        turns += play_game(engine, make_policies("heuristic", 4, "leave", seed), seed, 2000, recorder).player_turns
    return turns, time.process_time() - t0

play(1)
if checked:
    play(1, True)
out = {"turns": 0, "cpu_s": 0.0, "path": getattr(engine, "path", "readable")}
out["turns"], out["cpu_s"] = play(games)
if checked:
    # the same games unchecked and checked, alternately, three times each
    out["checked_cpu_s"] = out["unchecked_same_cpu_s"] = 0.0
    for _ in range(3):
        out["checked_turns"], cpu = play(checked)
        out["unchecked_same_cpu_s"] += cpu
        _, cpu = play(checked, True)
        out["checked_cpu_s"] += cpu
print(json.dumps(out))
'''


def extract(rev: str, into: Path) -> Path:
    """The tree of ``rev`` (verify/, rulesets/, specs/) in a folder of ``into``."""
    dest = into / rev
    dest.mkdir(parents=True, exist_ok=True)
    archive = into / f"{rev}.tar"
    with open(archive, "wb") as fh:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "verify", "rulesets", "specs"], stdout=fh, check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(dest)
    return dest


def child(tree: Path, ruleset: str, games: int, checked: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", WORKER, ruleset, str(games), str(checked)], capture_output=True,
                         text=True, env=env, cwd=str(tree), check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def profile(ruleset: str, games: int) -> list[tuple[str, float]]:
    """Shares of an unchecked player-turn's own time, by rule family (this tree)."""
    import cProfile
    import pstats

    from verify.config import EngineConfig
    from verify.engine.bound import rule_functions
    from verify.engine.engines import rules_for
    from verify.engine.policies import make_policies
    from verify.engine.simulate import game_seed, play_game
    from verify.spec import load_ruleset
    # the readable modules: cProfile sees their functions (the compiled ones are one C call to it)
    engine = rules_for(EngineConfig.from_ruleset(load_ruleset(ruleset)), "readable")
    family = {key.split(".")[1]: key.split(".")[0] for key in rule_functions()}
    prof = cProfile.Profile()
    prof.enable()
    for i in range(games):
        seed = game_seed(1, i)
        play_game(engine, make_policies("heuristic", 4, "leave", seed), seed)
    prof.disable()
    shares: dict[str, float] = {}
    for (filename, _, name), (_, _, own, _, _) in pstats.Stats(prof).stats.items():
        if "/engine/rules/" in filename:
            key = f"rules: {family.get(name, 'comprehensions')}"
        elif filename.endswith("policies.py"):
            key = "bots (policies)"
        elif filename.endswith(("loop.py", "simulate.py")):
            key = "game loop"
        elif filename.endswith("state.py"):
            key = "state"
        else:
            key = "other (builtins, random)"
        shares[key] = shares.get(key, 0.0) + own
    total = sum(shares.values()) or 1.0
    return sorted(((k, v / total) for k, v in shares.items()), key=lambda kv: -kv[1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", default="5dbd122", help="the commit compared with (default: 5dbd122)")
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--checked", type=int, default=40, help="games checked per round (0: none)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = extract(args.baseline, Path(tmp))
        for k in range(args.rounds):
            order = [("baseline", base), ("this", ROOT)]
            if k % 2:
                order.reverse()
            got = {name: child(tree, args.ruleset, args.games, args.checked if name == "this" else 0)
                   for name, tree in order}
            b, t = got["baseline"], got["this"]
            row = {"round": k + 1, "engine": t["path"], "baseline_turns_per_cpu_s": round(b["turns"] / b["cpu_s"]),
                   "this_turns_per_cpu_s": round(t["turns"] / t["cpu_s"]), "same_games": b["turns"] == t["turns"]}
            row["ratio"] = round(row["this_turns_per_cpu_s"] / row["baseline_turns_per_cpu_s"], 3)
            if args.checked:
                row["checked_over_unchecked"] = round(t["checked_cpu_s"] / t["unchecked_same_cpu_s"], 2)
            rows.append(row)
            if not args.json:
                print(json.dumps(row), flush=True)
    doc = {"ruleset": args.ruleset, "baseline": args.baseline, "games": args.games, "rounds": args.rounds,
           "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
           "median_ratio": statistics.median(r["ratio"] for r in rows), "rows": rows}
    if args.checked:
        doc["median_checked_over_unchecked"] = statistics.median(r["checked_over_unchecked"] for r in rows)
    if args.profile:
        doc["profile"] = [[k, round(v, 3)] for k, v in profile(args.ruleset, min(args.games, 100))]
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"{args.ruleset}, 4 heuristic players, {args.games} games per side and round, {args.rounds} rounds; "
          f"load average {doc['load_before']} before, {doc['load_after']} after")
    print(f"player-turns per CPU-second, this tree ({rows[0]['engine']} engine) / {args.baseline}: "
          f"median {doc['median_ratio']}x")
    if args.checked:
        print(f"checked / unchecked CPU per player-turn (this tree): median {doc['median_checked_over_unchecked']}x")
    if args.profile:
        print("where an unchecked player-turn goes (own time by rule family, on the readable modules, which the "
              "compiled engine is built from):")
        for k, v in doc["profile"]:
            print(f"  {v * 100:5.1f} %  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
