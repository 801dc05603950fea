"""The checks ``verify check`` runs on one ruleset: constraints, inductive steps, vacuity, bounded runs.

* inductive step, per action x invariant: the invariants and the action's
  guard before, the transition, the invariant after. UNSAT is PROVED; SAT is
  VIOLATED with the model as a counterexample (minimised and told as a
  scenario); a timeout is UNKNOWN. The invariants assumed before are the
  largest set of state invariants that is inductive for the ruleset
  (Houdini: start from all, drop every one some action breaks, repeat), so a
  promised invariant that only holds thanks to an unpromised one (even
  building needs the house limit) is still proved, and a counterexample's
  "before" satisfies every invariant that survives.
* vacuity, per action: the guard is satisfiable together with the
  invariants, else the action is a dead rule.
* bounded runs (``bounded``): properties that need several steps.

Identical queries are solved once: the cache key is the z3 term itself
(z3 hash-conses terms, so two rulesets whose values give the same formula
give the same term) and the key terms are kept alive by the cache.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace as dc_replace
from typing import Any, Iterable

import z3

from ..invariants import NOBODY, Invariant, load_invariants
from ..expr import Name
from .transitions import LEAVING, TRANSITIONS, Args, Transition, pick
from .model import Model
from .reads import Log, Recorder, same_reads
from .scenario import counterexample
from .state import domain, fresh, link_before, view, _Rec
from .to_z3 import as_bool, formula
from .verdict import CheckResult, Verdict

class QueryCache:
    """Solved queries by their (hash-consed) z3 term: identical queries are solved once."""

    def __init__(self):
        self._results: dict[tuple, tuple[Any, tuple, Any]] = {}
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple):
        hit = self._results.get(tuple(k.get_id() for k in key))
        if hit is not None:
            self.hits += 1
            return hit[0]
        return None

    def put(self, key: tuple, value) -> None:
        self.misses += 1
        self._results[tuple(k.get_id() for k in key)] = (value, key, None)


_CACHE = QueryCache()


def cache() -> QueryCache:
    return _CACHE


@dataclass(frozen=True)
class Step:
    """One action instantiated on a fresh state: what every check of that action shares."""

    action: Transition
    before: Any
    args: Args
    guard: Any
    after: Any


def instantiate(m: Model, action: Transition, tag: str = "") -> Step:
    s = fresh(m, tag)
    args = Args.fresh(action.name + tag, m)
    guard, after = action.build(m, s, args)
    return Step(action, s, args, guard, after)


def action_view(m: Model, step: Step):
    name = step.action.name
    creditor = step.args.b if name == "bankrupt_to_player" else NOBODY
    team = pick(step.args.a, [p.team for p in step.before.players])
    return _Rec(kind=name, player=step.args.a, creditor=creditor, team=team,
                bankruptcy=name in LEAVING)


def invariant_after(m: Model, inv: Invariant, step: Step, envs: dict | None = None) -> Any:
    """The invariant in the state after the step (step invariants relate before and after).

    ``envs`` keeps the views of the step's states between calls (building them is not free)."""
    envs = {} if envs is None else envs
    if "new" not in envs:
        new, old = view(m, step.after), view(m, step.before)
        link_before(new, old)
        new["action"] = action_view(m, step)
        envs.update(new=new, old=old)
    if inv.kind == "state":
        return as_bool(formula(inv.expr, envs["new"]))
    return as_bool(formula(inv.expr, envs["new"], envs["old"]))


#: view field -> the SymState fields it is made of (players, properties, the bank, the rest)
_PLAYER_FIELDS = {"cash": ("cash",), "in_jail": ("in_jail",), "bankrupt": ("bankrupt",), "chance_cards": ("chance",),
                  "chest_cards": ("chest",), "jail_cards": ("chance", "chest")}
_PROP_FIELDS = {"owner": ("owner",), "mortgaged": ("mortgaged",), "houses": ("houses",), "hotel": ("hotels",),
                "hotels": ("hotels",)}
_BANK_FIELDS = {"houses": "bank_houses", "hotels": "bank_hotels", "cash": "bank_cash"}


