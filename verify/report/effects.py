"""What an answer changes in play: each answer to a question played on one base game, against its own.

A table choosing its rules wants to know which choices matter. For each
question a table must decide (``questions.question_rows``: disputed, or changed
by a house rule), every answer the rulebooks, house rules and the user's tables
give is played on the base game (``official``) with **only that question's
values** changed, ``games`` seeded games each; game ``i`` of every answer has
the same dice seed as game ``i`` of the base (common random numbers), so each
answer's effect is the mean of per-game differences: game length (player-turns)
and money in play (the cash of the players still in, averaged over the game's
player-turns, in classic money), each with its 95 % interval (normal
approximation). An interval that includes 0 is "no measurable difference at N
games", never a sign.

An answer whose values compile to the base's own engine config is not played:
it plays as the base does (its values are the base's, or the engine does not
read them: a timer, a rating). One that cannot be played on the base (a value
that breaks a constraint there, such as a casino on a board with Free Parking)
says why. Nothing here is a guess: every figure is from games the engine played.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any, Callable

from ..config import EngineConfig
from ..engine.campaign import CampaignSpec, Row, by_row, players_for, plan as plan_chunks
from ..engine.campaign import run_chunk as engine_run_chunk
from ..engine.state import OVER
from ..errors import GameError, VerifyError
from ..execute import Campaign, run
from ..execute.backends import make_backend
from ..execute.progress import Progress
from ..spec.open_values import supply
from ..spec.ruleset import Ruleset
from .sample import Z95


class PerGame:
    """Campaign collector (built in the worker): each game's length and mean money in play, in game order."""

    def __init__(self, rules, players: int):
        self.turns: list[int] = []
        self.money: list[float] = []
        self._sum = 0
        self._n = 0

    def observe(self, g) -> None:
        if g.phase != OVER:
            cash, out = g.cash, g.bankrupt
            self._sum += sum(cash[i] for i in range(g.n) if not out[i])
            self._n += 1

    def game_over(self, result) -> None:
        self.turns.append(result.player_turns)
        self.money.append(self._sum / self._n if self._n else 0.0)
        self._sum = self._n = 0

    def to_json(self) -> dict:
        return {"turns": self.turns, "money": self.money}


@dataclass(frozen=True)
class Difference:
    """Mean of paired differences (answer minus base) with its 95 % interval."""

    mean: float
    lo: float
    hi: float
    games: int

    identical: bool = False       # every paired game came out the same (the engine plays it as the base)

    @property
    def measurable(self) -> bool:
        return self.lo > 0 or self.hi < 0


def paired(a: list[float], b: list[float]) -> Difference:
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    mean = sum(d) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1)) if n > 1 else 0.0
    half = Z95 * sd / math.sqrt(n) if n > 1 else math.inf
    return Difference(mean, mean - half, mean + half, n, all(x == 0 for x in d))


@dataclass(frozen=True)
class Effect:
    """One answer's effect on the base game: ``status`` is measured | as_base | not_played (``why``)."""

    status: str
    length: Difference | None = None
    money: Difference | None = None
    why: str | None = None

    def size(self, base: dict) -> float:
        """How much the answer changes the game, as a share of the base's mean (0 unless measurable)."""
        if self.status != "measured":
            return 0.0
        out = 0.0
        for d, key in ((self.length, "turns"), (self.money, "money")):
            if d is not None and d.measurable and base.get(key):
                out = max(out, abs(d.mean) / base[key])
        return out


@dataclass(frozen=True)
class Effects:
    base: str
    games: int
    players: int
    by_answer: dict[tuple[str, int], Effect]     # (question id, reading index) -> effect
    base_means: dict[str, float]                 # the base game's mean length and money in play
    status: str = "ran"                          # ran | not run | failed
    reason: str | None = None


def _values(row: dict, rd: dict, scale: int) -> dict[str, Any] | None:
    """The answer's values in the base's money; None when it leaves one to the table (an open value)."""
    if any(rd["open"]):
        return None
    out = {}
    for p, v in zip(row["params"], rd["values"]):
        if v is None:
            continue
        if p["money"] and scale != 1 and isinstance(v, (int, float)) and not isinstance(v, bool):
            v = int(v * scale)
        elif p["money"] and scale != 1 and isinstance(v, list):
            v = [int(x * scale) for x in v]
        out[p["id"]] = v
    return out


