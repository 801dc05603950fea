"""Campaign throughput on the execution layer: one process, two local processes and a two-worker Dask
LocalCluster, side by side in one run, on the same seeded campaign (and the same merged result).

    python benchmarks/campaign_bench.py [--ruleset official] [--games 2000] [--rounds 6] [--json]

Each configuration runs ``--rounds`` times, interleaved, the order turning each round (1 process, local,
Dask; then local, Dask, 1 process; ...): this machine's speed drifts by 20 % within minutes, and a fixed
order let one configuration always run in the same phase of it (Dask after local measured 1.17-1.22x in
one order and 0.97x in the other). The table keeps each configuration's best round; the ratios are the
median of the per-round ratios (each from two runs back to back), which drift cannot bias.
Backends are started and warmed up before timing (a LocalCluster takes seconds to start, reported apart;
the local processes' peer is forked by each run, inside its time). Besides wall-clock rates the table gives the CPU seconds the
workers spent in the games (each chunk measures its own process time) and all the CPU the campaign
used (this process, with the Dask scheduler and client, plus every worker process, read by psutil): on a
shared machine the CPU ratios show the layer's overhead even when the wall-clock speed-up cannot.
Targets: --jobs 2 at least 1.8x one process; Dask within 15 % of local processes at equal worker count.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from verify.config import EngineConfig  # noqa: E402
from verify.engine.campaign import CampaignSpec, Row, games_campaign  # noqa: E402
from verify.execute import DaskBackend, InProcess, LocalProcesses, run  # noqa: E402
from verify.spec import DEFAULT_RULESET, load_ruleset  # noqa: E402


def _load() -> float:
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def _cpu(pids: list[int]) -> float:
    """CPU seconds used so far by these processes (user + system)."""
    import psutil
    total = 0.0
    for pid in pids:
        try:
            t = psutil.Process(pid).cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def _joined_children_cpu() -> float:
    """CPU seconds of this process's children that have ended and been joined (forked peers)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def measure(campaign, backend) -> dict:
    """One run: its wall time and CPU (this process, the backend's long-lived workers, and the processes
    forked for the run and joined by its end: ``--jobs 2``'s peer)."""
    pids = backend.worker_pids() if hasattr(backend, "worker_pids") else []
    cpu0, wcpu0, kids0 = time.process_time(), _cpu(pids), _joined_children_cpu()
    out = run(campaign, backend)
    main_cpu = time.process_time() - cpu0
    workers_cpu = _cpu(pids) - wcpu0 + _joined_children_cpu() - kids0
    doc = out.result[0]
    return {"elapsed_s": out.elapsed_s, "player_turns": doc["player_turns"], "games": doc["finished"] + doc["hit_limit"],
            "game_cpu_s": doc["cpu_s"], "total_cpu_s": main_cpu + workers_cpu,
            "result": {k: v for k, v in doc.items() if k != "cpu_s"}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default=DEFAULT_RULESET)
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cfg = EngineConfig.from_ruleset(load_ruleset(args.ruleset))
    campaign = games_campaign([Row(args.ruleset, CampaignSpec(cfg, args.players, args.seed), args.games)])
    warm = games_campaign([Row(args.ruleset, CampaignSpec(cfg, args.players, args.seed + 1), 4 * args.workers)])
    load_before = _load()

    t0 = time.perf_counter()
    dask = DaskBackend("local", workers=args.workers)
    dask.start()
    dask_start = time.perf_counter() - t0
    local = LocalProcesses(args.workers)
    t0 = time.perf_counter()
    local.start()
    local_start = time.perf_counter() - t0
    # both stay up across rounds (started here, run() leaves them open), as on a long-lived cluster
    run(warm, InProcess()), run(warm, local), run(warm, dask)        # imports, tables, worker processes

    names = ["1 process", f"{args.workers} local processes", f"Dask LocalCluster, {args.workers} workers"]
    backends = [InProcess(), local, dask]
    best: dict[str, dict] = {}
    rounds: list[dict[str, dict]] = []
    for r in range(args.rounds):
        this: dict[str, dict] = {}
        for k in range(len(names)):
            name, backend = names[(r + k) % len(names)], backends[(r + k) % len(names)]
            m = measure(campaign, backend)
            this[name] = m
            if name not in best or m["elapsed_s"] < best[name]["elapsed_s"]:
                best[name] = m
        rounds.append(this)
    dask.close()
    local.close()
    load_after = _load()

    results = [m["result"] for this in rounds for m in this.values()]
    identical = all(r == results[0] for r in results)

    def ratio(a: str, b: str, key: str) -> float:
        """The median over rounds of configuration a's figure divided by b's in the same round."""
        return round(statistics.median(this[a][key] / this[b][key] for this in rounds), 3)

    rows = []
    for name in names:
        m = best[name]
        rows.append({"backend": name, "elapsed_s": round(m["elapsed_s"], 3),
                     "games_per_s": round(m["games"] / m["elapsed_s"], 1),
                     "player_turns_per_s": round(m["player_turns"] / m["elapsed_s"]),
                     "speedup_vs_1_process": round(1 / ratio(name, names[0], "elapsed_s"), 2),
                     "game_cpu_s": round(m["game_cpu_s"], 3), "total_cpu_s": round(m["total_cpu_s"], 3),
                     "player_turns_per_cpu_s": round(m["player_turns"] / m["total_cpu_s"]),
                     "cpu_vs_1_process": ratio(name, names[0], "total_cpu_s")})
    dask_vs_local = ratio(names[2], names[1], "elapsed_s")
    dask_cpu_vs_local = ratio(names[2], names[1], "total_cpu_s")
    per_round = [round(this[names[2]]["elapsed_s"] / this[names[1]]["elapsed_s"], 3) for this in rounds]
    doc = {"ruleset": args.ruleset, "games": args.games, "players": args.players, "rounds": args.rounds,
           "python": platform.python_version(), "cores": os.cpu_count(), "load_before": round(load_before, 2),
           "load_after": round(load_after, 2), "startup_s": {"local": round(local_start, 3),
                                                             "dask_local_cluster": round(dask_start, 3)},
           "identical_results": identical, "rows": rows, "dask_time_vs_local": dask_vs_local,
           "dask_time_vs_local_per_round": per_round, "dask_cpu_vs_local": dask_cpu_vs_local}
    if args.json:
        print(json.dumps(doc))
        return 0 if identical else 1
    print(f"campaign benchmark: {args.ruleset}, {args.players} heuristic players, {args.games} games, best of "
          f"{args.rounds} interleaved rounds; Python {platform.python_version()}, {os.cpu_count()} cores")
    print(f"load average {load_before:.2f} before, {load_after:.2f} after (wall-clock rates drop under load; "
          f"the CPU columns do not)")
    print(f"{'backend (best round)':<34} {'elapsed s':>9} {'games/s':>8} {'player-turns/s':>15} {'x 1 process':>11} "
          f"{'game CPU s':>10} {'all CPU s':>9} {'CPU x 1 process':>15}")
    for r in rows:
        print(f"{r['backend']:<34} {r['elapsed_s']:>9} {r['games_per_s']:>8} {r['player_turns_per_s']:>15,} "
              f"{r['speedup_vs_1_process']:>11} {r['game_cpu_s']:>10} {r['total_cpu_s']:>9} {r['cpu_vs_1_process']:>15}")
    print("x 1 process, CPU x 1 process and the ratios below: the median of the rounds' ratios (each round runs "
          "all three back to back, in a turning order)")
    print(f"Dask / local processes at {args.workers} workers: {dask_vs_local}x the time (target <= 1.15; rounds: "
          f"{', '.join(str(x) for x in per_round)}), "
          f"{dask_cpu_vs_local}x the CPU; --jobs {args.workers} / 1 process: {rows[1]['speedup_vs_1_process']}x "
          f"the speed (target >= 1.8)")
    print(f"startup: local pool {local_start:.3f} s, Dask LocalCluster {dask_start:.1f} s (not in the times above); "
          f"merged results identical: {'yes' if identical else 'NO'}")
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
