"""``verify check`` over open values: for every value of the domain wherever the checks can say so.

A ruleset may leave a value ``open`` (set by a table's host or the players).
Its checks are first run with the catalogue's fallback standing in for it;
then, per open parameter:

* **every value** when no check read a config field the parameter controls
  (the encoding's read log, ``verify.smt.reads``, is exact: a value it never
  read cannot change a formula, so the verdicts hold for the whole domain);
* **each value** when the parameter has a small finite domain (true/false, an
  enumeration, a bounded number): the checks run once per combination of such
  values (constraint-breaking combinations left out, at most ``MAX_COMBOS``)
  and each cell's verdict is PROVED only if it is PROVED for every
  combination, VIOLATED with the combination that breaks it;
* **assumed** otherwise: the fallback's verdicts, and the result says so.

Every result of the ruleset carries these texts (``CheckResult.open_values``),
which ``verify check`` prints and the report shows.
"""

from __future__ import annotations

import itertools
from dataclasses import fields, is_dataclass, replace
from typing import Any

from ..config import EngineConfig
from ..spec.open_values import supply, unsupplied
from ..errors import ErrorList
from ..spec.ruleset import Entry
from ..spec.constraints import check_constraints
from .verdict import CheckResult, Verdict

#: the most combinations of finite open values checked one by one
MAX_COMBOS = 24
#: the largest bounded whole-number domain enumerated
MAX_RANGE = 8


def finite_domain(p) -> list | None:
    if p.type == "bool":
        return [True, False]
    if p.type == "enum":
        return list(p.values)
    if p.type in ("int", "int_or") and p.min is not None and p.max is not None and p.max - p.min < MAX_RANGE:
        return list(range(int(p.min), int(p.max) + 1)) + list(p.symbols)
    return None


def _samples(p, fallback) -> list:
    dom = finite_domain(p)
    if dom is not None:
        return dom
    base = int(p.min) if p.min is not None else 0
    numbers = [base, base + 1, base + 7, base + 1000] if p.type not in ("ratio", "ratio_or") else [0.0, 0.5, 1.0]
    return [fallback] + list(p.symbols) + numbers


def _leaves(obj, path=()) -> dict:
    if is_dataclass(obj) and not isinstance(obj, type):
        out = {}
        for f in fields(obj):
            out.update(_leaves(getattr(obj, f.name), path + (f.name,)))
        return out
    return {path: obj}


def controlled_paths(r, pid: str) -> set[tuple]:
    """The config fields whose value changes with ``pid`` (found by compiling sample values)."""
    p = r.catalogue[pid]
    base = _leaves(EngineConfig.from_ruleset(r))
    out: set[tuple] = set()
    for v in _samples(p, r.value(pid)):
        if p.check(v) is not None:
            continue
        try:
            other = _leaves(EngineConfig.from_ruleset(_without_constraints(supply, r, pid, v)))
        except Exception:  # noqa: BLE001 - a value that does not compile controls nothing we can check
            continue
        out |= {k for k in base if other.get(k) != base[k]}
    return out


def _without_constraints(supply, r, pid, v):
    try:
        return supply(r, {pid: v})
    except ErrorList:      # a constraint broken by this sample alone: the entry is enough for compiling
        return replace(r, entries={**r.entries, pid: Entry(pid, "assumed", v, reason="sample")})


def check_open(target, timeout_s: float, actions) -> list[CheckResult]:
    """The proofs of ``target`` over its open values (see the module docstring)."""
    from . import proofs
    r = target.ruleset
    base = proofs.check_ruleset(target.id, target.config, target.promised, timeout_s, actions=actions)
    reads = proofs.reads_of(target.config, target.promised, timeout_s, actions)
    notes: dict[str, str] = {}
    enumerate_: list[str] = []
    for e in unsupplied(r):
        pid = e.param
        fallback = r.value(pid)
        if reads is not None and not (controlled_paths(r, pid) & set(reads)):
            notes[pid] = f"{pid}: every value (the checks never read it)"
        elif finite_domain(r.catalogue[pid]) is not None:
            enumerate_.append(pid)
        else:
            notes[pid] = (f"{pid}: assumed {_show(fallback)}, the catalogue's fallback (an open value with an "
                          f"unbounded domain; check a host's choice with --set {pid}=VALUE)")
    combos = []
    if enumerate_:
        for values in itertools.product(*(finite_domain(r.catalogue[p]) for p in enumerate_)):
            setting = dict(zip(enumerate_, values))
            if all(setting[p] == r.value(p) for p in enumerate_):
                continue
            try:
                rr = supply(r, setting)
            except Exception:  # noqa: BLE001 - a combination a constraint forbids is no table at all
                continue
            if any(c.status == "broken" for c in check_constraints(rr)):
                continue
            combos.append((setting, rr))
    if len(combos) + 1 > MAX_COMBOS:
        for pid in enumerate_:
            notes[pid] = (f"{pid}: assumed {_show(r.value(pid))}, the catalogue's fallback (too many combinations "
                          f"of open values to check each; check a host's choice with --set {pid}=VALUE)")
        combos = []
    else:
        for pid in enumerate_:
            dom = ", ".join(_show(v) for v in finite_domain(r.catalogue[pid]))
            notes[pid] = f"{pid}: each value ({dom}) checked"
    results = _merge(base, [(s, proofs.check_ruleset(target.id, EngineConfig.from_ruleset(rr), target.promised,
                                                     timeout_s, actions=actions))
                            for s, rr in combos])
    texts = tuple(notes[k] for k in sorted(notes))
    return [replace(x, open_values=texts) for x in results]


def unsupplied_note(r) -> tuple[str, ...]:
    """For checks that are not enumerated (the bounded runs): the fallbacks they assumed."""
    values = ", ".join(f"{e.param} = {_show(r.value(e.param))}" for e in sorted(unsupplied(r), key=lambda e: e.param))
    return (f"bounded runs: open values at the catalogue's fallbacks ({values})",)


def _merge(base: list[CheckResult], others: list[tuple[dict, list[CheckResult]]]) -> list[CheckResult]:
    """Per cell: PROVED only if PROVED for every combination; else the first VIOLATED (or UNKNOWN) one."""
    if not others:
        return base
    by_cell = {(x.invariant, x.action): [x] for x in base}
    labels = {id(x): "the fallbacks" for x in base}
    for setting, rows in others:
        text = ", ".join(f"{k} = {_show(v)}" for k, v in setting.items())
        for x in rows:
            by_cell.setdefault((x.invariant, x.action), []).append(x)
            labels[id(x)] = text
    out = []
    for x in base:
        cell = by_cell[(x.invariant, x.action)]
        for verdict in (Verdict.VIOLATED, Verdict.UNKNOWN):
            bad = next((c for c in cell if c.verdict is verdict), None)
            if bad is not None:
                reason = f"with {labels[id(bad)]}" + (f": {bad.reason}" if bad.reason else "")
                out.append(replace(bad, ruleset=x.ruleset, reason=reason, cached=False))
                break
        else:
            out.append(x)
    return out


def _show(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