def _fields_read(inv: Invariant) -> set[str]:
    out: set[str] = set()

    def walk(e):
        if isinstance(e, Name):
            out.update(e.path)
        elif isinstance(e, tuple):
            for x in e:
                walk(x)
        elif hasattr(e, "__dataclass_fields__"):
            for f in e.__dataclass_fields__:
                walk(getattr(e, f))
    walk(inv.expr)
    return out


def _same(a, b) -> bool:
    if isinstance(a, z3.ExprRef) and isinstance(b, z3.ExprRef):
        return a.eq(b)
    return a is b or (not isinstance(a, z3.ExprRef) and not isinstance(b, z3.ExprRef) and a == b)


def _untouched(inv: Invariant, step: Step) -> bool:
    """True when ``step`` changes none of the state fields ``inv`` reads."""
    names = _fields_read(inv)
    b, a = step.before, step.after
    for f, parts in _PLAYER_FIELDS.items():
        if f in names and not all(_same(getattr(x, q), getattr(y, q)) for x, y in zip(b.players, a.players)
                                  for q in parts):
            return False
    for f, parts in _PROP_FIELDS.items():
        if f in names and not all(_same(getattr(x, q), getattr(y, q)) for x, y in zip(b.props, a.props)
                                  for q in parts):
            return False
    if "bank" in names and not all(_same(getattr(b, q), getattr(a, q)) for q in _BANK_FIELDS.values()):
        return False
    for f in ("pot", "jackpot"):
        if f in names and not _same(getattr(b, f), getattr(a, f)):
            return False
    return True


class _Built:
    """An action's constructed terms, reusable by every ruleset with the same values at ``reads``."""

    def __init__(self, step: Step, reads: dict):
        self.step, self.reads = step, reads
        self.goals: dict[str, Any] = {}
        self.envs: dict = {}


_BUILT: dict[tuple, list[_Built]] = {}
#: (reads, (pre-state, domain, invariants before)) per invariants: the start of every check of a
#: ruleset, reused, like an action's terms, by every ruleset with the same values at ``reads``
_START: dict[tuple, list[tuple[dict, tuple]]] = {}


def invariant_before(m: Model, inv: Invariant, s) -> Any:
    return as_bool(formula(inv.expr, view(m, s)))


#: A per-step property checked with the invariants of every action (named as the bounded checks are).
NOBF = "bounded:no-building-from-nothing"
#: the transitions that break a hotel down into the houses it stood for (houses appear; the street loses a level)
BREAK_HOTELS = ("sell_hotel", "card_destroy_building")


def no_building_goal(m: Model, step) -> Any:
    """No street gains a building in ``step`` except by a paid build (a per-step property); a hotel broken
    down into houses gains none."""
    x, cond = step.args, []
    action = step.action
    for p, q in zip(step.before.props, step.after.props):
        if p.kind != "street":
            continue
        if q.houses is p.houses and q.hotels is p.hotels:
            continue
        here = x.sq == p.index
        more_h = z3.If(here, 1, 0) if action.name == "build_house" else \
            z3.If(z3.And(here, p.hotel), m.config.building.max_houses, 0) \
            if action.name in BREAK_HOTELS else 0
        more_t = z3.If(here, 1, 0) if action.name == "build_hotel" else 0
        cond += [q.houses <= p.houses + more_h, q.hotels <= p.hotels + more_t]
    if action.name == "build_house":
        cond.append(step.after.bank_cash - step.before.bank_cash
                    == z3.Sum([z3.If(x.sq == p.index, m.deeds[p.index].house_cost, 0)
                               for p in step.before.props]))
    return z3.And(cond) if cond else z3.BoolVal(True)


def _status(res) -> str:
    return "sat" if res == z3.sat else "unsat" if res == z3.unsat else "unknown"


