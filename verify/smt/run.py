"""Running every check on a list of rulesets: resolution, grouping, a campaign of families.

Rulesets whose compiled configs are equal (and promise the same) are checked
once; distinct ones are grouped in families (same compiled board), and each
family is one chunk of a campaign run by the execution layer
(``verify.execute``: this process, ``jobs`` local processes or a Dask
cluster). Inside a chunk, results are further reused between rulesets that
agree on every value an encoding read (``verify.smt.reads``) and identical z3
queries are solved once (``proofs.QueryCache``).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace

from ..config import EngineConfig
from ..spec import DEFAULT_RULESET, registry, load_ruleset
from ..spec.open_values import supply, unsupplied as open_entries
from ..errors import SpecError
from ..execute import Campaign, CampaignStore, run
from ..execute.backends import make_backend
from ..execute.progress import Progress
from .. import __version__
from .verdict import CheckResult
from .open_values import check_open, unsupplied_note


@dataclass(frozen=True)
class Target:
    """One ruleset to check, resolved: its display id and what the checks need."""

    id: str
    config: object        # EngineConfig
    promised: tuple[str, ...]
    ruleset: object       # verify.spec.Ruleset (for constraints)

    @classmethod
    def of(cls, r) -> "Target":
        """The target of a resolved ruleset (values supplied, overlays stacked)."""
        return cls(r.id, EngineConfig.from_ruleset(r), tuple(r.promised()), r)

    def fingerprint(self) -> str:
        """A hash of everything a check of this target depends on; computed once (every result row of a
        check carries it, and serialising the whole config per row was a sixth of a full check's CPU)."""
        fp = self.__dict__.get("_fingerprint")
        if fp is None:
            text = json.dumps([self.config.to_json(), _legacy_values(self.config), self.promised], sort_keys=True,
                              default=str)
            fp = hashlib.sha256(text.encode()).hexdigest()
            object.__setattr__(self, "_fingerprint", fp)       # frozen: a cache, not a field
        return fp


def _legacy_values(config) -> list:
    """Two values a check once took from the ruleset beside its config (both config fields now), kept in
    the hash so that a check saved before keeps its hash."""
    return [["bankruptcy.to_player_mortgaged", config.debt.to_player_mortgaged],
            ["building.supply_accounting", config.building.supply_accounting]]


def config_hash(r) -> str:
    """What a check of the resolved ruleset ``r`` depends on, hashed: every result of
    ``verify check --json`` carries it, and a saved check is used only while it still matches."""
    return Target.of(r).fingerprint()[:16]


def default_names() -> list[str]:
    """Every bundled ruleset; an overlay is checked stacked on the default ruleset."""
    reg = registry()
    out = []
    for rid in reg.bundled_ids():           # not a user's file this process has read
        out.append(f"{DEFAULT_RULESET}+{rid}" if reg.files[rid].kind == "overlay" else rid)
    return out


def resolve(names: list[str], settings: dict | None = None) -> list[Target]:
    """The rulesets to check, each with the ``--set`` values applied (``verify.spec.open_values``)."""
    out = []
    for name in names:
        r = load_ruleset(name)
        if r.is_overlay:
            r = load_ruleset(f"{DEFAULT_RULESET}+{name}")
        out.append(Target.of(supply(r, settings or {})))
    return out


def unsupplied(r) -> bool:
    return bool(open_entries(r))


@dataclass(frozen=True)
class CheckChunk:
    """One family of rulesets to check (picklable: what a worker receives)."""

    targets: tuple[Target, ...]
    timeout_s: float
    bounded_k: int
    actions: tuple[str, ...]
    depth: int = 12          # the longest run from a game's start the layer above searches (its chunk_fn)


def run_chunk(chunk: CheckChunk) -> list[dict]:
    """Every check of the chunk's rulesets, as JSON records (``CheckResult.to_record``)."""
    from . import bounded, constraints, proofs
    from .transitions import TRANSITIONS
    actions = chunk.actions
    chosen = TRANSITIONS if not actions else tuple(a for a in TRANSITIONS if a.name in actions)
    out: list[CheckResult] = []
    for t in chunk.targets:
        out += constraints.check(t.ruleset)
        if unsupplied(t.ruleset):
            proved = check_open(t, chunk.timeout_s, chosen)
            out += proved
            note = proved[0].open_values if proved else ()
        else:
            out += proofs.check_ruleset(t.id, t.config, t.promised, chunk.timeout_s, actions=chosen)
            note = ()
        if chunk.bounded_k and not actions:
            out += [replace(x, open_values=unsupplied_note(t.ruleset)) if note else x
                    for x in bounded.check(t.id, t.config, t.promised, chunk.timeout_s, chunk.bounded_k)]
    return [r.to_record() for r in out]


def _families(leaders: list[Target]) -> list[list[Target]]:
    """Rulesets on one compiled board (deeds, prices and squares in their money scale) share most terms and
    queries, whether or not one extends the other (classic-pl and official do not): one task per board,
    the biggest first (workers take the next task when free)."""
    families: dict[object, list[Target]] = {}
    for t in leaders:
        families.setdefault(t.config.board, []).append(t)
    return sorted(families.values(), key=len, reverse=True)


def check(names: list[str] | None = None, timeout_s: float = 10.0, jobs: int | None = None,
          bounded_k: int = 3, actions: tuple[str, ...] = (), settings: dict | None = None,
          scheduler: str | None = None, resume=None, progress: bool = False,
          label: str = "check", chunk_fn=run_chunk, depth: int = 12) -> list[CheckResult]:
    """Every check on every named ruleset (all bundled ones when ``names`` is empty).

    ``actions`` restricts the inductive checks to those transitions (and skips the bounded runs; a former
    name of a transition is taken with a ``FutureWarning``);
    ``settings`` are ``--set`` values given to every ruleset; ``jobs``, ``scheduler`` and ``resume``
    are the execution layer's (default: up to 2 local processes); ``progress`` shows a bar (or plain
    lines) on stderr named ``label``. ``chunk_fn`` checks one chunk in a worker (a module-level function:
    a layer above passes its own, which judges the refutations on real games, ``verify.runs.check``),
    ``depth`` is its longest run."""
    from .transitions import BY_NAME, canonical
    named = []
    for a in actions:
        try:
            named.append(canonical(a))
        except KeyError:
            raise SpecError("E033", f"unknown action {a!r}; actions: {', '.join(BY_NAME)}") from None
    actions = tuple(named)
    targets = resolve(list(names) if names else default_names(), settings)
    groups: dict[str, list[Target]] = {}
    for t in targets:
        groups.setdefault(t.fingerprint(), []).append(t)
    leaders = [g[0] for g in groups.values()]
    families = _families(leaders)
    chunks = [CheckChunk(tuple(fam), timeout_s, bounded_k, tuple(actions), depth) for fam in families]
    identity = {"version": __version__, "timeout_s": timeout_s, "bounded_k": bounded_k, "actions": list(actions),
                "families": [[[t.id, t.fingerprint()] for t in fam] for fam in families],
                "judged": f"{chunk_fn.__module__}.{chunk_fn.__name__}", "depth": depth}
    campaign = Campaign("check", identity, chunks, chunk_fn, lambda parts: [r for p in parts for r in p],
                        weights=[len(c.targets) for c in chunks], unit="rulesets")
    if scheduler is None:
        jobs = max(1, min(jobs or min(2, os.cpu_count() or 1), len(chunks)))
    store = CampaignStore(resume) if resume is not None else None
    bar = Progress(len(leaders), "rulesets", label, mode=None if progress else "off")
    records = run(campaign, make_backend(jobs, scheduler), store, bar).result
    by_leader: dict[str, list[CheckResult]] = {}
    for rec in records:
        r = CheckResult.from_record(rec)
        by_leader.setdefault(r.ruleset, []).append(r)
    out: list[CheckResult] = []
    for t in targets:
        leader = groups[t.fingerprint()][0]
        rows = by_leader.get(leader.id, [])
        mine = rows if leader is t else [replace(r, ruleset=t.id, cached=True) for r in rows
                                         if not r.invariant.startswith("constraint:")]
        if leader is not t:
            from . import constraints
            mine += constraints.check(t.ruleset)
        config = t.fingerprint()[:16]
        out += [replace(r, config=config) for r in mine]
    order = {t.id: i for i, t in enumerate(targets)}
    out.sort(key=lambda r: order.get(r.ruleset, 0))
    return out
