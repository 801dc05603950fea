"""Cross-ruleset comparison: differences classified by what they rest on, witnessed by the engine, by topic.

Public API: :func:`compare` returns a :class:`Comparison` of frozen
:class:`Finding` values; ``Comparison.to_json()`` is the documented
``verify contradictions --json`` document.
"""

from ..interrupt import quiet_solver
from .from_rulesets import compare, default_members, load_registry
from .model import KINDS, Comparison, Finding, Outcome, Side, Witness

quiet_solver()     # Ctrl-C during a z3 query stops the run (verify.interrupt)

__all__ = ["compare", "default_members", "load_registry", "KINDS", "Comparison", "Finding", "Outcome",
           "Side", "Witness"]
