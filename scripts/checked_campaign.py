"""Issue 3's evidence run: 1,000 seeded games per bundled ruleset under --check-invariants.

Plays every bundled ruleset (and each house rule stacked on ``official``) with
every promised invariant evaluated after every action, and writes one JSON
summary per ruleset plus ``summary.json`` (the evidence document: commit,
machine, one row per ruleset) to the output folder. About 2-3 minutes per
ruleset on two cores, about half an hour in all, so it is a script, not a test;
the default test run plays a few whole checked games per ruleset and
``pytest -m slow`` a hundred.

    python scripts/checked_campaign.py --games 1000 --jobs 2 --out campaign/
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

#: The checkout this script belongs to: the campaign plays its code, wherever it is run from
#: and whatever else is installed.
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def targets() -> list[str]:
    from verify.spec.registry import DEFAULT_RULESET, registry

    reg = registry()
    out = []
    for rid in reg.ids():
        f = reg.files[rid]
        out.append(f"{DEFAULT_RULESET}+{rid}" if f.kind == "overlay" else rid)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, default=Path("campaign"))
    ap.add_argument("rulesets", nargs="*", help="default: every bundled ruleset")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True, cwd=ROOT).stdout.strip()
    rows, failed = [], False
    for rid in args.rulesets or targets():
        cmd = [sys.executable, "-m", "verify.cli", "simulate", rid, "--games", str(args.games),
               "--seed", str(args.seed), "--jobs", str(args.jobs), "--check-invariants", "--json"]
        run = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if run.returncode not in (0, 1) or not run.stdout.strip():
            print(f"{rid}: simulate failed (exit {run.returncode}): {run.stderr.strip()[-400:]}")
            failed = True
            continue
        data = json.loads(run.stdout)
        (args.out / (Path(rid).stem + ".json")).write_text(json.dumps(data, indent=1), encoding="utf-8")
        row = {k: data.get(k) for k in ("ruleset", "games", "players", "seed", "finished", "hit_limit",
                                        "player_turns", "elapsed_s", "invariants_checked")}
        row["violation"] = data.get("violation")
        rows.append(row)
        failed |= row["violation"] is not None
        if row["violation"]:
            print(f"{rid}: VIOLATION in game {data.get('game')}: {json.dumps(row['violation'])[:300]}",
                  flush=True)
        else:
            print(f"{rid}: {row['games']} games, {row['finished']} finished, {row['hit_limit']} at the "
                  f"turn limit, no violation ({row['elapsed_s']:.0f} s)", flush=True)
    doc = {"what": f"verify simulate RULESET --games {args.games} --seed {args.seed} --jobs {args.jobs} "
                   "--check-invariants --json",
           "recorded_at_commit": commit + (" (with uncommitted changes)" if dirty else ""),
           "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}",
           "date": datetime.date.today().isoformat(), "runs": rows}
    (args.out / "summary.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
