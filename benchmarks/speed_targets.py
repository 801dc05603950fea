"""Every speed target of the toolkit in one run, each figure beside its target.

    python benchmarks/speed_targets.py [--games 3000] [--engine-rounds 9] [--rounds 5] [--skip check,gnome] [--json]

Runs, back to back in this process (each script stays the place for its own details, ``--help`` on each):

* ``engine_ratio.py``: player-turns per CPU-second of this compiled engine against the compiled engine of
  ``8017a7d`` (built in a temporary copy of that commit; target at least 1.3x), a checked run (every
  promised invariant after every action) against an unchecked one on the same games (at most 2x), and a
  one-game ``verify simulate`` in a fresh process, wall seconds (under 0.4 s; that commit's beside it);
* ``startup_bench.py``: ``verify --help`` (under 0.3 s) and ``--jobs 2`` against one process on campaigns
  of 500 and 2,000 games, start-up included (at least 1.7x each);
* ``conform_bench.py``: conformance steps per CPU-second: the oracle (the reference's step plus the
  comparison, at least 2,000), a whole run on the reference (at least 1,000) and a default run on GNOME in
  a fresh process (at least 300);
* ``check_bench.py``: ``verify check`` of every bundled ruleset with two workers (under 20 s);
* ``campaign_bench.py``: a Dask LocalCluster against local processes at two workers (at most 1.15x the time);
* ``engine_bench.py`` and ``open_engine_bench.py``: the reference engine against GNOME, the open engine
  installed for conformance, in player-turns per CPU-second (at least 3x).

``--skip`` leaves parts out (``check``, ``gnome``, ``dask``); a part left out is printed as skipped, never
as met. Wall-clock figures need a quiet machine: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import campaign_bench  # noqa: E402
import check_bench  # noqa: E402
import conform_bench  # noqa: E402
import engine_bench  # noqa: E402
import engine_ratio  # noqa: E402
import open_engine_bench  # noqa: E402
import startup_bench  # noqa: E402

PARTS = ("check", "gnome", "dask")


def _json_of(main, argv: list[str]) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main([*argv, "--json"])
    if code != 0:
        raise SystemExit(f"{main.__module__} exited {code}: {out.getvalue()[-500:]}")
    return json.loads(out.getvalue())


def _quiet(main, argv: list[str]) -> dict:
    with contextlib.redirect_stdout(io.StringIO()):
        return main(argv)


def _row(figure: str, value, target: str, met: bool | None, command: str) -> dict:
    return {"figure": figure, "value": value, "target": target, "met": met, "command": command}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3000, help="games per side and round of engine_ratio.py")
    ap.add_argument("--rounds", type=int, default=5, help="rounds of the start-up, campaign and Dask figures")
    ap.add_argument("--engine-rounds", type=int, default=9,
                    help="rounds of engine_ratio.py (each: both engines, alternately; the figure is the median of "
                         "the rounds' ratios, which a burst of the shared machine's slowness moves less the more "
                         "rounds there are)")
    ap.add_argument("--checked", type=int, default=40, help="games per round of the checked comparison")
    ap.add_argument("--one-game", type=int, default=10,
                    help="one-game `verify simulate` runs in fresh processes, per tree (median wall seconds)")
    ap.add_argument("--scenarios", type=int, default=1000, help="conformance scenarios on the reference")
    ap.add_argument("--gnome-scenarios", type=int, default=500)
    ap.add_argument("--gnome-games", type=int, default=200)
    ap.add_argument("--campaign-games", default="500,2000", help="sizes of the --jobs 2 campaigns")
    ap.add_argument("--skip", default="", help=f"comma-separated parts to leave out: {', '.join(PARTS)}")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    skip = {x for x in args.skip.split(",") if x}
    if skip - set(PARTS):
        ap.error(f"--skip takes {', '.join(PARTS)}, not {', '.join(sorted(skip - set(PARTS)))}")
    if "gnome" not in skip and importlib.util.find_spec("monopoly_simulator") is None:
        ap.error("GNOME (monopoly-simulator-test) is not installed (the README's first command installs it); "
                 "--skip gnome to leave it out")
    load = os.getloadavg()[0]
    rows, doc = [], {"load_before": round(load, 2)}
    r = args.rounds

    er = args.engine_rounds
    ratio = _json_of(engine_ratio.main, ["--games", str(args.games), "--rounds", str(er),
                                         "--checked", str(args.checked), "--one-game", str(args.one_game)])
    cmd = (f"python benchmarks/engine_ratio.py --games {args.games} --rounds {er} --checked {args.checked} "
           f"--one-game {args.one_game}")
    rows.append(_row(f"player-turns per CPU-second, compiled engine / compiled engine of {ratio['baseline']}",
                     ratio["median_ratio"], ">= 1.3", ratio["median_ratio"] >= 1.3, cmd))
    rows.append(_row("checked run / unchecked, CPU on the same games", ratio["median_checked_over_unchecked"],
                     "<= 2", ratio["median_checked_over_unchecked"] <= 2, cmd))
    one = ratio["one_game"]
    rows.append(_row(f"verify simulate --games 1, median wall seconds ({ratio['baseline']}: "
                     f"{one['baseline_median_s']}; the interpreter alone: {one['python_median_s']})",
                     one["this_median_s"], "< 0.4", one["this_median_s"] < 0.4, cmd))
    doc["engine_ratio"] = ratio

    start = _json_of(startup_bench.main, ["--help-runs", "10", "--games", args.campaign_games,
                                          "--rounds", str(2 * r + 1), "--skip-commands"])
    cmd = (f"python benchmarks/startup_bench.py --help-runs 10 --games {args.campaign_games} "
           f"--rounds {2 * r + 1} --skip-commands")
    rows.append(_row("verify --help, median wall seconds", start["help"]["help_median_s"], "< 0.3",
                     start["help"]["met"], cmd))
    for c in start["campaigns"]["rows"]:
        rows.append(_row(f"--jobs 2 / one process, {c['games']} games, start-up included", c["jobs2_speedup"],
                         ">= 1.7", c["met"], cmd))
    doc["startup"] = start

    conform = _json_of(conform_bench.main, ["--scenarios", str(args.scenarios), "--gnome-scenarios",
                                            "0" if "gnome" in skip else str(args.gnome_scenarios)])
    cmd = f"python benchmarks/conform_bench.py --scenarios {args.scenarios} --gnome-scenarios {args.gnome_scenarios}"
    by_row = {x["row"]: x for x in conform["rows"]}
    for name, target, least in (("oracle", ">= 2,000", 2000), ("run: reference", ">= 1,000", 1000),
                                ("run: GNOME, fresh process", ">= 300", 300)):
        got = by_row.get(name)
        rows.append(_row(f"conformance steps per CPU-second, {name}", got and got["steps_per_cpu_s"], target,
                         None if got is None else got["steps_per_cpu_s"] >= least, cmd))
    doc["conform"] = conform

    if "check" in skip:
        rows.append(_row("verify check of every bundled ruleset, --jobs 2, wall seconds", None, "< 20", None,
                         "python benchmarks/check_bench.py --jobs 2"))
    else:
        check = _quiet(check_bench.main, ["--jobs", "2"])
        rows.append(_row("verify check of every bundled ruleset, --jobs 2, wall seconds", check["median_s"],
                         "< 20", check["median_s"] < 20 and check["promised_not_proved"] == 0,
                         "python benchmarks/check_bench.py --jobs 2"))
        doc["check"] = check

    if "dask" in skip or importlib.util.find_spec("distributed") is None:
        rows.append(_row("Dask LocalCluster / local processes at 2 workers, time", None, "<= 1.15", None,
                         "python benchmarks/campaign_bench.py"))
    else:
        camp = _json_of(campaign_bench.main, ["--games", "2000", "--rounds", str(r)])
        rows.append(_row("Dask LocalCluster / local processes at 2 workers, time", camp["dask_time_vs_local"],
                         "<= 1.15", camp["dask_time_vs_local"] <= 1.15,
                         f"python benchmarks/campaign_bench.py --games 2000 --rounds {r}"))
        doc["campaign"] = camp

    if "gnome" in skip:
        rows.append(_row("reference engine / GNOME, player-turns per CPU-second", None, ">= 3", None,
                         "python benchmarks/open_engine_bench.py"))
    else:
        engine = _json_of(engine_bench.main, ["--games", "2000", "--checked", "0"])
        gnome = open_engine_bench.gnome(args.gnome_games)   # beside the engine figure just measured
        mine = engine["results"][0]["player_turns_per_cpu_s"]
        value = round(mine / gnome["player_turns_per_cpu_s"], 1)
        rows.append(_row("reference engine / GNOME, player-turns per CPU-second", value, ">= 3", value >= 3,
                         f"python benchmarks/open_engine_bench.py --gnome-games {args.gnome_games}"))
        doc["open_engine"] = {"engine": engine, "gnome": gnome, "reference_vs_gnome": value}

    doc["load_after"] = round(os.getloadavg()[0], 2)
    doc["targets"] = rows
    if args.json:
        print(json.dumps(doc))
        return 0
    print(f"speed targets, one run; load average {doc['load_before']} before, {doc['load_after']} after")
    for row in rows:
        value = "-" if row["value"] is None else (f"{row['value']:,}" if isinstance(row["value"], int)
                                                  else str(row["value"]))
        verdict = "skipped" if row["met"] is None else ("met" if row["met"] else "NOT MET")
        print(f"  {row['figure']:<72} {value:>9}  target {row['target']:<9} {verdict}")
        print(f"      {row['command']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
