"""Exact, mergeable statistics: counts, elementwise sums and histograms of integers.

Chunk results are merged by adding, never by averaging averages: a mean is a
sum over a count, a median or percentile is read from an exact histogram of
the integer values (a game's length in player-turns, a turn number), so the
merged statistics of a campaign equal those of one uninterrupted run, to the
last digit, whatever the chunks were. JSON forms use string keys (JSON
objects cannot have integer keys) and are what chunks return.
"""

from __future__ import annotations

from typing import Iterable, Mapping


class Histogram:
    """Exact counts of integer values; merges by adding counts."""

    __slots__ = ("counts",)

    def __init__(self, counts: Mapping[int, int] | None = None):
        self.counts: dict[int, int] = dict(counts or {})

    def add(self, value: int, k: int = 1) -> None:
        self.counts[value] = self.counts.get(value, 0) + k

    def update(self, other: "Histogram") -> "Histogram":
        for v, k in other.counts.items():
            self.counts[v] = self.counts.get(v, 0) + k
        return self

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def total(self) -> int:
        return sum(v * k for v, k in self.counts.items())

    def mean(self) -> float:
        n = self.n
        return self.total / n if n else 0.0

    def sd(self) -> float:
        """The sample standard deviation (n - 1 in the denominator; 0 for fewer than two values)."""
        n = self.n
        if n < 2:
            return 0.0
        m = self.mean()
        return (sum(k * (v - m) ** 2 for v, k in self.counts.items()) / (n - 1)) ** 0.5

    def _at(self, rank: int) -> int:
        """The value at 0-based position ``rank`` of the sorted values."""
        seen = 0
        for v in sorted(self.counts):
            seen += self.counts[v]
            if rank < seen:
                return v
        raise IndexError(rank)

    def median(self) -> float:
        n = self.n
        if not n:
            return 0
        if n % 2:
            return self._at(n // 2)
        a, b = self._at(n // 2 - 1), self._at(n // 2)
        return a if a == b else (a + b) / 2

    def quantile(self, q: float) -> int:
        """The value at the nearest rank ``round(q * (n - 1))`` (an observed value, no interpolation)."""
        n = self.n
        if not n:
            return 0
        return self._at(min(n - 1, int(round(q * (n - 1)))))

    def share_at_most(self, xs: Iterable[int]) -> list[float]:
        """For each x (ascending): the share of values <= x (an empirical CDF)."""
        n = self.n or 1
        items = sorted(self.counts.items())
        out, i, acc = [], 0, 0
        for x in xs:
            while i < len(items) and items[i][0] <= x:
                acc += items[i][1]
                i += 1
            out.append(acc / n)
        return out

    def binned(self, width: int, upto: int | None = None) -> list[int]:
        """Counts in bins [0, w), [w, 2w), ... up to the bin holding ``upto`` (default: the largest value)."""
        top = max(self.counts, default=0) if upto is None else upto
        bins = [0] * (top // width + 1)
        for v, k in self.counts.items():
            if v <= top:
                bins[max(0, v) // width] += k
        return bins

    def to_json(self) -> dict[str, int]:
        return {str(v): self.counts[v] for v in sorted(self.counts)}

    @classmethod
    def from_json(cls, data: Mapping[str, int]) -> "Histogram":
        return cls({int(v): int(k) for v, k in data.items()})

    def __eq__(self, other) -> bool:
        return isinstance(other, Histogram) and self.counts == other.counts

    def __repr__(self) -> str:
        return f"Histogram(n={self.n})"


def add_lists(a: list, b: list) -> list:
    """Elementwise sum of two lists of numbers; the shorter one counts as padded with zeros."""
    if len(a) < len(b):
        a, b = b, a
    out = list(a)
    for i, v in enumerate(b):
        out[i] += v
    return out


def add_counts(a: Mapping[str, int], b: Mapping[str, int]) -> dict[str, int]:
    """Sum of two ``{key: count}`` maps."""
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + v
    return out


__all__ = ["Histogram", "add_lists", "add_counts"]
