"""Start-up costs, side by side in one run: `verify --help`, and small campaigns with the workers' start-up.

    python benchmarks/startup_bench.py [--help-runs 20] [--games 500,2000] [--rounds 3] [--ruleset official]
                                       [--skip-commands] [--json]

`verify --help`: `python -m verify.cli --help` in a fresh interpreter, `--help-runs` times, each beside
`python -c pass` (the interpreter alone); the best and the median wall time of each. Target: under 0.3 s.

Small campaigns: for each size in `--games`, the same seeded campaign played in this process (`1 process`),
as `verify simulate --jobs 2` plays it once it has compiled the ruleset (`--jobs 2`: one peer forked for
the run, both processes taking chunks from a shared counter; forking the peer and joining it are inside the
time), and, for comparison, with a pool of two workers while this process waits (`2 workers`), the same with
chunks of 50 games to the end (`2 workers, chunks of 50`); then the whole command `python -m verify.cli simulate RULESET --games N
--jobs 1|2 --json` (interpreter, imports, loading the rulesets, compiling, playing). Each round runs every
configuration back to back, in an order that turns from round to round (this machine's speed drifts within
minutes); a ratio is the median of the per-round ratios. Target: `--jobs 2` at least 1.7x one process from
500 games up, start-up included.

CPU, for each configuration played in this process (medians over the rounds): all of it (this process's
threads and its joined workers), the games' own (each chunk's process time), the overhead between the two
(starting, feeding and stopping workers, merging), and the busiest process (this one, or a worker on
average); one process's CPU over the busiest process's is the speed-up two free cores would give, which a
shared machine's wall clock cannot show. The merged results must be identical in every run (the script
exits 1 otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verify.config import EngineConfig  # noqa: E402
from verify.engine.campaign import GAMES_PER_CHUNK, CampaignSpec, GamesChunk, Row, games_campaign  # noqa: E402
from verify.engine.engines import rules_for  # noqa: E402
from verify.execute import InProcess, LocalProcesses, run  # noqa: E402
from verify.spec import DEFAULT_RULESET, load_ruleset  # noqa: E402

ENV = dict(os.environ, PYTHONPATH=str(ROOT))


def _wall(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=ENV, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return elapsed, proc.stdout


def help_times(runs: int) -> dict:
    bare, helps = [], []
    for i in range(runs):
        pair = [("bare", [sys.executable, "-c", "pass"]), ("help", [sys.executable, "-m", "verify.cli", "--help"])]
        for name, cmd in (pair if i % 2 == 0 else pair[::-1]):
            (bare if name == "bare" else helps).append(_wall(cmd)[0])
    return {"runs": runs, "help_best_s": round(min(helps), 3), "help_median_s": round(statistics.median(helps), 3),
            "interpreter_best_s": round(min(bare), 3), "interpreter_median_s": round(statistics.median(bare), 3),
            "target_s": 0.3, "met": statistics.median(helps) < 0.3}


def _campaign(cfg: EngineConfig, ruleset: str, games: int, here: bool = True, chunks_of_50: bool = False):
    """The campaign `verify simulate` runs; for comparison, ``here=False``: every chunk in a pool worker
    while this process waits, and ``chunks_of_50``: chunks of 50 games to the end (not guided)."""
    campaign = replace(games_campaign([Row(ruleset, CampaignSpec(cfg, 4, 1), games)]), here=here)
    if not chunks_of_50:
        return campaign
    chunks = [GamesChunk(ruleset, campaign.chunks[0].spec, s, min(games, s + GAMES_PER_CHUNK))
              for s in range(0, games, GAMES_PER_CHUNK)]
    return replace(campaign, chunks=chunks, weights=[c.stop - c.start for c in chunks])


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _play(campaign, backend) -> tuple[float, dict, dict]:
    """Wall time, the merged result, and CPU seconds: this process (all its threads), its workers (joined
    when the run ends), and the games themselves (each chunk's own process time, summed)."""
    cpu0, kids0 = time.process_time(), _children_cpu()
    t0 = time.perf_counter()
    res = run(campaign, backend).result[0]
    elapsed = time.perf_counter() - t0
    return elapsed, res, {"main": time.process_time() - cpu0, "workers": _children_cpu() - kids0,
                          "games": res["cpu_s"]}


def _command(ruleset: str, games: int, jobs: int) -> tuple[float, dict, None]:
    elapsed, stdout = _wall([sys.executable, "-m", "verify.cli", "simulate", ruleset, "--games", str(games),
                             "--seed", "1", "--jobs", str(jobs), "--json"])
    return elapsed, json.loads(stdout), None


#: what the runs of one campaign may differ in
TIMING = ("cpu_s", "elapsed_s", "player_turns_per_s", "violation")
#: the configurations played in this process: (this process plays?, chunks of 50?, backend, workers forked)
PLAYED = {"1 process": (True, False, InProcess, 0), "--jobs 2": (True, False, lambda: LocalProcesses(2), 1),
          "2 workers": (False, False, lambda: LocalProcesses(2), 2),
          "2 workers, chunks of 50": (False, True, lambda: LocalProcesses(2), 2)}


def _cpu_row(cpus: list[dict], workers: int) -> dict:
    """Medians over the rounds, in CPU milliseconds: everything, the games alone, the rest (starting,
    feeding and stopping workers, merging), and the busiest process (this one, or a worker on average)."""
    med = lambda f: round(1000 * statistics.median(f(c) for c in cpus), 1)  # noqa: E731
    return {"all_ms": med(lambda c: c["main"] + c["workers"]), "games_ms": med(lambda c: c["games"]),
            "overhead_ms": med(lambda c: c["main"] + c["workers"] - c["games"]),
            "busiest_ms": med(lambda c: max(c["main"], c["workers"] / workers if workers else 0.0))}


def campaign_times(ruleset: str, sizes: list[int], rounds: int, commands: bool) -> dict:
    cfg = EngineConfig.from_ruleset(load_ruleset(ruleset))
    rules_for(cfg)                                   # as the command does before it starts workers
    run(_campaign(cfg, ruleset, 8), InProcess())     # imports and tables of this process warm
    out = []
    identical = True
    for games in sizes:
        configs = {name: (_play, _campaign(cfg, ruleset, games, here, fifty), backend)
                   for name, (here, fifty, backend, _) in PLAYED.items()}
        if commands:
            configs.update({"command --jobs 1": (_command, ruleset, games, lambda: 1),
                            "command --jobs 2": (_command, ruleset, games, lambda: 2)})
        names = list(configs)
        per_round: list[dict[str, float]] = []
        cpus: dict[str, list[dict]] = {name: [] for name in PLAYED}
        results = []
        for r in range(rounds):
            this = {}
            for k in range(len(names)):
                name = names[(r + k) % len(names)]
                fn, *args, fresh = configs[name]
                this[name], res, cpu = fn(*args, fresh())
                if cpu is not None:
                    cpus[name].append(cpu)
                results.append({key: v for key, v in res.items() if key not in TIMING})
            per_round.append(this)
        identical = identical and all(x == results[0] for x in results)
        ratio = lambda a, b, rounds=per_round: [round(t[a] / t[b], 3) for t in rounds]  # noqa: E731
        row = {"games": games, "best_s": {n: round(min(t[n] for t in per_round), 3) for n in names},
               "jobs2_speedup": round(statistics.median(ratio("1 process", "--jobs 2")), 3),
               "jobs2_speedup_per_round": ratio("1 process", "--jobs 2"),
               "two_workers_speedup": round(statistics.median(ratio("1 process", "2 workers")), 3),
               "before_speedup": round(statistics.median(ratio("1 process", "2 workers, chunks of 50")), 3),
               "cpu": {name: _cpu_row(cpus[name], PLAYED[name][3]) for name in PLAYED}}
        one = row["cpu"]["1 process"]["all_ms"]
        for name in PLAYED:
            row["cpu"][name]["cpu_bound_speedup"] = round(one / row["cpu"][name]["busiest_ms"], 3)
        if commands:
            row["command_jobs2_speedup"] = round(statistics.median(ratio("command --jobs 1", "command --jobs 2")), 3)
        row["met"] = row["jobs2_speedup"] >= 1.7
        out.append(row)
    return {"ruleset": ruleset, "rounds": rounds, "rows": out, "identical_results": identical, "target": 1.7}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--help-runs", type=int, default=20)
    ap.add_argument("--games", default="500,2000", help="campaign sizes, comma-separated")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--ruleset", default=DEFAULT_RULESET)
    ap.add_argument("--skip-commands", action="store_true", help="leave out the whole-command runs")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    load_before = os.getloadavg()[0]
    doc = {"python": platform.python_version(), "cores": os.cpu_count(), "load_before": round(load_before, 2),
           "help": help_times(args.help_runs),
           "campaigns": campaign_times(args.ruleset, [int(x) for x in args.games.split(",")], args.rounds,
                                       not args.skip_commands)}
    doc["load_after"] = round(os.getloadavg()[0], 2)
    ok = doc["campaigns"]["identical_results"]
    if args.json:
        print(json.dumps(doc))
        return 0 if ok else 1
    h = doc["help"]
    print(f"start-up benchmark; Python {doc['python']}, {doc['cores']} cores, load average {doc['load_before']} "
          f"before, {doc['load_after']} after")
    print(f"verify --help: best {h['help_best_s']} s, median {h['help_median_s']} s over {h['runs']} runs "
          f"(the interpreter alone: best {h['interpreter_best_s']} s, median {h['interpreter_median_s']} s); "
          f"target < 0.3 s: {'met' if h['met'] else 'NOT met'}")
    c = doc["campaigns"]
    print(f"{c['ruleset']}, 4 heuristic players; best of {c['rounds']} interleaved rounds; x = median of the "
          "per-round ratios")
    for row in c["rows"]:
        times = ", ".join(f"{n} {t} s" for n, t in row["best_s"].items())
        extra = f"; whole command {row['command_jobs2_speedup']}x" if "command_jobs2_speedup" in row else ""
        print(f"  {row['games']:>6} games: {times}; --jobs 2 {row['jobs2_speedup']}x one process, start-up "
              f"included (rounds {', '.join(map(str, row['jobs2_speedup_per_round']))}; target >= 1.7: "
              f"{'met' if row['met'] else 'NOT met'}); 2 workers {row['two_workers_speedup']}x, with chunks of 50 "
              f"{row['before_speedup']}x{extra}")
        for name, cpu in row["cpu"].items():
            print(f"         CPU, {name}: {cpu['all_ms']} ms in all, {cpu['games_ms']} ms in games, overhead "
                  f"{cpu['overhead_ms']} ms; busiest process {cpu['busiest_ms']} ms (one process's CPU / it: "
                  f"{cpu['cpu_bound_speedup']}x)")
    print(f"merged results identical: {'yes' if ok else 'NO'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
