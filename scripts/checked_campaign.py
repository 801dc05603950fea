"""Issue 3's evidence run: 1,000 seeded games per bundled ruleset under --check-invariants.

Plays every bundled ruleset (and each house rule stacked on ``official``) with
every promised invariant evaluated after every action, as one campaign of the
execution layer (``verify.execute``): one progress bar over every ruleset,
``--jobs N`` local processes or ``--scheduler ADDRESS`` a Dask cluster, and
``--resume DIR`` to keep every finished chunk and continue after an
interruption. Writes one JSON summary per ruleset plus ``summary.json`` (the
evidence document: commit, machine, one row per ruleset) to the output folder.
About half an hour on two cores, so it is a script, not a test; the default
test run plays a few whole checked games per ruleset and ``pytest -m slow`` a
hundred. Exit status 1 when any invariant breaks (the first violating step of
each ruleset is in its row).

    python scripts/checked_campaign.py --games 1000 --jobs 2 --out campaign/ [--resume campaign/chunks]
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


def rows(names: list[str], games: int, seed: int):
    """The campaign's rows, and (ruleset, reason) for each ruleset it cannot play: one with an open value
    nobody supplied (``verify.spec.open_values.not_played``) is left out and says so, never played at a
    value its rulebook does not give."""
    from verify.config import EngineConfig
    from verify.engine.campaign import CampaignSpec, Row, players_for
    from verify.spec import load_ruleset
    from verify.spec.open_values import not_played

    out, skipped = [], []
    for name in names:
        r = load_ruleset(name)
        why = not_played(r)
        if why:
            skipped.append((r.id, why))
            continue
        cfg = EngineConfig.from_ruleset(r)
        out.append(Row(r.id, CampaignSpec(cfg, players_for(cfg, r.id, None), seed, check=tuple(r.promised())), games))
    return out, skipped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scheduler", default=None, help="a Dask scheduler address, or `local`")
    ap.add_argument("--resume", type=Path, default=None, help="campaign directory (saved chunks)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--out", type=Path, default=Path("campaign"))
    ap.add_argument("rulesets", nargs="*", help="default: every bundled ruleset")
    args = ap.parse_args(argv)
    from verify.engine.campaign import games_campaign
    from verify.errors import VerifyError
    from verify.execute import CampaignStore, run
    from verify.execute.backends import BackendUnavailable, make_backend
    from verify.execute.progress import Progress

    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=ROOT).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                           text=True, cwd=ROOT).stdout.strip()
    try:
        plan, skipped = rows(args.rulesets or targets(), args.games, args.seed)
        for rid, why in skipped:
            print(f"{rid}: {why}", flush=True)
        campaign = games_campaign(plan, "checked-campaign")
        total = sum(campaign.weight(i) for i in range(len(campaign.chunks)))
        outcome = run(campaign, make_backend(args.jobs, args.scheduler),
                      CampaignStore(args.resume) if args.resume else None,
                      Progress(total, campaign.unit, campaign.kind))
    except (VerifyError, BackendUnavailable) as exc:
        print(exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    args.out.mkdir(parents=True, exist_ok=True)
    out_rows, failed = [], False
    for data in outcome.result:
        rid = data["ruleset"]
        (args.out / (Path(rid).stem + ".json")).write_text(json.dumps(data, indent=1), encoding="utf-8")
        row = {k: data.get(k) for k in ("ruleset", "games", "players", "seed", "finished", "hit_limit",
                                        "player_turns", "cpu_s", "invariants_checked", "violation")}
        out_rows.append(row)
        if row["violation"]:
            failed = True
            print(f"{rid}: VIOLATION in game {row['violation'].get('game')}: "
                  f"{json.dumps(row['violation'])[:300]}", flush=True)
        else:
            print(f"{rid}: {row['games']} games, {row['finished']} finished, {row['hit_limit']} at the "
                  f"turn limit, no violation ({row['cpu_s']:.0f} CPU s)", flush=True)
    doc = {"what": f"python scripts/checked_campaign.py --games {args.games} --seed {args.seed} "
                   f"({outcome.backend}): verify simulate RULESET --check-invariants for every ruleset",
           "recorded_at_commit": commit + (" (with uncommitted changes)" if dirty else ""),
           "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}",
           "date": datetime.date.today().isoformat(), "elapsed_s": round(outcome.elapsed_s, 1),
           "runs": out_rows, "not_played": [{"ruleset": rid, "reason": why} for rid, why in skipped]}
    (args.out / "summary.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
