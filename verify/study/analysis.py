"""The study document: merged games of each ruleset turned into the figures a balance question needs.

Everything is computed from exact merged counts (``engine.campaign.Tally``
and ``collect.merge_collected``): quantiles from exact histograms, means as
sums over counts, and 95 % confidence intervals for shares by the Wilson
score interval (sound for small counts and shares near 0 or 1, unlike the
normal approximation). Time series are means over the games still running
at that player-turn (money in classic amounts: a source that plays with ten
times the classic money is divided by ten); a series stops where fewer than ``MIN_RUNNING`` of the
games (5 %, at least 5 games) are still running, since its mean then rests on
too few games to draw.
"""

from __future__ import annotations

import math

from ..engine.campaign import CampaignSpec, Tally
from ..execute.tally import Histogram

SCHEMA = "verify.study/1"
Z95 = 1.959963984540054
RULE_LIMITS = ("first_bankruptcy", "time_limit", "round_limit")
MIN_RUNNING = 0.05


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the share k/n (95 % by default); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def _share(k: int, n: int) -> dict:
    lo, hi = wilson(k, n)
    return {"count": k, "of": n, "share": round(k / n, 6) if n else None, "lo": round(lo, 6), "hi": round(hi, 6)}


def _series(c: dict, games: int, scale: float) -> dict:
    alive = c["alive"]
    floor = max(5, math.ceil(MIN_RUNNING * games)) if games >= 5 else 1
    keep = [k for k, a in enumerate(alive) if a >= floor]
    upto = (keep[-1] + 1) if keep else 0
    def mean(key: str, div: float = 1) -> list[float] | None:
        return None if c[key] is None else [round(c[key][k] / alive[k] / div, 3) for k in range(upto)]
    return {"every": c["every"], "turn": [k * c["every"] for k in range(upto)],
            "running": [round(alive[k] / games, 6) for k in range(upto)],
            "houses": mean("houses"), "hotels": mean("hotels"), "bank_houses": mean("bank_houses"),
            "bank_hotels": mean("bank_hotels"), "money": mean("money", scale)}


def row(label: str, title: str, spec: CampaignSpec, games: int, tally: Tally, c: dict, scale: float = 1) -> dict:
    """The study of one ruleset; money is divided by the source's money ``scale`` (classic amounts)."""
    h = tally.turns
    n = tally.games
    reasons = tally.end_reasons
    rule_limit = sum(reasons.get(k, 0) for k in RULE_LIMITS)
    stalled = n - tally.finished
    decided = sum(tally.wins)
    fg: Histogram = c["first_group"]
    return {
        "ruleset": label, "title": title, "players": spec.players, "games": n, "seed": spec.seed,
        "max_turns": spec.max_turns,
        "length": {"mean": round(h.mean(), 3), "p10": h.quantile(0.1), "p25": h.quantile(0.25),
                   "median": h.median(), "p75": h.quantile(0.75), "p90": h.quantile(0.9),
                   "max": max(h.counts, default=0), "histogram": h.to_json()},
        "outcomes": {"last_standing": _share(reasons.get("last_standing", 0), n),
                     "rule_limit": _share(rule_limit, n), "stalled": _share(stalled, n),
                     "end_reasons": dict(sorted(reasons.items()))},
        "seats": [dict(_share(w, decided), seat=i) for i, w in enumerate(tally.wins)],
        "fair_share": round(1 / spec.players, 6),
        "bankruptcies": {"total": sum(tally.bankruptcies), "per_game": round(sum(tally.bankruptcies) / n, 4)
                         if n else None, "by_seat": tally.bankruptcies},
        "houses": {"peak_mean": round(c["peak_houses"] / n, 3) if n else None},
        "money_scale": scale,
        "series": _series(c, n, scale),
        "first_group": {"games": fg.n, "never": c["no_group"], "share_never": _share(c["no_group"], n),
                        "median": fg.median() if fg.n else None, "p90": fg.quantile(0.9) if fg.n else None,
                        "histogram": fg.to_json()},
        "cpu_s": round(tally.cpu_s, 3),
    }


def document(rows: list[dict], games: int, seed: int, policy: str, players: int | None) -> dict:
    return {"schema": SCHEMA, "games": games, "seed": seed, "policy": policy, "players": players,
            "rows": rows}


__all__ = ["wilson", "row", "document", "SCHEMA", "Z95"]
