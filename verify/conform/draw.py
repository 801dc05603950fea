"""Where a scenario's choices come from: a seeded source of small choices, the same on every machine.

Every choice a scenario makes (which loaded state, how much cash, which
action, the dice) is one call on a ``Draw``: ``int(low, high)``, ``bool()``,
``pick(seq)``, ``perm(seq)``. A ``Draw`` reads a ``random.Random`` seeded per
scenario, so a scenario is a function of its seed alone: not of the library
versions installed, the modules the process has loaded, the worker it runs on
or the scenarios drawn before it. Like hypothesis's generation, draws lean
towards the edges of their range (the lowest value, then the highest), where
rules break most often: cash exactly 0, the last house, a bid at the cash.

``HypothesisDraw`` is the same interface over hypothesis's ``draw``, so the
strategies of ``scenarios.py`` can also run inside a hypothesis test (for
property tests of the generation itself).
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Sequence

#: How often a draw takes the lowest value of its range, and how often the highest.
EDGE_LOW = 0.08
EDGE_HIGH = 0.04


class Draw:
    """Choices from a seeded generator (see the module docstring)."""

    __slots__ = ("rng", "count")

    def __init__(self, seed: int | random.Random):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        self.count = 0                    # choices made (a scenario's size, for the record)

    def int(self, low: int, high: int) -> int:
        self.count += 1
        if high <= low:
            return low
        r = self.rng.random()
        if r < EDGE_LOW:
            return low
        if r < EDGE_LOW + EDGE_HIGH:
            return high
        return self.rng.randint(low, high)

    def uniform(self, low: int, high: int) -> int:
        """Every value of the range alike (dice are fair: no lean to the edges)."""
        self.count += 1
        return self.rng.randint(low, high)

    def bool(self) -> bool:
        self.count += 1
        return self.rng.random() < 0.5

    def pick(self, seq: Sequence[Any]) -> Any:
        """One element of ``seq`` (uniform: the edges of a list are not special)."""
        self.count += 1
        seq = seq if isinstance(seq, (list, tuple)) else list(seq)
        return seq[self.rng.randrange(len(seq))]

    def perm(self, seq: Sequence[Any]) -> list:
        self.count += 1
        out = list(seq)
        self.rng.shuffle(out)
        return out

    def dice(self) -> "DiceRandom":
        """A ``random.Random`` for ``fill_random`` whose draws are this source's (uniform, like dice)."""
        return DiceRandom(self)


class DiceRandom(random.Random):
    """A ``random.Random`` that takes its values from a ``Draw`` (dice and other random fields uniform)."""

    def __init__(self, draw: "Draw | HypothesisDraw"):
        super().__init__(0)
        self._d = draw

    def randint(self, a, b):
        return self._d.uniform(a, b)

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            start, stop = 0, start
        return self._d.uniform(start, stop - 1)

    def random(self):
        return self._d.uniform(0, 2 ** 30) / 2 ** 30

    def _randbelow(self, n):          # shuffle, choice and sample draw through this: from the source too
        return self._d.uniform(0, n - 1)


class HypothesisDraw:
    """The ``Draw`` interface over a hypothesis ``draw`` (inside ``@given`` / ``st.composite``)."""

    def __init__(self, draw):
        self._draw = draw
        self.count = 0

    def int(self, low: int, high: int) -> int:
        return low if high <= low else self._draw(_ints(low, high))

    uniform = int

    def bool(self) -> bool:
        from hypothesis import strategies as st
        return self._draw(st.booleans())

    def pick(self, seq: Sequence[Any]) -> Any:
        seq = seq if isinstance(seq, (list, tuple)) else list(seq)
        return seq[self.int(0, len(seq) - 1)]

    def perm(self, seq: Sequence[Any]) -> list:
        from hypothesis import strategies as st
        return list(self._draw(st.permutations(list(seq))))

    def dice(self) -> DiceRandom:
        return DiceRandom(self)


@lru_cache(maxsize=None)
def _ints(low: int, high: int):
    from hypothesis import strategies as st
    return st.integers(low, high)


__all__ = ["Draw", "HypothesisDraw", "DiceRandom"]
