"""Checks that need more than one step: a house shortage, a bankruptcy, no building from nothing.

* ``house-shortage-reachable``: from a state that satisfies the invariants
  with nothing built and the bank's full stock, a run of legal
  ``build_house`` steps empties the bank. The run builds evenly, group by
  group (the order of the streets is fixed, everything else — owners, cash,
  mortgages — is left to the solver), so a SAT answer is a real witness of
  ``supply`` steps. Not applicable with an unlimited supply.
* ``bankruptcy-reachable``: from a state that satisfies the invariants, with
  nothing built and nobody bankrupt, an owner builds ``k - 1`` houses and then
  the rent one of its streets asks is more than another player can raise:
  that player goes bankrupt (a rent, not an arbitrary debt, causes it).
* ``no-building-from-nothing``: in every legal step, no street gains a
  building except by a paid build (one house on the street built on, paid at
  its house cost; one hotel; the houses a broken-down hotel becomes); since
  this holds for every single step it holds for runs of every length ``k``.
  Being a property of one step, it is proved with the invariants of each action
  (``verify.smt.proofs.no_building_goal``).

Verdicts: PROVED (the property holds / the witness exists), VIOLATED (with a
counterexample, or: unreachable within the bound), UNKNOWN on a timeout.
"""

from __future__ import annotations

import time
from dataclasses import replace

import z3

from ..invariants import load_invariants
from .transitions import BY_NAME, Args, street_rent
from .model import Model
from .proofs import invariant_before
from .reads import Log, Recorder, same_reads
from .state import domain, fresh
from .verdict import CheckResult, Verdict


def _start(m: Model, tag: str, promised) -> tuple:
    s = fresh(m, tag)
    cons = domain(m, s) + [invariant_before(m, i, s) for i in load_invariants()
                           if i.kind == "state" and i.id in promised]
    return s, cons


def _solve(cons: list, timeout_s: float) -> tuple[str, z3.ModelRef | None, str | None]:
    sol = z3.Solver()
    sol.set("timeout", int(timeout_s * 1000))
    sol.add(cons)
    res = sol.check()
    if res == z3.sat:
        return "sat", sol.model(), None
    if res == z3.unsat:
        return "unsat", None, None
    return "unknown", None, sol.reason_unknown()


def _schedule(m: Model) -> list[int]:
    """Streets to build on, one house per step, evenly, group by group, until the supply is used."""
    groups = sorted(m.street_groups, key=lambda g: -len(g[1]))
    supply = m.house_supply
    order: list[int] = []
    chosen: list[tuple[int, ...]] = []
    for _, idx in groups:
        if sum(len(c) for c in chosen) * m.config.building.max_houses >= supply:
            break
        chosen.append(idx)
    for idx in chosen:
        for _level in range(m.config.building.max_houses):
            order.extend(idx)
    return order[:supply]


def shortage(rid: str, m: Model, promised, timeout_s: float) -> CheckResult:
    name = "bounded:house-shortage-reachable"
    if m.house_supply is None:
        return CheckResult(rid, name, "build_house", False, Verdict.VIOLATED, None,
                           "the house supply is unlimited: a shortage cannot happen")
    plan = _schedule(m)
    if len(plan) < m.house_supply:
        return CheckResult(rid, name, "build_house", True, Verdict.VIOLATED, None,
                           f"the board cannot hold {m.house_supply} houses at {m.config.building.max_houses} "
                           "per street")
    t0 = time.perf_counter()
    s, cons = _start(m, "@0", promised)
    cons += [p.houses == 0 for p in s.props] + [p.hotels == 0 for p in s.props]
    action = BY_NAME["build_house"]
    for k, sq in enumerate(plan):
        args = Args.fresh(f"bh@{k}", m)
        g, s = action.build(m, s, args)
        cons += [g, args.sq == sq]
    cons.append(s.bank_houses == 0)
    status, model, why = _solve(cons, timeout_s)
    secs = time.perf_counter() - t0
    if status == "sat":
        return CheckResult(rid, name, "build_house", True, Verdict.PROVED, None,
                           f"{len(plan)} legal builds empty the bank's {m.house_supply} houses", secs)
    if status == "unsat":
        return CheckResult(rid, name, "build_house", True, Verdict.VIOLATED, None,
                           f"no run of {len(plan)} even builds empties the bank", secs)
    return CheckResult(rid, name, "build_house", True, Verdict.UNKNOWN, None, f"solver: {why}", secs)


def bankruptcy(rid: str, m: Model, promised, timeout_s: float, k: int) -> CheckResult:
    """From a state with nothing built and nobody bankrupt, the owner (seat 1) builds k - 1 houses, then
    the rent of one of its streets is more than seat 0 can raise: seat 0 goes bankrupt to seat 1."""
    name = "bounded:bankruptcy-reachable"
    t0 = time.perf_counter()
    s, cons = _start(m, "@0", promised)
    cons += [z3.Not(p.bankrupt) for p in s.players]
    cons += [p.houses == 0 for p in s.props] + [p.hotels == 0 for p in s.props]
    build = BY_NAME["build_house"]
    for j in range(max(0, k - 1)):
        a = Args.fresh(f"build@{j}", m)
        g, s = build.build(m, s, Args(1, 0, *[getattr(a, f) for f in ("sq", "sq2", "amt", "dice", "f1", "f2",
                                                                      "f3", "f4", "f5", "f6")]))
        cons.append(g)
    end = Args.fresh("bankrupt@end", m)
    due = [z3.And(p.owner == 1, end.amt == street_rent(m, s, p.index)) for p in s.props if p.kind == "street"]
    g, _after = BY_NAME["bankrupt_to_player"].build(m, s, Args(0, 1, *[getattr(end, f) for f in (
        "sq", "sq2", "amt", "dice", "f1", "f2", "f3", "f4", "f5", "f6")]))
    cons += [z3.Or(due), g]
    status, _, why = _solve(cons, timeout_s)
    secs = time.perf_counter() - t0
    verdict = {"sat": Verdict.PROVED, "unsat": Verdict.VIOLATED}.get(status, Verdict.UNKNOWN)
    reason = {"sat": f"after {k - 1} legal builds a street's rent bankrupts a player",
              "unsat": f"no rent bankrupts a player after {k - 1} builds"}.get(status, f"solver: {why}")
    return CheckResult(rid, name, "build_house|bankrupt_to_player", True, verdict, None, reason, secs)


_DONE: list[tuple[dict, tuple, CheckResult]] = []


def check(rid: str, config, promised, timeout_s: float, k: int = 3) -> list[CheckResult]:
    """The bounded checks for one ruleset; each is reused for rulesets that read the same values."""
    out = []
    for name in ("shortage", "bankruptcy"):
        key = (name, tuple(sorted(promised)), timeout_s, k)
        hit = next((r for entries, kk, r in _DONE if kk == key and same_reads(config, entries)), None)
        if hit is not None:
            out.append(replace(hit, ruleset=rid, seconds=0.0, cached=True))
            continue
        log = Log()
        m = Model.from_config(Recorder(config, log))
        res = shortage(rid, m, set(promised), timeout_s) if name == "shortage" else \
            bankruptcy(rid, m, set(promised), timeout_s, k)
        if res.verdict is not Verdict.UNKNOWN:
            _DONE.append((dict(log.all), key, res))
        out.append(res)
    return out
