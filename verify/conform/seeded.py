"""Hypothesis draws that depend on the seed alone, not on what else the process has imported.

Hypothesis (recent releases: 6.155 and 6.170 seen here) sometimes draws a "constant" instead of a random
value, and takes those constants partly from the source of every *local*
module in ``sys.modules`` (code outside site-packages and the standard
library), re-scanned whenever a module is imported. So the same seed drew
different scenarios in ``verify conform``, on a Dask worker and in a plain
``run_chunk`` call: each had imported other modules
(the CLI, z3 after the first chunk, the engine under test), and an editable
install of this package counts as local where a normal one does not. A
chunk's result must depend only on its spec, so while ``seeded()`` is active
in a thread, constants come from hypothesis's fixed global pool only.

This reaches into one private method of hypothesis
(``HypothesisProvider._maybe_draw_constant``), kept to its own logic minus
the local pool. If a hypothesis release renames it, nothing is patched and
the reproducibility tests (``tests/test_conform_execute.py``) say so.
Outside ``seeded()`` (a user's own hypothesis tests in the same process)
hypothesis behaves as shipped.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import Iterator

_active = threading.local()


def _is_active() -> bool:
    return getattr(_active, "depth", 0) > 0


def _install() -> bool:
    try:
        from hypothesis.internal.conjecture import providers
        from hypothesis.internal.conjecture.choice import choice_constraints_key, choice_permitted
        shipped = providers.HypothesisProvider._maybe_draw_constant
        pool = providers.GLOBAL_CONSTANTS
    except (ImportError, AttributeError):
        return False
    if getattr(shipped, "_verify_seeded", False):
        return True

    cache: dict = {}                  # (choice type, constraints key) -> the permitted global constants

    def maybe_draw_constant(self, choice_type, constraints, *, p=0.05):
        if not _is_active():
            return shipped(self, choice_type, constraints, p=p)
        if self._random.random() > p:
            return None
        key = (choice_type, choice_constraints_key(choice_type, constraints))
        if key not in cache:
            cache[key] = tuple(c for c in pool.set_for_type(choice_type) if choice_permitted(c, constraints))
        choices = cache[key]
        return self._random.choice(choices) if choices else None

    maybe_draw_constant._verify_seeded = True
    providers.HypothesisProvider._maybe_draw_constant = maybe_draw_constant
    return True


@contextmanager
def seeded() -> Iterator[None]:
    """Within this block (in this thread), hypothesis's draws are a function of its random seed."""
    _install()
    _active.depth = getattr(_active, "depth", 0) + 1
    try:
        yield
    finally:
        _active.depth -= 1


__all__ = ["seeded"]
