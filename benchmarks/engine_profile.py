"""Where the compiled engine's time goes, by rule family and by function (Linux ``perf``, sampled).

    python benchmarks/engine_profile.py [--ruleset official] [--games 3000] [--top 15] [--json]

Plays seeded games (4 heuristic players, jail strategy leave) on the compiled engine under
``perf record --call-graph dwarf`` and attributes every sample taken inside the game loop to the
nearest compiled engine function on its stack: the time the interpreter's runtime spends for a rule
(dict look-ups, allocation, generic calls) counts for the rule that asked for it. Families are the
modules: the rule families (``verify/engine/rules/``), the bots (``policies``), the game loop
(``loop``), the state and tables. cProfile cannot see inside the compiled engine (one C call to it);
``benchmarks/engine_ratio.py --profile`` profiles the readable modules it is built from.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WORKER = r'''
import sys
from verify.config import EngineConfig
from verify.spec import load_ruleset
from verify.engine.engines import rules_for
from verify.engine.policies import make_policies
from verify.engine.simulate import game_seed, play_game
rid, games = sys.argv[1], int(sys.argv[2])
engine = rules_for(EngineConfig.from_ruleset(load_ruleset(rid)), "compiled")
turns = 0
for i in range(games):
    seed = game_seed(1, i)
    turns += play_game(engine, make_policies("heuristic", 4, "leave", seed), seed).player_turns
print(turns)
'''

RULE_FAMILIES = {"base", "flow", "movement", "cards", "auctions", "building", "mortgages", "trades", "debts",
                 "extras"}
PARTS = {"policies": "bots (policies)", "loop": "game loop", "state": "state", "tables": "tables",
         "model": "config model", "board": "config model"}
#: the game loop's compiled function: samples without it on the stack (start-up, imports) are left out
LOOP = "CPyDef_loop___play"


def compiled_function(symbol: str) -> str | None:
    """``module.function`` of a compiled engine function's symbol (``CPyDef_building___demand``), else None."""
    for prefix in ("CPyDef_", "CPyPy_"):
        if symbol.startswith(prefix):
            module, _, name = symbol[len(prefix):].partition("___")
            return f"{module}.{name.replace('___', '.', 1)}" if name else None     # (class___method)
    return None


def family(function: str) -> str:
    module = function.split(".", 1)[0]
    if module in RULE_FAMILIES:
        return f"rules: {module}"
    return PARTS.get(module, f"other ({module})")


def attribute(script: str) -> tuple[int, collections.Counter]:
    """(samples in the game loop, samples per compiled function) of ``perf script`` output."""
    per_function: collections.Counter = collections.Counter()
    inside = 0
    for block in script.split("\n\n"):
        symbols = [parts[1] for parts in (line.split(None, 1) for line in block.strip().splitlines())
                   if len(parts) > 1]
        if not any(s.startswith(LOOP) for s in symbols):
            continue
        inside += 1
        for symbol in symbols:          # leaf first: the nearest compiled function
            fn = compiled_function(symbol.split("+", 1)[0])
            if fn is not None:
                per_function[fn] += 1
                break
    return inside, per_function


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if shutil.which("perf") is None:
        print("engine_profile: needs Linux perf (not found)", file=sys.stderr)
        return 2
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        data = str(Path(tmp) / "perf.data")
        rec = subprocess.run(["perf", "record", "-q", "-F", "999", "--call-graph", "dwarf,16384", "-o", data,
                              sys.executable, "-c", WORKER, args.ruleset, str(args.games)],
                             capture_output=True, text=True, env=env, cwd=str(ROOT))
        if rec.returncode != 0:
            print(f"engine_profile: perf record failed: {rec.stderr.strip()[-500:]}", file=sys.stderr)
            return 2
        turns = int(rec.stdout.strip().splitlines()[-1])
        script = subprocess.run(["perf", "script", "-i", data, "-F", "ip,sym", "--no-demangle"],
                                capture_output=True, text=True, check=True).stdout
    inside, per_function = attribute(script)
    if not inside:
        print("engine_profile: no sample inside the compiled game loop (is the compiled engine built?)",
              file=sys.stderr)
        return 2
    by_family: collections.Counter = collections.Counter()
    for fn, n in per_function.items():
        by_family[family(fn)] += n
    other = inside - sum(per_function.values())
    doc = {"ruleset": args.ruleset, "games": args.games, "player_turns": turns, "samples": inside,
           "families": [[k, round(v / inside, 3)] for k, v in by_family.most_common()],
           "functions": [[k, round(v / inside, 3)] for k, v in per_function.most_common(args.top)]}
    if other:
        doc["families"].append(["outside any compiled function", round(other / inside, 3)])
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"{args.ruleset}, 4 heuristic players, {args.games} games ({turns} player-turns), {inside} samples "
          "in the compiled game loop; each sample counted for the nearest compiled function on its stack")
    print("by family:")
    for k, v in doc["families"]:
        print(f"  {v * 100:5.1f} %  {k}")
    print(f"the {args.top} largest functions:")
    for k, v in doc["functions"]:
        print(f"  {v * 100:5.1f} %  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
