"""Strengthening the invariants with lemmas a game keeps: the largest inductive set (Houdini).

An inductive step refuted from a state no game reaches (a counterexample to induction) is not a
break: the invariants assumed before it are too weak to exclude that state. This module finds
stronger facts. The candidates are every state invariant of ``specs/invariants.yaml`` (promised or
not) and a few plain facts of buildings and mortgages (``candidates``: "a mortgaged street carries
no building", "no street carries a hotel"...). Houdini keeps the largest subset that holds at a
game's start and that every action keeps when the whole subset held before it: that conjunction
holds in every state a game reaches (each fact true at the start, and no step can break any of
them while all hold). A refuted step that this set excludes is then PROVED, and an action whose
guard it excludes is dead.

The actions are the check's transitions plus the steps they leave out that touch what the
candidates read (the GO salary and a new round: ``verify.smt.reach``), so nothing the engine does
escapes the induction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import z3

from ..invariants import NOBODY, Invariant
from . import terms as T
from .transitions import Transition
from .transitions.common import no_buildings
from .model import Model
from .proofs import Step, _LazySolver, _same, _untouched, instantiate, invariant_after, invariant_before, new_solver
from .state import SymState, domain, fresh

#: tag of the pre-state every strengthening query shares
_TAG = "@lemma"


@dataclass(frozen=True)
class Lemma:
    """A candidate fact of every reachable state: an id, the words a designer reads, and its formula."""

    id: str
    title: str
    holds: Callable[[Model, SymState], Any]
    reads: tuple[str, ...] = ()   # the deed and player fields it reads (an invariant: see ``invariant``)
    invariant: Invariant | None = None      # one of the invariants of specs/invariants.yaml


#: the fields of a deed and of a player a lemma may read
_PROP = ("owner", "mortgaged", "houses", "hotels", "mrounds")
_PLAYER = ("cash", "bankrupt", "in_jail", "chance", "chest")


def touched(lemma: Lemma, step: Step) -> bool:
    """Does ``step`` change a field ``lemma`` reads? (When not, the lemma after is the lemma before.)"""
    if lemma.invariant is not None:
        return not _untouched(lemma.invariant, step)
    b, a = step.before, step.after
    for f in lemma.reads:
        pairs = [(getattr(x, f), getattr(y, f)) for x, y in zip(b.props, a.props)] if f in _PROP else \
            [(getattr(x, f), getattr(y, f)) for x, y in zip(b.players, a.players)]
        if not all(_same(u, v) for u, v in pairs):
            return True
    return False


def _streets(s: SymState) -> list:
    return [p for p in s.props if p.kind == "street"]


def candidates(m: Model, invariants: Iterable[Invariant]) -> list[Lemma]:
    """The invariants, then the plain facts of buildings and mortgages that every game start satisfies."""
    out = [Lemma(i.id, i.title, lambda m, s, i=i: invariant_before(m, i, s), invariant=i)
           for i in invariants if i.kind == "state"]
    out.append(Lemma("mortgaged-streets-are-bare", "a mortgaged street carries no building",
                     lambda m, s: T.and_([T.or_([T.not_(p.mortgaged), no_buildings(p)]) for p in _streets(s)]),
                     ("mortgaged", "houses", "hotels")))
    out.append(Lemma("bank-deeds-are-free", "a deed the bank holds is not mortgaged",
                     lambda m, s: T.and_([T.or_([T.ne(p.owner, NOBODY), T.not_(p.mortgaged)]) for p in s.props]),
                     ("owner", "mortgaged")))
    out.append(Lemma("no-hotels", "no street carries a hotel",
                     lambda m, s: T.and_([T.eq(p.hotels, 0) for p in _streets(s)]), ("hotels",)))
    for name, idx in m.street_groups:
        out.append(Lemma(f"no-hotels:{name}", f"no street of {name} carries a hotel",
                         lambda m, s, idx=idx: T.and_([T.eq(s.props[i].hotels, 0) for i in idx]), ("hotels",)))
    for k in range(m.config.building.max_houses):
        out.append(Lemma(f"houses-at-most:{k}", f"no street holds more than {k} house{'s' if k != 1 else ''}",
                         lambda m, s, k=k: T.and_([T.le(p.houses, k) for p in _streets(s)]), ("houses",)))
    out.append(Lemma("bankrupt-players-hold-nothing", "a bankrupt player has no cash",
                     lambda m, s: T.and_([T.or_([T.not_(q.bankrupt), T.eq(q.cash, 0)]) for q in s.players]),
                     ("bankrupt", "cash")))
    if m.expiry_rounds is not None:
        out.append(Lemma("unmortgaged-deeds-count-no-rounds", "a deed not mortgaged has no mortgage rounds",
                         lambda m, s: T.and_([T.or_([p.mortgaged, T.eq(p.mrounds, 0)]) for p in s.props]),
                         ("mortgaged", "mrounds")))
    return out


@dataclass
class Strengthening:
    """The lemmas kept (inductive together, true at the start), and the queries that use them."""

    m: Model
    kept: list[Lemma]
    dropped: dict[str, str]                    # lemma id -> the action (or "the start") that breaks it
    steps: dict[str, Step]
    before: dict[str, Any]
    dom: list
    timeout_ms: int
    status: str = "done"                       # done | unknown (a query gave up: nothing is kept)
    reason: str | None = None
    seconds: float = 0.0
    lits: dict[str, Any] = field(default_factory=dict)

    def _solver(self, step: Step, logic: str | None) -> z3.Solver:
        s = new_solver(logic, self.timeout_ms)
        s.add(self.dom)
        s.add(step.guard)
        for lemma in self.kept:
            s.add(z3.Implies(self.lits[lemma.id], self.before[lemma.id]))
        return s

    def step(self, action: Transition) -> Step:
        if action.name not in self.steps:
            self.steps[action.name] = instantiate(self.m, action, _TAG)
        return self.steps[action.name]

    def proves(self, action: Transition, inv: Invariant, also: Iterable[str] = ()) -> tuple[str, list[Lemma]]:
        """Is the step of ``action`` from every state of the kept lemmas safe for ``inv``? ("unsat": proved,
        with the lemmas its proof used; "sat"; "unknown"). ``also``: candidates assumed besides (kept or
        not), e.g. every promise, to ask whether the step breaks ``inv`` from a state that keeps them all."""
        step = self.step(action)
        goal = invariant_after(self.m, inv, step)
        extra = [self.before[i] for i in also if i in self.before]
        return self._ask(step, z3.And([z3.Not(goal)] + extra))

    def enables(self, action: Transition) -> tuple[str, list[Lemma]]:
        """Does some state of the kept lemmas allow ``action``? ("unsat": dead, with the lemmas used)"""
        return self._ask(self.step(action), None)

    def _ask(self, step: Step, extra) -> tuple[str, list[Lemma]]:
        if self.status != "done":
            return "unknown", []
        solver, res = _LazySolver(self._solver, step).ask(extra, [self.lits[lm.id] for lm in self.kept])
        used = []
        if res == "unsat":
            core = {str(c) for c in solver.unsat_core()}
            used = [lm for lm in self.kept if str(self.lits[lm.id]) in core]
        solver.pop()
        return res, used


def strengthen(m: Model, start: SymState, actions: Iterable[Transition], pool: list[Lemma],
               timeout_s: float = 10.0, inductive: Iterable[str] = (), over: Iterable[str] = ()) -> Strengthening:
    """The largest subset of ``pool`` true in ``start`` and kept by every one of ``actions`` (Houdini).

    ``inductive``: lemmas already proved kept by each action named in ``over``, from every state where
    they all hold (the check's own inductive set of invariants): not asked again about those actions
    while all of them are kept."""
    inductive, over = set(inductive), set(over)
    t0 = time.perf_counter()
    pre = fresh(m, _TAG)
    dom = domain(m, pre)
    before = {lm.id: lm.holds(m, pre) for lm in pool}
    dropped: dict[str, str] = {}
    alive: list[Lemma] = []
    for lm in pool:
        if z3.is_true(z3.simplify(lm.holds(m, start))):
            alive.append(lm)
        else:
            dropped[lm.id] = "the start"
    if inductive & set(dropped):
        inductive = set()
    out = Strengthening(m, alive, dropped, {}, before, dom, int(timeout_s * 1000),
                        lits={lm.id: z3.Bool(f"lemma:{lm.id}") for lm in pool})
    live = [a for a in actions if not a.disabled(m)]
    changed = True
    while changed and out.kept:
        changed = False
        for action in live:
            step = out.step(action)
            asked = [lm for lm in out.kept if not (lm.id in inductive and action.name in over)
                     and touched(lm, step)]
            if not asked:
                continue
            after = {lm.id: lm.holds(m, step.after) for lm in asked}
            lazy = _LazySolver(lambda step, logic: _houdini_solver(out, pool, step, logic), step)
            goal = z3.Bool("lemma:goal")
            while asked:
                solver, res = lazy.ask(z3.Implies(goal, z3.Or([z3.Not(after[lm.id]) for lm in asked])),
                                       [out.lits[lm.id] for lm in out.kept] + [goal])
                if res == "unsat":
                    solver.pop()
                    break
                if res != "sat":
                    out.status, out.reason = "unknown", (f"the solver gave up on {action.name} "
                                                         f"({solver.reason_unknown()})")
                    out.kept = []
                    solver.pop()
                    break
                model = solver.model()
                broken = [lm for lm in asked if z3.is_false(model.eval(after[lm.id], model_completion=True))]
                solver.pop()
                for lm in broken:
                    dropped[lm.id] = action.name
                out.kept = [lm for lm in out.kept if lm not in broken]
                asked = [lm for lm in asked if lm not in broken]
                if inductive & set(dropped):
                    inductive = set()       # their proofs assumed them all
                changed = True
    out.seconds = time.perf_counter() - t0
    return out


__all__ = ["Lemma", "Strengthening", "candidates", "strengthen"]


def _houdini_solver(out: Strengthening, pool: list[Lemma], step: Step, logic: str | None) -> z3.Solver:
    solver = new_solver(logic, out.timeout_ms)
    solver.add(out.dom)
    solver.add(step.guard)
    for lm in pool:
        solver.add(z3.Implies(out.lits[lm.id], out.before[lm.id]))
    return solver