def measure(base: Ruleset, rows: list[dict], games: int, seed: int = 1, jobs: int | None = None,
            progress: bool = True, run_campaign: Callable | None = None) -> Effects:
    """Play every answer of every question to decide on ``base`` (see the module docstring)."""
    cfg0 = EngineConfig.from_ruleset(base)
    players = players_for(cfg0, base.id, None)
    h0 = cfg0.hash()
    configs: dict[str, EngineConfig] = {h0: cfg0}
    plan: dict[tuple[str, int], str | Effect] = {}
    for row in rows:
        if not row["to_decide"]:
            continue
        for i, rd in enumerate(row["readings"]):
            if not rd["offered"]:
                continue
            values = _values(row, rd, base.money_scale)
            if values is None:
                plan[(row["q"].id, i)] = Effect("not_played", why="it leaves a value to the table (set by the host)")
                continue
            try:
                cfg = EngineConfig.from_ruleset(supply(base, values))
                players_for(cfg, base.id, players)
            except (VerifyError, GameError) as exc:
                plan[(row["q"].id, i)] = Effect("not_played", why=_why(exc))
                continue
            h = cfg.hash()
            if h == h0:
                plan[(row["q"].id, i)] = Effect("as_base")
                continue
            configs.setdefault(h, cfg)
            plan[(row["q"].id, i)] = h
    labels = {h: f"c{i}" for i, h in enumerate(configs)}
    rows_ = [Row(labels[h], CampaignSpec(cfg, players, seed), games) for h, cfg in configs.items()]
    per_game = (run_campaign or _run)(rows_, jobs, progress)
    base_data = per_game[labels[h0]]
    if "error" in base_data:
        return Effects(base.id, games, players, {}, {}, "failed", f"the engine stopped playing {base.id}: "
                       f"{base_data['error']}")
    out = {}
    for k, v in plan.items():
        if isinstance(v, Effect):
            out[k] = v
            continue
        d = per_game[labels[v]]
        out[k] = Effect("not_played", why=f"the engine stopped: {d['error']}") if "error" in d else \
            Effect("measured", paired(d["turns"], base_data["turns"]), paired(d["money"], base_data["money"]))
    means = {"turns": sum(base_data["turns"]) / games, "money": sum(base_data["money"]) / games}
    return Effects(base.id, games, players, out, means)


def _why(exc: Exception) -> str:
    text = exc.message if isinstance(exc, VerifyError) and not getattr(exc, "errors", None) else str(exc)
    errors = getattr(exc, "errors", None)
    if errors:
        text = "; ".join(e.message for e in errors)
    return " ".join(str(text).split())[:300]


def run_chunk(chunk) -> dict:
    """One chunk of games (``engine.campaign.run_chunk``); an engine that stops on a combination of values
    is that answer's result ("the engine stopped: ..."), never the end of the report."""
    try:
        return engine_run_chunk(chunk)
    except (VerifyError, GameError, RuntimeError, ValueError, KeyError, IndexError) as exc:
        return {"label": chunk.label, "error": f"{type(exc).__name__}: {exc}"[:300]}


def _merge(rows: list[Row]):
    def merge(results: list[dict]) -> dict[str, dict]:
        out = {}
        for label, chunks in by_row(rows, results).items():
            error = next((c["error"] for c in chunks if "error" in c), None)
            out[label] = {"error": error} if error else {
                "turns": [t for c in chunks for t in c["collected"]["turns"]],
                "money": [m for c in chunks for m in c["collected"]["money"]]}
        return out
    return merge


def _run(rows: list[Row], jobs: int | None, progress: bool) -> dict[str, dict]:
    jobs = jobs if jobs is not None else min(2, os.cpu_count() or 1)
    chunks = plan_chunks(rows, PerGame)
    campaign = Campaign("effects", {"rows": [dict(r.spec.identity(), label=r.label, games=r.games) for r in rows]},
                        chunks, run_chunk, _merge(rows), weights=[c.stop - c.start for c in chunks], unit="games",
                        here=True)
    bar = Progress(sum(r.games for r in rows), "games", "report: effects", mode=None if progress else "off")
    return run(campaign, make_backend(jobs), progress=bar).result


__all__ = ["Difference", "Effect", "Effects", "PerGame", "measure", "paired"]
