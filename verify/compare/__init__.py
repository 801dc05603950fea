"""Cross-ruleset comparison: differences classified, witnessed by z3, grouped by topic.

Public API: :func:`compare` returns a :class:`Comparison` of frozen
:class:`Finding` values; ``Comparison.to_json()`` is the documented
``verify contradictions --json`` document.
"""

from .from_rulesets import compare, default_members, load_registry
from .model import KINDS, Comparison, Finding, Outcome, Side, Witness

__all__ = ["compare", "default_members", "load_registry", "KINDS", "Comparison", "Finding", "Outcome",
           "Side", "Witness"]
