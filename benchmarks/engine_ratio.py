"""Player-turns per CPU-second of this engine against a baseline commit's, side by side in one run,
and where a turn's time goes by rule family.

    python benchmarks/engine_ratio.py [--baseline 8017a7d] [--games 300] [--rounds 5] [--ruleset official]
                                      [--checked 40] [--profile] [--json]

The baseline is extracted from git (``git archive``) into a temporary folder, and its compiled engine built
there with its own builder (``python -m verify.engine.native --build``: into that copy, or into a cache
folder inside the temporary folder for a builder of the time that kept one); this tree's compiled engine
is built into the package first when it is not built for the current source. Both sides play the compiled
engine (``VERIFY_ENGINE=compiled``: a side that cannot is an error, never a comparison of other things).
Each round plays the same seeded games (4 heuristic players, jail strategy leave) once with the baseline
and once with this tree, each in a child process of its own, in alternating order; a child reports the
CPU time of its games alone (imports, config compilation and one warm-up game excluded). The ratio of the
two rates is taken per round and the median printed, so a machine whose speed drifts (other work,
frequency) bends both sides alike.

``--checked N``: in the same rounds, this tree's first N games again, unchecked and with every
promised invariant checked after every action, alternately three times each, and the ratio of
their CPU time checked / unchecked (the same games, so the same player-turns). ``--profile``: where an
unchecked player-turn of this tree goes, by rule family (cProfile's own time per function, the rule
functions grouped by their module; the bots, the game loop and the state apart), on its readable modules:
the compiled engine is built from them, and cProfile cannot see inside it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))          # --profile measures this tree, not an installed copy
#: the compiled engine this one is measured against (the commit before the engine's build became the package's)
BASELINE = "8017a7d"

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


#: the games alone, unchecked or checked (argv[3] == "1"), for counting the game loop's instructions
COUNTED = r'''
import json, sys
from verify.config import EngineConfig
from verify.spec import load_ruleset
from verify.engine.engines import rules_for
from verify.engine.policies import make_policies
from verify.engine.simulate import play_game, game_seed
rid, games, check = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
r = load_ruleset(rid)
cfg = EngineConfig.from_ruleset(r)
engine = rules_for(cfg)
if check:
    from verify.engine.trace import InvariantChecker, TraceRecorder
    checker = InvariantChecker(cfg, r.promised())
turns = 0
for i in range(games):
    seed = game_seed(1, i)
    recorder = TraceRecorder(None, None, checker) if check else None
    turns += play_game(engine, make_policies("heuristic", 4, "leave", seed), seed, 2000, recorder).player_turns
print(json.dumps({"turns": turns, "path": engine.path}))
'''


def instructions(tree: Path, env: dict, ruleset: str, games: int, checked: bool) -> float:
    """Instructions the compiled game loop executes per player-turn (callgrind: exact, whatever else runs)."""
    cmd = ["valgrind", "--tool=callgrind", "--toggle-collect=CPyPy_loop___play", f"--callgrind-out-file={os.devnull}",
           sys.executable, "-c", COUNTED, ruleset, str(games), "1" if checked else "0"]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(tree), check=True)
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    if doc["path"] != "compiled":
        raise SystemExit(f"{tree}: played the {doc['path']} engine, not the compiled one")
    return round(int(re.search(r"Collected : (\d+)", out.stderr).group(1)) / doc["turns"], 1)


#: a one-game ``verify simulate`` as a user runs it, and the bare interpreter beside it
ONE_GAME = ["-m", "verify.cli", "simulate", "--games", "1"]


def process_instructions(args: list[str], tree: Path, env: dict) -> int:
    """Instructions a fresh ``python ARGS`` executes, start-up and imports included (callgrind, the whole
    process; bytecode cached by a run first, as a user runs it)."""
    cmd = [sys.executable, *args]
    subprocess.run(cmd, cwd=str(tree), env=env, check=True, capture_output=True)
    out = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={os.devnull}", *cmd],
                         capture_output=True, text=True, env=env, cwd=str(tree), check=True)
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1))


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


def tree_env(tree: Path, cache: Path | None = None) -> dict:
    """The environment a child of ``tree`` runs in: that tree's modules, its compiled engine insisted on (and
    for a builder that kept a cache, that cache; never a build started meanwhile)."""
    env = dict(os.environ, PYTHONPATH=str(tree), VERIFY_ENGINE="compiled", VERIFY_ENGINE_BUILD="never")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        env["VERIFY_CACHE_DIR"] = str(cache)
    return env


def build_compiled(tree: Path, env: dict) -> None:
    """Build ``tree``'s compiled engine with its own builder (nothing when it is built)."""
    done = subprocess.run([sys.executable, "-m", "verify.engine.native", "--build"], cwd=str(tree),
                          env=dict(env, VERIFY_ENGINE_BUILD="wait"), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: its compiled engine could not be built:\n{done.stdout}{done.stderr}")


def child(tree: Path, ruleset: str, games: int, checked: int, env: dict | None = None) -> dict:
    out = subprocess.run([sys.executable, "-c", WORKER, ruleset, str(games), str(checked)], capture_output=True,
                         text=True, env=env or tree_env(tree), cwd=str(tree), check=True)
    doc = json.loads(out.stdout.strip().splitlines()[-1])
    if doc["path"] != "compiled":
        raise SystemExit(f"{tree}: played the {doc['path']} engine, not the compiled one")
    return doc


def one_games(trees: dict[str, Path], envs: dict[str, dict], runs: int) -> dict:
    """Wall seconds of a one-game ``verify simulate`` in a fresh process per tree, alternating, as a user runs it:
    bytecode cached (one run first writes it), the compiled engine; and of the bare interpreter."""
    cmds = {name: [sys.executable, "-m", "verify.cli", "simulate", "--games", "1"] for name in trees}
    cmds["python"] = [sys.executable, "-c", "pass"]
    envs = dict(envs, python=envs["this"])
    where = dict(trees, python=ROOT)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for k in range(runs + 1):
        for name in (list(cmds) if k % 2 else list(reversed(cmds))):
            t0 = time.perf_counter()
            subprocess.run(cmds[name], cwd=str(where[name]), env=envs[name], check=True, stdout=subprocess.DEVNULL)
            if k:                                  # the first round writes the bytecode: not timed
                times[name].append(time.perf_counter() - t0)
    return {f"{name}_median_s": round(statistics.median(v), 3) for name, v in times.items()} | {"runs": runs}


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
    ap.add_argument("--baseline", default=BASELINE, help=f"the commit compared with (default: {BASELINE})")
    ap.add_argument("--ruleset", default="official")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--checked", type=int, default=40, help="games checked per round (0: none)")
    ap.add_argument("--one-game", type=int, default=0, metavar="N",
                    help="also time `verify simulate --games 1` N times a side, alternating (wall seconds)")
    ap.add_argument("--instructions", type=int, default=0, metavar="N",
                    help="also count the instructions per player-turn of N games a side under valgrind, this tree "
                         "checked and unchecked, and those of a fresh one-game `verify simulate` on each side "
                         "(exact on a loaded machine; about a minute per ten games)")
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = extract(args.baseline, Path(tmp))
        envs = {"baseline": tree_env(base, Path(tmp) / "cache"), "this": tree_env(ROOT)}
        build_compiled(base, envs["baseline"])
        build_compiled(ROOT, envs["this"])
        for k in range(args.rounds):
            order = [("baseline", base), ("this", ROOT)]
            if k % 2:
                order.reverse()
            got = {name: child(tree, args.ruleset, args.games, args.checked if name == "this" else 0, envs[name])
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
        one_game = one_games({"baseline": base, "this": ROOT}, envs, args.one_game) if args.one_game else None
        counted = None
        if args.instructions:
            n = args.instructions
            counted = {"baseline": instructions(base, envs["baseline"], args.ruleset, n, False),
                       "this": instructions(ROOT, envs["this"], args.ruleset, n, False),
                       "this_checked": instructions(ROOT, envs["this"], args.ruleset, n, True), "games": n}
            counted["baseline_over_this"] = round(counted["baseline"] / counted["this"], 3)
            counted["checked_over_unchecked"] = round(counted["this_checked"] / counted["this"], 2)
            counted["one_game"] = {"baseline": process_instructions(ONE_GAME, base, envs["baseline"]),
                                   "this": process_instructions(ONE_GAME, ROOT, envs["this"]),
                                   "python": process_instructions(["-c", "pass"], ROOT, envs["this"])}
    doc = {"ruleset": args.ruleset, "baseline": args.baseline, "games": args.games, "rounds": args.rounds,
           "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
           "median_ratio": statistics.median(r["ratio"] for r in rows), "rows": rows}
    if args.checked:
        doc["median_checked_over_unchecked"] = statistics.median(r["checked_over_unchecked"] for r in rows)
    if one_game is not None:
        doc["one_game"] = one_game
    if counted is not None:
        doc["instructions_per_player_turn"] = counted
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
    if counted is not None:
        print(f"instructions per player-turn (callgrind, {counted['games']} games): this tree {counted['this']}, "
              f"{args.baseline} {counted['baseline']} ({counted['baseline_over_this']}x); checked "
              f"{counted['this_checked']} ({counted['checked_over_unchecked']}x unchecked)")
    if counted is not None:
        one = counted["one_game"]
        print(f"instructions of a fresh `verify simulate --games 1` (callgrind, whole process): this tree "
              f"{one['this']:,}, {args.baseline} {one['baseline']:,}; the interpreter alone {one['python']:,}")
    if one_game is not None:
        print(f"`verify simulate --games 1`, median wall seconds of {args.one_game}: this tree "
              f"{one_game['this_median_s']}, {args.baseline} {one_game['baseline_median_s']}; "
              f"the interpreter alone {one_game['python_median_s']}")
    if args.profile:
        print("where an unchecked player-turn goes (own time by rule family, on the readable modules, which the "
              "compiled engine is built from):")
        for k, v in doc["profile"]:
            print(f"  {v * 100:5.1f} %  {k}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
