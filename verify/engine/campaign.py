"""Simulation campaigns as seeded chunks: what ``verify simulate``, ``verify study`` and the checked
campaign hand to the execution layer (``verify.execute``).

A campaign plays ``games`` seeded games of one or more rows (a row: a label,
usually the ruleset id, and a ``CampaignSpec``). It is cut into chunks of
consecutive game indices whose size depends only on the campaign (not on the
workers); game ``i`` of a row is seeded ``game_seed(seed, i)``, so a game is
the same game in any chunk, process or machine, and every row of a campaign
sees the same dice seeds (common random numbers: rulesets are compared on
the same luck). ``run_chunk`` plays one chunk and returns a JSON-able
``Tally`` (exact counts, sums and histograms), ``merge`` adds the tallies of
each row in chunk order. With ``--check-invariants`` a chunk stops at its
first violation and a row's result ends at its first violating chunk, so the
reported violation is the lowest game index whatever the scheduling.

A chunk may carry a collector class (``verify.study`` has one): it is
constructed in the worker, sees every player-turn through ``play_game``'s
``observe`` hook and adds its own JSON to the chunk result; the engine does not
know what it collects.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..config import EngineConfig
from ..errors import GameError
from ..execute.tally import Histogram, add_counts, add_lists
from ..execute import Campaign, run
from .. import __version__
from ..execute.backends import make_backend
from ..interrupt import at_safe_points
from .policies import make_policies
from .engines import rules_for
from .simulate import DEFAULT_MAX_TURNS, GameResult, game_seed, play_game

#: games per chunk: enough to amortise shipping a chunk (about 0.4 ms: 11 KB of config each way), small
#: enough to resume finely
GAMES_PER_CHUNK = 50
CHECKED_GAMES_PER_CHUNK = 5
#: guided chunking: a chunk holds at most 1/TAIL_SHARE of the games the campaign has left, and at least
#: TAIL_GAMES_PER_CHUNK, so the last chunks are small and the workers finish together (with chunks of 50
#: to the end, one worker played up to a whole chunk alone: a tenth of a 500-game campaign's time)
TAIL_SHARE = 8
TAIL_GAMES_PER_CHUNK = 5


@dataclass(frozen=True)
class CampaignSpec:
    config: EngineConfig
    players: int
    seed: int
    policy: str = "heuristic"
    jail: str = "leave"
    max_turns: int = DEFAULT_MAX_TURNS
    #: invariant ids to evaluate after every action (None: no checks, the fast path)
    check: tuple[str, ...] | None = None

    def identity(self) -> dict:
        """Everything that decides the games' outcomes (a campaign directory's manifest)."""
        return {"config": self.config.hash(), "players": self.players, "seed": self.seed, "policy": self.policy,
                "jail": self.jail, "max_turns": self.max_turns,
                "check": list(self.check) if self.check is not None else None}


@dataclass(frozen=True)
class GamesChunk:
    """Games ``start..stop-1`` of one row of a campaign (picklable: it is what a worker receives)."""

    label: str
    spec: CampaignSpec
    start: int
    stop: int
    #: a top-level class ``(rules, players) -> collector`` with ``observe(g)``, ``game_over(result)``,
    #: ``to_json()``; None when nothing beyond the tally is collected
    collector: Any = None


def players_for(cfg: EngineConfig, rid: str, players: int | None) -> int:
    """The number of players: ``players`` checked against the ruleset, or 4 (the nearest count it allows)."""
    lo, hi = cfg.setup.players_min, cfg.setup.players_max
    if players is None:
        players = min(max(4, lo), hi)
        if cfg.teams.enabled and players % cfg.teams.size:
            players += cfg.teams.size - players % cfg.teams.size
    if not lo <= players <= hi:
        raise GameError(f"{rid} is played by {lo} to {hi} players; --players {players} is outside that range")
    if cfg.teams.enabled and players % cfg.teams.size:
        raise GameError(f"{rid} is played in teams of {cfg.teams.size}; --players must be a multiple of it")
    return players


# ---------------------------------------------------------------------- exact tallies
class Tally:
    """The mergeable summary of some games of one row: counts, sums and exact histograms."""

    def __init__(self, players: int, squares: int):
        self.players = players
        self.games = 0
        self.finished = 0
        self.end_reasons: dict[str, int] = {}
        self.turns = Histogram()
        self.rolls = Histogram()
        self.landings = [0] * squares
        self.wins = [0] * players
        self.bankruptcies = [0] * players
        self.violation: dict | None = None
        self.cpu_s = 0.0

    def add(self, r: GameResult) -> None:
        self.games += 1
        self.finished += r.finished
        key = r.result or "limit"
        self.end_reasons[key] = self.end_reasons.get(key, 0) + 1
        self.turns.add(r.player_turns)
        self.rolls.add(r.rolls)
        lands = self.landings
        for i, v in enumerate(r.landings):
            lands[i] += v
        if r.finished and r.winner is not None:
            self.wins[r.winner] += 1
        for b in r.bankrupt:
            self.bankruptcies[b] += 1

    def to_json(self) -> dict:
        return {"players": self.players, "games": self.games, "finished": self.finished,
                "end_reasons": dict(sorted(self.end_reasons.items())), "turns": self.turns.to_json(),
                "rolls": self.rolls.to_json(), "landings": self.landings, "wins": self.wins,
                "bankruptcies": self.bankruptcies, "violation": self.violation, "cpu_s": round(self.cpu_s, 4)}

    @classmethod
    def merge(cls, docs: Sequence[dict]) -> "Tally":
        """The tally of chunks given in game order; it ends with the first chunk that found a violation."""
        t = cls(docs[0]["players"], len(docs[0]["landings"])) if docs else cls(0, 0)
        for d in docs:
            t.games += d["games"]
            t.finished += d["finished"]
            t.end_reasons = add_counts(t.end_reasons, d["end_reasons"])
            t.turns.update(Histogram.from_json(d["turns"]))
            t.rolls.update(Histogram.from_json(d["rolls"]))
            t.landings = add_lists(t.landings, d["landings"])
            t.wins = add_lists(t.wins, d["wins"])
            t.bankruptcies = add_lists(t.bankruptcies, d["bankruptcies"])
            t.cpu_s += d.get("cpu_s", 0.0)
            if d.get("violation") is not None:
                t.violation = d["violation"]
                break
        return t

    def summary(self, label: str, spec: CampaignSpec, games: int) -> dict:
        """The ``verify simulate --json`` document of this row (timing fields: ``cpu_s`` only)."""
        turns = self.turns.total
        doc = {"ruleset": label, "games": games, "players": spec.players, "seed": spec.seed,
               "policy": spec.policy, "jail_strategy": spec.jail,
               "finished": self.finished, "hit_limit": self.games - self.finished,
               "end_reasons": dict(sorted(self.end_reasons.items())),
               "rolls": self.rolls.total, "player_turns": turns,
               "turns": _dist(self.turns), "rolls_per_game": _dist(self.rolls),
               "landings": self.landings, "wins": self.wins, "bankruptcies": self.bankruptcies,
               "bankruptcies_total": sum(self.bankruptcies), "cpu_s": round(self.cpu_s, 3)}
        if spec.check is not None:
            doc["invariants_checked"] = list(spec.check)
        doc["violation"] = self.violation
        return doc


def _dist(h: Histogram) -> dict:
    if not h.n:
        return {"mean": 0, "median": 0, "p90": 0, "sd": 0}
    n = h.n
    median = h._at(n // 2) if n % 2 else (h._at(n // 2 - 1) + h._at(n // 2)) / 2
    return {"mean": round(h.mean(), 2), "median": median, "p90": h.quantile(0.9), "sd": round(h.sd(), 2)}


# ---------------------------------------------------------------------- one chunk
def play_chunk(chunk: GamesChunk, on_game: Callable[[GameResult], None], observe=None) -> dict | None:
    """Play the chunk's games, calling ``on_game`` with each result; the first violation (or None)."""
    spec = chunk.spec
    rules = rules_for(spec.config)
    checker = None
    if spec.check is not None:
        from .trace import InvariantBroken, InvariantChecker, TraceRecorder   # (the invariants: a checked run)
        checker = InvariantChecker(spec.config, spec.check)
    with at_safe_points() as safe_point:        # Ctrl-C reaches this process between two games
        for i in range(chunk.start, chunk.stop):
            safe_point()
            s = game_seed(spec.seed, i)
            pols = make_policies(spec.policy, spec.players, spec.jail, s)
            if checker is None:
                on_game(play_game(rules, pols, s, spec.max_turns, observe=observe))
                continue
            try:
                on_game(play_game(rules, pols, s, spec.max_turns, TraceRecorder(None, None, checker),
                                  observe=observe))
            except InvariantBroken as exc:
                return dict(exc.report(), game=i, seed=s)
    return None


