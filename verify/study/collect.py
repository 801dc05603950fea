"""What a study records while games are played, as exact sums that merge across chunks.

``StudyCollector`` is handed to the engine's campaign chunk (it is built in
the worker) and called by ``play_game``'s ``observe`` hook at the start of
every player-turn (and once when the game stops). Every ``EVERY``
player-turns of a game still running it samples the houses and
hotels on the board, the bank's stock and the money in play (the cash of the
players still in); at every turn, until it happens, it looks for the first
colour group wholly owned by one player. When the game ends its samples are
added to per-time sums with the count of games still running at that time,
so a merged mean is a sum over a count (never a mean of means).
"""

from __future__ import annotations

from ..engine.state import OVER
from ..execute.tally import Histogram, add_lists

#: player-turns between two samples of the time series
EVERY = 10
_BIG = 1 << 39     # an unlimited bank (GameState uses 1 << 40)


class StudyCollector:
    """Per-chunk accumulator (see the module docstring); ``observe`` is the game loop's hook."""

    def __init__(self, rules, players: int):
        self.street_groups = [tuple(rules.t.groups[i]) for i in rules.t.street_groups]
        self.alive: list[int] = []
        self.houses: list[int] = []
        self.hotels: list[int] = []
        self.bank_houses: list[int] = []
        self.bank_hotels: list[int] = []
        self.money: list[int] = []
        self.bank_limited = True
        self.first_group = Histogram()
        self.no_group = 0
        self.peak_houses = 0
        self._new_game()

    def _new_game(self) -> None:
        self._samples: list[tuple[int, int, int, int, int]] = []
        self._group_at: int | None = None
        self._peak = 0

    def observe(self, g) -> None:
        t = g.player_turns
        if self._group_at is None:
            owner = g.owner
            for squares in self.street_groups:
                o = owner[squares[0]]
                if o >= 0 and all(owner[s] == o for s in squares):
                    self._group_at = t
                    break
        if t % EVERY == 0 and len(self._samples) == t // EVERY and g.phase != OVER:
            houses = sum(g.houses)
            cash = g.cash
            money = sum(cash[i] for i in range(g.n) if not g.bankrupt[i])
            self._samples.append((houses, sum(1 for h in g.hotel if h), g.bank_houses, g.bank_hotels, money))
            if houses > self._peak:
                self._peak = houses

    def game_over(self, result) -> None:
        n = len(self._samples)
        if len(self.alive) < n:
            pad = [0] * (n - len(self.alive))
            for series in (self.alive, self.houses, self.hotels, self.bank_houses, self.bank_hotels, self.money):
                series.extend(pad)
        for k, (houses, hotels, bank_h, bank_t, money) in enumerate(self._samples):
            self.alive[k] += 1
            self.houses[k] += houses
            self.hotels[k] += hotels
            if bank_h >= _BIG or bank_t >= _BIG:
                self.bank_limited = False
            self.bank_houses[k] += min(bank_h, _BIG)
            self.bank_hotels[k] += min(bank_t, _BIG)
            self.money[k] += money
        if self._group_at is None:
            self.no_group += 1
        else:
            self.first_group.add(self._group_at)
        self.peak_houses += self._peak
        self._new_game()

    def to_json(self) -> dict:
        limited = self.bank_limited
        return {"every": EVERY, "alive": self.alive, "houses": self.houses, "hotels": self.hotels,
                "bank_houses": self.bank_houses if limited else None,
                "bank_hotels": self.bank_hotels if limited else None,
                "money": self.money, "first_group": self.first_group.to_json(), "no_group": self.no_group,
                "peak_houses": self.peak_houses}


def merge_collected(docs: list[dict]) -> dict:
    """The sum of chunk documents (``StudyCollector.to_json``)."""
    out = {"every": EVERY, "alive": [], "houses": [], "hotels": [], "bank_houses": [], "bank_hotels": [],
           "money": [], "first_group": Histogram(), "no_group": 0, "peak_houses": 0}
    limited = True
    for d in docs:
        for k in ("alive", "houses", "hotels", "money"):
            out[k] = add_lists(out[k], d[k])
        if d["bank_houses"] is None:
            limited = False
        else:
            out["bank_houses"] = add_lists(out["bank_houses"], d["bank_houses"])
            out["bank_hotels"] = add_lists(out["bank_hotels"], d["bank_hotels"])
        out["first_group"].update(Histogram.from_json(d["first_group"]))
        out["no_group"] += d["no_group"]
        out["peak_houses"] += d["peak_houses"]
    if not limited:
        out["bank_houses"] = out["bank_hotels"] = None
    return out


__all__ = ["StudyCollector", "merge_collected", "EVERY"]
