"""What the report's small simulation can tell about a table's game length, and what it cannot.

The report plays a few dozen games per ruleset so it builds quickly. Game
lengths vary a lot from game to game, so two rulesets' means from 30 games
each often differ by chance, in either direction. For each of the user's
tables this module compares the mean length with the base it builds on and
says "longer" or "shorter" only when a 95 % confidence interval of the
difference (normal approximation, unequal variances) excludes zero; otherwise
it says that this many games cannot tell, with the interval, and how to get a
real answer (``verify study`` on many games).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.96


@dataclass(frozen=True)
class Interval:
    mean: float
    lo: float
    hi: float


def mean_interval(turns: dict, games: int) -> Interval | None:
    """95 % interval of the mean game length from a ``verify simulate --json`` ``turns`` summary."""
    if games < 2 or "sd" not in turns:
        return None
    half = Z95 * float(turns["sd"]) / math.sqrt(games)
    return Interval(float(turns["mean"]), float(turns["mean"]) - half, float(turns["mean"]) + half)


@dataclass(frozen=True)
class LengthVerdict:
    table: str
    base: str
    games: int
    difference: float            # table mean - base mean (player-turns per game)
    lo: float
    hi: float
    name: str | None = None      # the table as a command names it (its file), when not its id

    @property
    def sign(self) -> str:
        """longer | shorter | cannot tell"""
        if self.lo > 0:
            return "longer"
        if self.hi < 0:
            return "shorter"
        return "cannot tell"

    @property
    def text(self) -> str:
        interval = f"{self.difference:+.0f} player-turns per game, 95 % interval [{self.lo:+.0f}, {self.hi:+.0f}]"
        if self.sign == "cannot tell":
            given = " (--set gives both rulesets the value)" if " --set " in (self.name or "") else ""
            return (f"{self.games} games of each cannot tell whether {self.table} plays longer or shorter than "
                    f"{self.base} ({interval}); `verify study {self.base} {self.name or self.table} --games 5000` "
                    f"can{given}")
        return f"{self.table} plays {self.sign} than {self.base}: {interval}, from {self.games} games of each"


def compare_lengths(table: str, base: str, runs: dict[str, dict], name: str | None = None) -> LengthVerdict | None:
    """The table's mean game length against its base's, from the simulate summaries ``runs`` (by ruleset)."""
    a, b = runs.get(table), runs.get(base)
    if not a or not b or "sd" not in a["turns"] or "sd" not in b["turns"]:
        return None
    na, nb = int(a["games"]), int(b["games"])
    if na < 2 or nb < 2:
        return None
    diff = float(a["turns"]["mean"]) - float(b["turns"]["mean"])
    se = math.sqrt(float(a["turns"]["sd"]) ** 2 / na + float(b["turns"]["sd"]) ** 2 / nb)
    return LengthVerdict(table, base, min(na, nb), diff, diff - Z95 * se, diff + Z95 * se, name)


__all__ = ["Interval", "LengthVerdict", "compare_lengths", "mean_interval"]