class RulesetResults:
    """Whole-ruleset verdicts kept with the config values their encoding read (see ``reads``)."""

    def __init__(self):
        self._entries: dict[tuple, list[tuple[dict, list[CheckResult]]]] = {}
        self.reused = 0

    def find(self, key: tuple, config) -> list[CheckResult] | None:
        for entries, results in self._entries.get(key, ()):
            if same_reads(config, entries):
                self.reused += 1
                return results
        return None

    def reads(self, key: tuple, config) -> dict | None:
        for entries, _results in self._entries.get(key, ()):
            if same_reads(config, entries):
                return entries
        return None

    def add(self, key: tuple, entries: dict, results: list[CheckResult]) -> None:
        self._entries.setdefault(key, []).append((dict(entries), results))


_RESULTS = RulesetResults()


def clear_caches() -> None:
    """Forget every solved query, built term and reused result (tests use this)."""
    global _CACHE, _RESULTS
    _CACHE = QueryCache()
    _RESULTS = RulesetResults()
    _BUILT.clear()
    _START.clear()


def check_ruleset(rid: str, config, promised: Iterable[str], timeout_s: float = 10.0,
                  actions: Iterable[Transition] = TRANSITIONS, reuse: bool = True) -> list[CheckResult]:
    """Inductive steps and vacuity for every action and every invariant (promised or not).

    Only promised invariants count for success; the others are shown in the
    matrix. Results are reused for a later ruleset whose config has the same
    values wherever this encoding read one.
    """
    promised = set(promised)
    actions = tuple(actions)
    key = _key(promised, actions, timeout_s)
    if reuse:
        hit = _RESULTS.find(key, config)
        if hit is not None:
            return [dc_replace(r, ruleset=rid, seconds=0.0, cached=True) for r in hit]
    log = Log()
    checker = _Checker(rid, Model.from_config(Recorder(config, log)), promised, actions, timeout_s, config, log)
    results = checker.run()
    if not any(r.verdict is Verdict.UNKNOWN for r in results):
        _RESULTS.add(key, checker.reads(), results)
    return results


def _key(promised: Iterable[str], actions: Iterable[Transition], timeout_s: float) -> tuple:
    return (tuple(sorted(set(promised))), tuple(a.name for a in actions), timeout_s,
            tuple(i.text for i in load_invariants()))


def reads_of(config, promised: Iterable[str], timeout_s: float = 10.0,
             actions: Iterable[Transition] = TRANSITIONS) -> dict | None:
    """The config values (path -> value) that the checks of ``check_ruleset`` with these arguments read,
    or None when they were not kept (not run yet, or a result was UNKNOWN)."""
    return _RESULTS.reads(_key(promised, tuple(actions), timeout_s), config)


def _start(m: Model, config, log: Log, state_invs: list[Invariant]) -> tuple:
    """The pre-state, its domain and the state invariants on it (built, or reused with their reads)."""
    key = tuple(i.text for i in state_invs)
    for reads, start in _START.get(key, ()):
        if same_reads(config, reads):
            log.entries.update(reads)
            log.all.update(reads)
            return start
    pre_state = fresh(m)
    start = (pre_state, domain(m, pre_state), {i.id: invariant_before(m, i, pre_state) for i in state_invs})
    _START.setdefault(key, []).append((dict(log.entries), start))
    return start


#: marks a vacuity query's cache key (a guard alone, with no goal)
_VACUITY = z3.Bool("query:vacuity")


class _LazySolver:
    """A step's solvers, each built at its first query (when every query of the step is answered from the
    cache, no solver is built at all): z3's solver for linear integer arithmetic, which spends about a third
    less time on these queries than the general one, and the general one, asked only when the first finds a query
    outside its logic (utility rent is the dice times a multiplier)."""

    def __init__(self, make, step: Step):
        self._make, self._step = make, step
        self._solvers: dict[str | None, z3.Solver] = {}
        self._first = 0        # the first logic still worth asking (a step outside linear arithmetic: 1)

    def ask(self, extra, assumptions: list) -> tuple[z3.Solver, str]:
        """The status of the step's query with ``extra`` added under ``assumptions``, and the solver that
        answered, left pushed: the caller reads its core or model, then pops it. Once the linear solver
        finds the step outside its logic, the step's later queries go to the general one directly."""
        for i in range(self._first, len(_LOGICS)):
            logic = _LOGICS[i]
            solver = self._solvers.get(logic)
            if solver is None:
                solver = self._solvers[logic] = self._make(self._step, logic)
            solver.push()
            if extra is not None:
                solver.add(extra)
            res = _status(solver.check(*assumptions))
            if res != "unknown" or logic is None or "incomplete" not in (solver.reason_unknown() or ""):
                break
            solver.pop()
            self._first = i + 1
        return solver, res


