"""Running every check on a list of rulesets: resolution, grouping, two worker processes.

Rulesets whose compiled configs are equal (and promise the same) are checked
once; distinct ones are spread over worker processes (``jobs``). Inside a
process, results are further reused between rulesets that agree on every
value an encoding read (``verify.smt.reads``) and identical z3 queries are
solved once (``proofs.QueryCache``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace

from .verdict import CheckResult


@dataclass(frozen=True)
class Target:
    """One ruleset to check, resolved: its display id and what the checks need."""

    id: str
    config: object        # EngineConfig
    extras: dict
    promised: tuple[str, ...]
    ruleset: object       # verify.spec.Ruleset (for constraints)

    def fingerprint(self) -> str:
        text = json.dumps([self.config.to_json(), sorted(self.extras.items()), self.promised], sort_keys=True,
                          default=str)
        return hashlib.sha256(text.encode()).hexdigest()


def default_names() -> list[str]:
    """Every bundled ruleset; an overlay is checked stacked on the default ruleset."""
    from ..spec import DEFAULT_RULESET, registry
    reg = registry()
    out = []
    for rid in reg.ids():
        out.append(f"{DEFAULT_RULESET}+{rid}" if reg.files[rid].kind == "overlay" else rid)
    return out


def resolve(names: list[str], settings: dict | None = None) -> list[Target]:
    """The rulesets to check, each with the ``--set`` values applied (``verify.spec.open_values``)."""
    from ..config import EngineConfig
    from ..spec import DEFAULT_RULESET, load_ruleset
    from ..spec.open_values import supply
    from .model import extras_of
    out = []
    for name in names:
        r = load_ruleset(name)
        if r.is_overlay:
            r = load_ruleset(f"{DEFAULT_RULESET}+{name}")
        r = supply(r, settings or {})
        out.append(Target(r.id, EngineConfig.from_ruleset(r), extras_of(r), tuple(r.promised()), r))
    return out


def unsupplied(r) -> bool:
    from ..spec.open_values import unsupplied as open_entries
    return bool(open_entries(r))


def _check_group(args) -> list[CheckResult]:
    targets, timeout_s, bounded_k, actions = args
    from . import bounded, constraints, proofs
    from .actions import ACTIONS
    chosen = ACTIONS if not actions else tuple(a for a in ACTIONS if a.name in actions)
    out: list[CheckResult] = []
    from .open_values import check_open, unsupplied_note
    for t in targets:
        out += constraints.check(t.ruleset)
        if unsupplied(t.ruleset):
            proved = check_open(t, timeout_s, chosen)
            out += proved
            note = proved[0].open_values if proved else ()
        else:
            out += proofs.check_ruleset(t.id, t.config, t.extras, t.promised, timeout_s, actions=chosen)
            note = ()
        if bounded_k and not actions:
            out += [replace(x, open_values=unsupplied_note(t.ruleset)) if note else x
                    for x in bounded.check(t.id, t.config, t.extras, t.promised, timeout_s, bounded_k)]
    return out


def _families(leaders: list[Target]) -> list[list[Target]]:
    """Rulesets of one family (same base ruleset) share most terms and queries: one task per family,
    the biggest first (workers take the next task when free)."""
    families: dict[str, list[Target]] = {}
    for t in leaders:
        chain = getattr(t.ruleset, "chain", None) or (t.id,)
        families.setdefault(chain[0], []).append(t)
    return sorted(families.values(), key=len, reverse=True)


def check(names: list[str] | None = None, timeout_s: float = 10.0, jobs: int | None = None,
          bounded_k: int = 3, actions: tuple[str, ...] = (), settings: dict | None = None) -> list[CheckResult]:
    """Every check on every named ruleset (all bundled ones when ``names`` is empty).

    ``actions`` restricts the inductive checks to those actions (and skips the bounded runs);
    ``settings`` are ``--set`` values given to every ruleset."""
    from ..errors import SpecError
    from .actions import BY_NAME
    for a in actions:
        if a not in BY_NAME:
            raise SpecError("E009", f"unknown action {a!r}; actions: {', '.join(BY_NAME)}")
    targets = resolve(list(names) if names else default_names(), settings)
    groups: dict[str, list[Target]] = {}
    for t in targets:
        groups.setdefault(t.fingerprint(), []).append(t)
    leaders = [g[0] for g in groups.values()]
    jobs = max(1, min(jobs or min(2, os.cpu_count() or 1), len(leaders)))
    if jobs == 1:
        parts = [_check_group((leaders, timeout_s, bounded_k, tuple(actions)))]
    else:
        import multiprocessing
        ctx = multiprocessing.get_context("fork")
        tasks = [(fam, timeout_s, bounded_k, tuple(actions)) for fam in _families(leaders)]
        with ctx.Pool(jobs) as pool:
            parts = list(pool.imap_unordered(_check_group, tasks, chunksize=1))
    by_leader: dict[str, list[CheckResult]] = {}
    for part in parts:
        for r in part:
            by_leader.setdefault(r.ruleset, []).append(r)
    out: list[CheckResult] = []
    for t in targets:
        leader = groups[t.fingerprint()][0]
        rows = by_leader.get(leader.id, [])
        out += rows if leader is t else [replace(r, ruleset=t.id, cached=True) for r in rows
                                         if not r.invariant.startswith("constraint:")]
        if leader is not t:
            from . import constraints
            out += constraints.check(t.ruleset)
    order = {t.id: i for i, t in enumerate(targets)}
    out.sort(key=lambda r: order.get(r.ruleset, 0))
    return out
