"""Whether a parameter means anything in a ruleset: the catalogue's ``applies_when``, applied.

Many parameters describe a detail of a mechanism that some games do not have:
what the Bus face of a speed die does, how long a pause vote lasts, who bids in
the auction of an expired mortgage. The catalogue declares, once per such
parameter, the condition under which it applies (``applies_when``, in the
expression language over other parameters). In a ruleset where the condition
does not hold, the parameter's value is *not applicable*: it is shown as such,
never compared with another ruleset's value, and a ruleset may say so in an
assumed entry ("Not applicable: ...") only where the catalogue agrees (lint
E034).

A condition reads the values the engine plays (cited, assumed, or the fallback
of a silent entry). An open value nobody supplied is unknown: a condition that
needs it may hold, so the parameter counts as applicable.
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import SpecError
from ..expr import UNDECIDED, Undecided, evaluate
from .ruleset import Entry, Ruleset

#: How a ruleset marks an entry as not applicable: the words in its reason.
MARK = re.compile(r"\bnot applicable\b", re.IGNORECASE)


def played_env(r: Ruleset) -> dict[str, Any]:
    """Every parameter's played value; UNDECIDED for an open value nobody supplied."""
    env = r.values()
    for pid, e in r.entries.items():
        if e.kind == "open":
            env[pid] = UNDECIDED
    return env


def applies(r: Ruleset, pid: str, env: dict[str, Any] | None = None) -> bool:
    """Whether ``pid`` means anything in ``r`` (True where the catalogue declares no condition)."""
    p = r.catalogue[pid]
    if p.applies_expr is None:
        return True
    try:
        return bool(evaluate(p.applies_expr, env if env is not None else played_env(r)))
    except Undecided:
        return True             # the condition needs an open value: it may hold
    except (TypeError, ValueError):
        return True


def not_applicable(r: Ruleset, env: dict[str, Any] | None = None) -> set[str]:
    """The parameters that mean nothing in ``r``."""
    env = env if env is not None else played_env(r)
    return {pid for pid, p in r.catalogue.parameters.items()
            if p.applies_expr is not None and not applies(r, pid, env)}


def marked(e: Entry) -> bool:
    """Whether the entry itself says its parameter is not applicable."""
    return e.kind == "assumed" and bool(MARK.search(e.reason or ""))


def unfounded_marks(r: Ruleset, users: frozenset[str] | set[str] = frozenset()) -> list[SpecError]:
    """E034 for each entry of ``r`` marked "not applicable" where the catalogue does not agree: the
    parameter declares no condition (reported in the file that writes the entry), or its condition
    holds in ``r`` (reported in every ruleset where it holds, inherited entries included: a mode
    that switches a mechanism on must not keep its parent's "not applicable"). ``users`` are the
    user's own files: a user's table that switches a mechanism on is not blamed for a mark it
    inherits (the value it then plays is one it does not state: ``verify.spec.played``)."""
    env = played_env(r)
    out = []
    for pid, e in r.entries.items():
        if not marked(e):
            continue
        p = r.catalogue[pid]
        if p.applies_expr is None:
            if e.ruleset == r.chain[-1]:
                out.append(SpecError("E034", f"{r.id}: {pid} is marked not applicable, but the catalogue "
                                     "declares no condition under which it applies: add `applies_when` to "
                                     "the parameter, or give the entry's real reason", e.where))
        elif applies(r, pid, env) and (e.ruleset == r.chain[-1] or r.chain[-1] not in users):
            out.append(SpecError("E034", f"{r.id}: {pid} is marked not applicable, but its condition "
                                 f"({p.applies_when}) holds in this ruleset", e.where))
    return out


__all__ = ["applies", "not_applicable", "marked", "unfounded_marks", "played_env", "MARK"]