#: the logics a step's solvers are specialised to, tried in turn (None: z3's general solver)
_LOGICS = ("QF_LIA", None)


def new_solver(logic: str | None, timeout_ms: int) -> z3.Solver:
    """An empty solver for ``logic`` (None: any), as every check configures it."""
    solver = z3.SolverFor(logic) if logic else z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.set("arith.solver", 2)   # measured ~30 % faster than the default on these queries
    return solver


class _Checker:
    def __init__(self, rid: str, m: Model, promised: set[str], actions: tuple[Transition, ...], timeout_s: float,
                 config, log: Log):
        self.rid, self.m, self.promised, self.timeout_s = rid, m, promised, timeout_s
        self.config, self.log = config, log
        self.used: list[_Built] = []
        self.ms = int(timeout_s * 1000)
        self.invs = load_invariants()
        self.state_invs = [i for i in self.invs if i.kind == "state"]
        self.step_invs = [i for i in self.invs if i.kind == "step"]
        self.pre_state, self.dom, self.before = _start(m, config, log, self.state_invs)
        self.dom_term = z3.And(self.dom)
        self.lits = {i.id: z3.Bool(f"assume:{i.id}") for i in self.state_invs}
        self.actions = actions
        self.out: list[CheckResult] = []
        self.base_reads = dict(log.entries)

    def reads(self) -> dict:
        """Every config value this ruleset's checks depend on (its own reads and the reused terms')."""
        out = dict(self.log.all)
        for b in self.used:
            out.update(b.reads)
        return out

    def _built(self, action: Transition) -> _Built:
        key = (action.name,)
        for b in _BUILT.get(key, ()):
            if same_reads(self.config, b.reads):
                self.used.append(b)
                return b
        self.log.entries = dict(self.base_reads)
        b = _Built(instantiate(self.m, action), self.log.entries)
        _BUILT.setdefault(key, []).append(b)
        self.used.append(b)
        return b

    def _goal(self, built: _Built, inv: Invariant) -> Any:
        if inv.id not in built.goals:
            self.log.entries = built.reads
            if inv.kind == "state" and _untouched(inv, built.step):
                # the step leaves every field the invariant reads as it was: the same formula
                built.goals[inv.id] = self.before[inv.id]
            else:
                built.goals[inv.id] = invariant_after(self.m, inv, built.step, built.envs)
        return built.goals[inv.id]

    def _solver(self, step: Step, logic: str | None = None) -> z3.Solver:
        solver = new_solver(logic, self.ms)
        solver.add(self.dom)
        for iid, lit in self.lits.items():
            solver.add(z3.Implies(lit, self.before[iid]))
        solver.add(step.guard)
        return solver

    def run(self) -> list[CheckResult]:
        rid, m = self.rid, self.m
        live: list[tuple[Transition, _Built, _LazySolver]] = []
        for action in self.actions:
            why_off = action.disabled(m)
            if why_off:
                self.out.append(CheckResult(rid, "(enabled)", action.name, False, Verdict.VIOLATED, None,
                                            f"dead rule: {why_off} in this ruleset"))
                continue
            built = self._built(action)
            live.append((action, built, _LazySolver(self._solver, built.step)))
        nobf = Invariant(NOBF, "no street gains a building except by a paid build", "step", "", None, (),
                         self.invs[0].where)

        def step_items(built):
            if NOBF not in built.goals:
                self.log.entries = built.reads
                built.goals[NOBF] = no_building_goal(m, built.step)
            return [(inv, self._goal(built, inv)) for inv in self.step_invs] + [(nobf, built.goals[NOBF])]

        # Houdini over the state invariants: cells[(inv, action)] = (status, core, cex, why, seconds).
        # The first round also carries the step properties: when nothing breaks (the usual case) one
        # joint query per action settles everything.
        candidates = {i.id for i in self.state_invs}
        cells: dict[tuple[str, str], tuple] = {}
        first = True
        while True:
            broken: set[str] = set()
            assumed = [self.lits[c] for c in sorted(candidates)]
            for action, built, solver in live:
                step = built.step
                pending = []
                for inv in self.state_invs:
                    if inv.id not in candidates:
                        continue
                    old = cells.get((inv.id, action.name))
                    if old is not None and old[0] == "unsat" and old[1] <= candidates:
                        continue        # its proof used only invariants still assumed
                    pending.append((inv, self._goal(built, inv)))
                if first:
                    pending += step_items(built)
                for iid, cell in self._prove_all(step, solver, pending, assumed, candidates).items():
                    cells[(iid, action.name)] = cell
                    if cell[0] == "sat" and iid in candidates:
                        broken.add(iid)
            first = False
            if not broken:
                break
            candidates -= broken
        assumed = [self.lits[c] for c in sorted(candidates)]
        for action, built, solver in live:
            step = built.step
            self._vacuity(action, built.step, solver, assumed, candidates)
            items = step_items(built)
            after = {}
            redo = []
            for inv, goal in items:      # first-round answers stand if their proof used surviving invariants
                cell = cells.get((inv.id, action.name))
                if cell is not None and cell[0] == "unsat" and cell[1] <= candidates:
                    after[inv.id] = cell
                else:
                    redo.append((inv, goal))
            after.update(self._prove_all(step, solver, redo, assumed, candidates))
            status, _core, cex, why, secs = after[NOBF]
            r = self._result(nobf, action, status, cex, why, secs, True)
            self.out.append(CheckResult(r.ruleset, r.invariant, r.action, True, r.verdict, r.counterexample,
                                        r.reason, r.seconds))
            for inv in self.invs:
                status, _core, cex, why, secs = cells[(inv.id, action.name)] if inv.kind == "state" \
                    else after[inv.id]
                self.out.append(self._result(inv, action, status, cex, why, secs, inv.id in candidates
                                             or inv.kind == "step"))
        return self.out

    def _prove_all(self, step: Step, lazy: _LazySolver, items: list, assumed: list, candidates: set) -> dict:
        """Cells for several (invariant, goal) pairs of one step: first one joint query (every goal at
        once: UNSAT proves them all), then one query per goal only when the joint one is not UNSAT."""
        out: dict[str, tuple] = {}
        rest = []
        for inv, goal in items:
            if z3.is_true(goal) or (inv.kind == "state" and goal.eq(self.before[inv.id]) and inv.id in candidates):
                out[inv.id] = self._prove(step, lazy, inv, goal, assumed, candidates)
            else:
                rest.append((inv, goal))
        if len(rest) > 1:
            t0 = time.perf_counter()
            joint = z3.Or([z3.Not(g) for _, g in rest])
            key = self._query_key(step, joint, assumed, candidates)
            hit = _CACHE.get(key)
            if hit is None:
                lit = z3.Bool("goal:joint")
                solver, res = lazy.ask(z3.Implies(lit, joint), assumed + [lit])
                core = frozenset()
                if res == "unsat":
                    names = {str(c) for c in solver.unsat_core()}
                    core = frozenset(i for i, lt in self.lits.items() if str(lt) in names)
                solver.pop()
                hit = (res, core, None, None)
                if res == "unsat":
                    _CACHE.put(key, hit)
            if hit[0] == "unsat":
                secs = (time.perf_counter() - t0) / len(rest)
                for inv, _ in rest:
                    out[inv.id] = hit[:4] + (secs,)
                return out
        for inv, goal in rest:
            out[inv.id] = self._prove(step, lazy, inv, goal, assumed, candidates)
        return out

    def _query_key(self, step: Step, goal, assumed: list, candidates: set) -> tuple:
        """What a step's query asks, whole: the state's shape, the invariants assumed (their literals, and
        what each says in this ruleset: the literals alone only name them), the guard and the goal. Two
        rulesets share an answer only when all of these are the same terms."""
        return (step.guard, goal, self.dom_term) + tuple(assumed) \
            + tuple(self.before[c] for c in sorted(candidates))

    def _prove(self, step: Step, lazy: _LazySolver, inv: Invariant, goal, assumed: list, candidates: set) -> tuple:
        t0 = time.perf_counter()
        if z3.is_true(goal) or (inv.kind == "state" and goal.eq(self.before[inv.id]) and inv.id in candidates):
            return ("unsat", frozenset({inv.id} if not z3.is_true(goal) else ()), None, None,
                    time.perf_counter() - t0)
        key = self._query_key(step, goal, assumed, candidates)
        hit = _CACHE.get(key)
        if hit is not None:
            return hit[:4] + (0.0,)
        neg = z3.Bool(f"goal:{inv.id}")
        solver, res = lazy.ask(z3.Implies(neg, z3.Not(goal)), assumed + [neg])
        core, cex, why = frozenset(), None, None
        if res == "unsat":
            names = {str(c) for c in solver.unsat_core()}
            core = frozenset(i for i, lit in self.lits.items() if str(lit) in names)
        elif res == "sat":
            # The verdict stands on the inductive set; for the story, prefer a "before" state that
            # satisfies every state invariant (broken ones included) when there is one.
            use = assumed
            every = [self.lits[i] for i in sorted(self.lits)]
            if len(every) > len(assumed) and solver.check(*every, neg) == z3.sat:
                use = every
            else:
                solver.check(*assumed, neg)
            cex = counterexample(self.m, step, inv, solver, self.ms, action_view(self.m, step),
                                 assumptions=use + [neg])
            if use is assumed and len(every) > len(assumed):
                gone = sorted(set(self.lits) - candidates)
                cex["note"] = (f"only from a state where {', '.join(gone)} already fails "
                               "(another action breaks it)")
                cex["scenario"].insert(0, "Note: " + cex["note"])
        else:
            why = solver.reason_unknown() or "unknown"
        solver.pop()
        value = (res, core, cex, why)
        if res != "unknown":       # a timeout says nothing about the query: never reuse it
            _CACHE.put(key, value)
        return value + (time.perf_counter() - t0,)

    def _vacuity(self, action: Transition, step: Step, lazy: _LazySolver, assumed: list, candidates: set) -> None:
        t0 = time.perf_counter()
        key = self._query_key(step, _VACUITY, assumed, candidates)     # the guard alone, with no goal
        hit = _CACHE.get(key)
        if hit is None:
            solver, res = lazy.ask(None, assumed)
            hit = (res, None if res != "unknown" else solver.reason_unknown())
            solver.pop()
            if res != "unknown":
                _CACHE.put(key, hit)
        res = hit[0]
        verdict = {"sat": Verdict.PROVED, "unsat": Verdict.VIOLATED}.get(res, Verdict.UNKNOWN)
        reason = None if res == "sat" else ("dead rule: no state satisfying the invariants allows it"
                                           if res == "unsat" else f"solver: {hit[1]}")
        self.out.append(CheckResult(self.rid, "(enabled)", action.name, True, verdict, None, reason,
                                    time.perf_counter() - t0))

    def _result(self, inv, action, status, cex, why, secs, holds: bool) -> CheckResult:
        promised = inv.id in self.promised
        if status == "unsat":
            return CheckResult(self.rid, inv.id, action.name, promised, Verdict.PROVED, None,
                               None if holds else f"{inv.id} is broken by another action", secs)
        if status == "sat":
            note = (cex or {}).get("note")
            return CheckResult(self.rid, inv.id, action.name, promised, Verdict.VIOLATED, cex,
                               f"{action.name} can break {inv.id}" + (f", {note}" if note else ""), secs)
        return CheckResult(self.rid, inv.id, action.name, promised, Verdict.UNKNOWN, None,
                           f"solver gave up ({why}) within {self.timeout_s:g} s", secs)
