"""Silence that contradicts the text: a silent entry whose fallback switches off a cited mechanism.

A silent entry plays the catalogue's fallback. Where that fallback switches a
mechanism off (no round limit, zero tax rates, unlimited building supply, no
per-turn limit) while the same ruleset enables the mechanism (it cites a round
limit as the end condition, a rent tax, a shortage auction), the game played
is not the game the text describes: the silence hides a rule the text states
without its number. The catalogue declares, per parameter, which values
switch which mechanism off and when a ruleset has it on
(``disables: [{values, mechanism, when}]``); this module applies those
declarations, one mechanism for every pattern (lint code E019).

A ruleset has the mechanism on when the ``when`` condition holds on its
decided (cited or assumed) values, or when the silent entry replaces an
inherited ruling that keeps the mechanism on (a template that falls silent on
what its parent mode cites). Such an entry must become an assumption with its
reason, or an ``open`` value that the user supplies; ``open`` values are
never played from the fallback (``verify.spec.open_values``).
"""

from __future__ import annotations

from typing import Any

from ..errors import SpecError
from ..expr import UNDECIDED, Undecided, evaluate, names
from .ruleset import Ruleset


def decided_env(r: Ruleset) -> dict[str, Any]:
    """Every parameter's value where the ruleset decides it; UNDECIDED where it is silent or open."""
    env = {pid: (e.value if e.has_value else UNDECIDED) for pid, e in r.entries.items()}
    for pid in r.catalogue.parameters:
        env.setdefault(pid, UNDECIDED)
    return env


def _holds(expr, env) -> bool:
    try:
        return bool(evaluate(expr, env))
    except Undecided:
        return False            # a condition that needs a silent or open value does not enable anything
    except (TypeError, ValueError):
        return False


def contradicting_silences(r: Ruleset, inherited: Ruleset | None = None) -> list[SpecError]:
    """E019 for every silent entry of ``r`` whose fallback switches off a mechanism ``r`` enables.

    ``inherited`` is what ``r`` would be without its own file (its parents, or the base an
    overlay is stacked on): a silent entry that replaces a ruling of theirs is judged by it too.
    """
    env = decided_env(r)
    out = []
    for pid, e in r.entries.items():
        if e.kind != "silent":
            continue
        p = r.catalogue[pid]
        fallback = p.scaled_fallback(r.money_scale)
        for d in p.disables:
            if not d.switches_off(fallback):
                continue
            because = None
            if d.expr is not None and _holds(d.expr, env):
                because = f"the ruleset enables it ({d.when}: {_cited(r, d.expr)})"
            else:
                before = inherited.entries.get(pid) if inherited is not None else None
                if before is not None and before.has_value and not d.switches_off(before.value) \
                        and before.ruleset != e.ruleset:
                    because = (f"{before.ruleset} rules {pid} = {before.value!r}"
                               + (f" at {before.where}" if before.where else "") + " and this entry replaces it")
            if because:
                out.append(SpecError(
                    "E019", f"{r.id}: {pid} is silent, and its fallback {fallback!r} switches off "
                    f"{d.mechanism}, although {because}; make the entry an assumption with its reason, or "
                    f"open if the source leaves the value to someone", e.where))
                break
    return out


def _cited(r: Ruleset, expr) -> str:
    parts = []
    for n in sorted(".".join(x) for x in names(expr)):
        e = r.entries.get(n)
        if e is not None and e.has_value and e.value is not False:   # a false switch did not enable it
            parts.append(f"{n} = {e.value!r}" + (f" at {e.where}" if e.where else ""))
    return ", ".join(parts)