def run_chunk(chunk: GamesChunk) -> dict:
    """Play one chunk; its JSON-able result ``{"label", "tally", "collected"}`` (see ``merge``)."""
    cpu0 = time.process_time()
    tally = Tally(chunk.spec.players, chunk.spec.config.board.size)
    collector = chunk.collector(rules_for(chunk.spec.config), chunk.spec.players) if chunk.collector else None
    if collector is None:
        tally.violation = play_chunk(chunk, tally.add)
    else:
        def on_game(r: GameResult) -> None:
            tally.add(r)
            collector.game_over(r)
        tally.violation = play_chunk(chunk, on_game, collector.observe)
    tally.cpu_s = time.process_time() - cpu0
    return {"label": chunk.label, "tally": tally.to_json(),
            "collected": collector.to_json() if collector is not None else None}


# ---------------------------------------------------------------------- a campaign
@dataclass(frozen=True)
class Row:
    label: str
    spec: CampaignSpec
    games: int


def chunk_sizes(games: int, later: int = 0, most: int = GAMES_PER_CHUNK) -> list[int]:
    """The sizes of a row's chunks: ``most`` games each until the campaign (this row's ``games`` and the
    ``later`` games of the rows after it) nears its end, then guided: a share of what is left, shrinking
    to ``TAIL_GAMES_PER_CHUNK``. A function of the campaign alone (never of the workers), so a campaign
    directory resumes on any backend."""
    out = []
    while games > 0:
        left = games + later
        size = min(games, most, max(TAIL_GAMES_PER_CHUNK, -(-left // TAIL_SHARE)))
        out.append(size)
        games -= size
    return out


def plan(rows: Sequence[Row], collector: Any = None) -> list[GamesChunk]:
    out = []
    later = sum(row.games for row in rows)
    for row in rows:
        later -= row.games
        most = CHECKED_GAMES_PER_CHUNK if row.spec.check is not None else GAMES_PER_CHUNK
        start = 0
        for size in chunk_sizes(row.games, later, most):
            out.append(GamesChunk(row.label, row.spec, start, start + size, collector))
            start += size
    return out


def by_row(rows: Sequence[Row], results: Sequence[dict]) -> dict[str, list[dict]]:
    """Chunk results grouped by row label, each list in game order (results come in chunk order)."""
    out: dict[str, list[dict]] = {r.label: [] for r in rows}
    for res in results:
        out[res["label"]].append(res)
    return out


def merge(rows: Sequence[Row], results: Sequence[dict]) -> list[dict]:
    """One ``verify simulate`` summary per row."""
    grouped = by_row(rows, results)
    return [Tally.merge([r["tally"] for r in grouped[row.label]]).summary(row.label, row.spec, row.games)
            for row in rows]


def games_campaign(rows: Sequence[Row], kind: str = "simulate", collector: Any = None,
                   merge_fn: Callable[[list], Any] | None = None):
    """The execution layer's ``Campaign`` for these rows (a single row stops at its first violation)."""
    chunks = plan(rows, collector)
    identity = {"version": __version__, "collector": getattr(collector, "__name__", None),
                "rows": [dict(row.spec.identity(), label=row.label, games=row.games) for row in rows]}
    stops = (lambda r: r["tally"]["violation"] is not None) if len(rows) == 1 else None
    return Campaign(kind, identity, chunks, run_chunk, merge_fn or (lambda results: merge(rows, results)),
                    weights=[c.stop - c.start for c in chunks], unit="games", stops=stops, here=True)


class RunSummary:
    """What ``run_campaign`` returns: the summary document and the first violation."""

    def __init__(self, doc: dict, elapsed_s: float):
        self.doc = dict(doc, elapsed_s=round(elapsed_s, 3),
                        player_turns_per_s=round(doc["player_turns"] / elapsed_s, 1) if elapsed_s > 0 else None)
        self.violation = doc["violation"]

    def to_json(self) -> dict:
        return dict(self.doc)


def run_campaign(spec: CampaignSpec, games: int, ruleset: str, jobs: int = 1, backend=None) -> RunSummary:
    """Play ``games`` games of one ruleset with ``jobs`` local processes (or ``backend``) and summarise."""
    rules_for(spec.config)  # fail early on a bad config
    out = run(games_campaign([Row(ruleset, spec, games)]), backend or make_backend(jobs))
    return RunSummary(out.result[0], out.elapsed_s)


__all__ = ["CampaignSpec", "GamesChunk", "Row", "Tally", "plan", "run_chunk", "merge", "games_campaign",
           "run_campaign", "players_for", "RunSummary", "GAMES_PER_CHUNK", "CHECKED_GAMES_PER_CHUNK", "chunk_sizes"]
