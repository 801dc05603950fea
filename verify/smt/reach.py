"""Runs from a game's start over the SMT transitions: bounded model checking.

An inductive step refuted by ``verify check`` starts from any state that satisfies the invariants,
which a game may never reach. This module searches for a run that does reach it: from the SMT
encoding of a game's start (the engine's own start state, read as constants), ``k`` steps of the
transitions of ``verify.smt.transitions``, then the refuted step itself, for ``k = 0, 1, ...`` up to a
bound. A run found is a sequence of moves (an action with its arguments: buy this deed, build
here...), which the layer above plays on the engine (``verify.runs``); no run within the bound says
only that: no run of that length.

Two steps of a game that the transitions leave out are added here, since runs need them: the GO
salary (money a player earns by moving, so a run may buy more than the starting cash) and a new
round (every mortgage ages by one round, for mortgages that expire). While a mortgage is due to
expire, the next step is its expiry: the engine forfeits it at once when the round begins.

The same unrolling answers whether an action is ever enabled (``goal=None``: its guard holds after
``k`` steps), for dead rules.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Iterable

import z3

from ..invariants import Invariant
from . import terms as T
from .transitions import Args, Transition
from .transitions.common import active, add_cash, bank_gets, ite, liquidation, pf, seat_ok
from .transitions.movement import station_rent, street_rent
from .transitions.trades import interest_owed
from .model import Model
from .proofs import Step, invariant_after, invariant_before, new_solver
from .state import SymState, domain

#: the arguments of a move, in ``Args`` order
ARG_FIELDS = ("a", "b", "sq", "sq2", "amt", "dice", "f1", "f2", "f3", "f4", "f5", "f6")
#: the bound of a search, in steps before the refuted one, unless the caller names another
DEFAULT_DEPTH = 12
#: what one search may spend, in z3's resource units (not seconds: a busy machine finds the same runs as an
#: idle one); a run of 12 moves on a colour group takes about 10 million
SEARCH_RLIMIT = 60_000_000


def salary(m: Model, s: SymState, x: Args):
    """A player passes GO and collects the salary (a step of movement, which the transitions leave out)."""
    pay = m.config.movement.go_salary
    guard = [seat_ok(m, x.a), active(s, x.a), z3.BoolVal(pay > 0 and m.config.movement.salary_on_pass)]
    return T.and_(guard), bank_gets(add_cash(s, x.a, pay), -pay)


def _due(m: Model, p) -> Any:
    """A mortgage that has run its rounds: the engine forfeits it as the round begins."""
    return T.and_([T.ge(p.owner, 0), p.mortgaged, T.ge(p.mrounds, m.expiry_rounds or 0)])


def new_round(m: Model, s: SymState, x: Args):
    """A round passes: every mortgage of a player ages by one round (only when none is due to expire)."""
    guard = [z3.BoolVal(m.expiry_rounds is not None)] + [T.not_(_due(m, p)) for p in s.props]
    out = s
    for p in s.props:
        out = out.with_prop(p.index, mrounds=ite(T.and_([T.ge(p.owner, 0), p.mortgaged]), p.mrounds + 1, p.mrounds))
    return T.and_(guard), out


#: steps of a game the transitions leave out, which runs need
SALARY = Transition("salary", "a player passes GO and collects the salary", salary, ("roll",), step="salary")
NEW_ROUND = Transition("new_round", "a round passes: every mortgage ages by a round", new_round, ("end_turn",),
                       step="turn_ended",
                       disabled=lambda m: None if m.expiry_rounds is not None else "mortgages never expire")
EXPIRY = "mortgage_expired"


def debt_source(m: Model, s: SymState, action: str, x: Args) -> Any:
    """What a debt that ends in bankruptcy may be in a run: the rent of a deed of the creditor (to a
    player), a tax (to the bank). The transitions take any amount the debtor cannot raise; a run needs a
    debt a game can make."""
    if action == "bankrupt_to_player":
        cases = []
        for p in s.props:
            if p.kind == "street":
                due = street_rent(m, s, p.index)
            elif p.kind == "station":
                due = station_rent(m, s, p.index)
            else:
                continue
            cases.append(T.and_([T.eq(x.sq, p.index), T.eq(p.owner, x.b), T.eq(x.amt, due)]))
        return T.or_(cases)
    if action == "bankrupt_to_bank":
        tx = m.config.taxes
        return T.or_([T.eq(x.amt, tx.income), T.eq(x.amt, tx.luxury)])
    return T.TRUE


def playable(m: Model, s: SymState, action: str, x: Args) -> Any:
    """What a move of a run needs besides its guard, for the engine to play it as the transition says: a
    debt that ends in bankruptcy that a game can make (``debt_source``), and a trade that leaves no interest
    owed (the engine would wait for that debt to be paid, which the state does not show)."""
    if action == "trade":
        return T.not_(interest_owed(m, s, x))
    return debt_source(m, s, action, x)


@dataclass(frozen=True)
class Move:
    """One step of a run: an action (a transition's name, or ``salary`` / ``new-round``) and its arguments
    (``sq``/``sq2`` are deed indexes; ``square``/``square2`` the board squares)."""

    action: str
    args: dict

    def to_json(self) -> dict:
        return {"action": self.action, "args": dict(self.args)}

    @classmethod
    def from_json(cls, d: dict) -> "Move":
        return cls(str(d["action"]), dict(d["args"]))


@dataclass
class Found:
    """The outcome of a search: ``found`` (the moves, the last one the goal's step), ``none`` (no run
    of at most ``depth`` steps before the goal's) or ``unknown`` (the solver gave up: ``reason``)."""

    status: str
    moves: tuple[Move, ...] = ()
    depth: int = 0
    reason: str | None = None
    seconds: float = 0.0
    spent: int = 0          # z3's resource units the search took


@dataclass
class _Layer:
    """A state of the unrolling and the step taken from it: one Boolean per instance (``cases``), at most
    one of them true (z3 decides a one-hot choice over a few dozen instances far faster than an integer's
    value: a pseudo-Boolean constraint instead of arithmetic)."""

    state: SymState
    chosen: list[Any] = field(default_factory=list)
    cases: list[tuple[str, Args]] = field(default_factory=list)

    def taken(self, model: z3.ModelRef) -> int:
        """The instance the model chose."""
        return next(i for i, b in enumerate(self.chosen) if z3.is_true(model.eval(b, model_completion=True)))


#: the arguments each transition reads besides the acting seat (the others stay at a fixed value); a name
#: not listed takes both a deed and another seat
_USES = {"buy": ("sq",), "auction_won": ("b", "sq"), "rent_street": ("sq",), "rent_station": ("sq",),
         "rent_utility": ("sq",), "build_house": ("sq",), "build_hotel": ("sq",), "sell_house": ("sq",),
         "sell_group": ("sq",), "sell_hotel": ("sq",), "mortgage": ("sq",), "unmortgage": ("sq",),
         "mortgage_expired": ("sq",), "trade": ("b", "sq", "sq2"), "card_bank": (), "card_repairs": (), "card_each_player": (),
         "card_destroy_building": ("sq",), "tax": (), "casino_bet": (), "free_parking": (),
         "auction_mortgaged": ("b", "sq"), "bankrupt_to_player": ("b", "sq"), "bankrupt_to_bank": (),
         "surrender": (), "salary": (), "new_round": ()}


def _symbolic(tag: str) -> Args:
    i = lambda n: z3.Int(f"{tag}.{n}")   # noqa: E731
    b = lambda n: z3.Bool(f"{tag}.{n}")  # noqa: E731
    return Args(i("a"), i("b"), i("sq"), i("sq2"), i("amt"), i("dice"),
                b("f1"), b("f2"), b("f3"), b("f4"), b("f5"), b("f6"))


def _cases(m: Model, action: Transition, deeds: list[int], seats: list[int]) -> list[tuple[int, int, int, int]]:
    """The action's instances as (a, b, sq, sq2) numbers: the seats (among ``seats``) and deeds it reads, each
    given (its amounts and flags stay unknowns)."""
    uses = _USES.get(action.name, ("b", "sq"))
    movers = seats if action.name != "new_round" else seats[:1]
    out = []
    for a in movers:
        for other in (seats if "b" in uses else ((a + 1) % m.players,)):
            if "b" in uses and other == a and action.name in ("trade", "bankrupt_to_player"):
                continue
            for sq in (deeds if "sq" in uses else (deeds[0],)):
                for sq2 in (deeds if "sq2" in uses else (sq,)):
                    out.append((a, other, sq, sq2))
    return out


def _fields(s: SymState) -> list[Any]:
    """Every state field's term, in a fixed order (None fields left out)."""
    out = []
    for p in s.players:
        out += [getattr(p, f) for f in ("cash", "in_jail", "bankrupt", "chance", "chest")]
    for p in s.props:
        out += [getattr(p, f) for f in ("owner", "mortgaged", "houses", "hotels", "mrounds")]
    out += [x for x in (s.bank_houses, s.bank_hotels, s.bank_cash, s.pot, s.jackpot) if x is not None]
    return out


def _term(x: Any) -> Any:
    """A field's value as a z3 term (a transition may leave a Python number or truth value)."""
    if isinstance(x, bool):
        return T.bool_val(x)
    if isinstance(x, int):
        return T.int_val(x)
    return x


def _rebuild(s: SymState, values: list[Any]) -> SymState:
    """``s`` with its fields (in ``_fields`` order) replaced by ``values``."""
    it = iter(values)
    players = tuple(replace(p, **{f: next(it) for f in ("cash", "in_jail", "bankrupt", "chance", "chest")})
                    for p in s.players)
    props = tuple(replace(p, **{f: next(it) for f in ("owner", "mortgaged", "houses", "hotels", "mrounds")})
                  for p in s.props)
    bank = {f: (next(it) if getattr(s, f) is not None else None)
            for f in ("bank_houses", "bank_hotels", "bank_cash", "pot", "jackpot")}
    return replace(s, players=players, props=props, **bank)


class Unrolling:
    """Steps of the transitions from a start state, one layer at a time, in one incremental solver.

    Each step chooses one instance of one transition, its seats and deeds given as numbers (``_cases``)
    and restricted to ``deeds`` and ``seats`` (the players who act) when given; a field that every instance
    leaves as it was (or sets to one value) needs no variable of its own."""

    def __init__(self, m: Model, start: SymState, alphabet: Iterable[Transition], clean: Iterable[Invariant] = (),
                 timeout_ms: int = 10_000, deeds: Iterable[int] | None = None, seats: Iterable[int] | None = None):
        self.m = m
        self.alphabet = [a for a in alphabet if not a.disabled(m)]
        self.deeds = sorted(set(deeds)) if deeds is not None else list(range(len(m.deeds)))
        self.seats = sorted(set(seats)) if seats is not None else list(range(m.players))
        self.clean = list(clean)
        self.solver = new_solver(None, timeout_ms)
        self.layers = [_Layer(start)]
        self._constrain(start)

    def _constrain(self, s: SymState) -> None:
        for inv in self.clean:
            self.solver.add(invariant_before(self.m, inv, s))

    def extend(self) -> None:
        """One more step: a choice among the instances of the alphabet, the next state."""
        m, j = self.m, len(self.layers) - 1
        cur = self.layers[j]
        chosen: list[Any] = []
        cases: list[tuple[str, Args]] = []
        options, afters = [], []
        raw = _fields(cur.state)
        for action in self.alphabet:
            # built once with the seats and deeds unknown, then each instance by substitution (z3 does that
            # in C; building an action's formulas in Python costs the same whatever its deed)
            x = _symbolic(f"run{j}.{action.name}")
            guard, after = action.build(m, cur.state, x)
            extra = playable(m, cur.state, action.name, x)
            if action.name != EXPIRY and m.expiry_rounds is not None:
                extra = T.and_([extra] + [T.not_(_due(m, p)) for p in cur.state.props])
            fs = _fields(after)
            changed = [k for k, t in enumerate(fs) if t is not raw[k]]
            # the guard and every changed field as the arguments of one term: one substitution per instance
            terms = [T.and_([guard, extra])] + [_term(fs[k]) for k in changed]
            pack = z3.Function(f"run{j}.{action.name}.pack", *[t.sort() for t in terms], z3.BoolSort())
            packed = pack(*terms)
            for a, b, sq, sq2 in _cases(m, action, self.deeds, self.seats):
                sub = [(x.a, T.int_val(a)), (x.b, T.int_val(b)), (x.sq, T.int_val(sq)), (x.sq2, T.int_val(sq2))]
                inst = z3.simplify(z3.substitute(packed, *sub))
                cond = inst.arg(0)
                if z3.is_false(cond):
                    continue
                chosen.append(z3.Bool(f"run{j}.{len(cases)}"))
                options.append(T.and_([chosen[-1], cond]))
                cases.append((action.name, replace(x, a=a, b=b, sq=sq, sq2=sq2)))
                afters.append({k: inst.arg(n) for n, k in enumerate(changed, 1)})
        s = self.solver
        s.add(T.or_(options) if options else T.FALSE)
        if len(chosen) > 1:
            s.add(z3.AtMost(*chosen, 1))
        values = []
        for k, old in enumerate(raw):
            old = _term(old)
            by_term: dict[int, tuple[Any, list[int]]] = {old.get_id(): (old, [])}
            for i, fs in enumerate(afters):
                t = fs.get(k)
                if t is None:
                    by_term[old.get_id()][1].append(i)
                    continue
                by_term.setdefault(t.get_id(), (t, []))[1].append(i)
            by_term = {key: v for key, v in by_term.items() if v[1]}
            if len(by_term) <= 1:
                values.append(next(iter(by_term.values()))[0] if by_term else old)
                continue
            var = z3.Const(f"run{j + 1}.f{k}", old.sort())
            groups = sorted(by_term.values(), key=lambda e: -len(e[1]))
            value = groups[0][0]
            for t, idx in groups[1:]:
                value = T.ite(T.or_([chosen[i] for i in idx]), t, value)
            s.add(T.eq(var, value))
            values.append(var)
        nxt = _rebuild(cur.state, values)
        s.add(domain(m, nxt))
        cur.chosen, cur.cases = chosen, cases
        self.layers.append(_Layer(nxt))
        self._constrain(nxt)

    def moves(self, model: z3.ModelRef, upto: int) -> list[Move]:
        out = []
        for layer in self.layers[:upto]:
            name, args = layer.cases[layer.taken(model)]
            out.append(Move(name, _values(self.m, model, args)))
        return out


def _values(m: Model, model: z3.ModelRef, args: Args) -> dict:
    out = {}
    for f in ARG_FIELDS:
        x = getattr(args, f)
        if isinstance(x, (bool, int)):
            out[f] = x
            continue
        v = model.eval(x, model_completion=True)
        out[f] = z3.is_true(v) if z3.is_bool(v) else v.as_long()
    for f, square in (("sq", "square"), ("sq2", "square2")):
        if 0 <= out[f] < len(m.deeds):
            out[square] = m.deeds[out[f]].square
    return out


def goal_step(m: Model, s: SymState, action: Transition, tag: str = "goal", slack: bool = False) -> Step:
    """The refuted step from ``s``: the acting player is seat 0 and the other party seat 1, as in the
    inductive check (the seats are symmetric; the layer above plays a run from any seat). ``slack``: a
    debt that ends in bankruptcy exceeds what the debtor can raise by a GO salary more (the moves a game
    makes to get there may pass GO, which the transitions do not see)."""
    args = Args.fresh(f"{tag}.{action.name}", m)
    guard, after = action.build(m, s, args)
    extra = playable(m, s, action.name, args)
    if slack and action.name in ("bankrupt_to_player", "bankrupt_to_bank"):
        raisable = pf(s, args.a, "cash")
        if m.config.debt.raise_cash_first:
            raisable = raisable + liquidation(m, s, args.a)
        extra = T.and_([extra, args.amt > raisable + m.config.movement.go_salary])
    if action.name != EXPIRY and m.expiry_rounds is not None:
        extra = T.and_([extra] + [T.not_(_due(m, p)) for p in s.props])
    return Step(action, s, args, T.and_([guard, extra]), after)


def search(m: Model, start: SymState, alphabet: Iterable[Transition], action: Transition, invariant: Invariant | None,
           depth: int = DEFAULT_DEPTH, clean: Iterable[Invariant] = (), timeout_s: float = 10.0,
           avoid: Iterable[list[Move]] = (), deeds: Iterable[int] | None = None, slack: bool = False,
           budget: int = SEARCH_RLIMIT, seats: Iterable[int] | None = None) -> Found:
    """The shortest run from ``start`` whose last step, ``action``, breaks ``invariant`` (None: a run after
    which ``action`` is enabled), with at most ``depth`` steps before it. ``clean`` invariants hold in every
    state before the last step (a run that breaks nothing on the way: a root). ``avoid``: runs already
    tried (played on the engine without the expected result), not proposed again. ``deeds``, ``seats``: the
    deeds the run's moves touch and the players who make them (every one when None)."""
    t0 = time.perf_counter()
    u = Unrolling(m, start, alphabet, clean, int(timeout_s * 1000), deeds, seats)
    base = _rlimit(u.solver)         # z3 counts the units of every solver of the process together
    spent = 0
    avoid = [list(a) for a in avoid]
    for k in range(depth + 1):
        if k:
            u.extend()
        s = u.layers[k].state
        step = goal_step(m, s, action, tag=f"goal{k}", slack=slack)
        goal = [step.guard]
        if invariant is not None:
            goal.append(T.not_(invariant_after(m, invariant, step)))
        u.solver.push()
        u.solver.add(goal)
        for run in avoid:
            if len(run) == k + 1:
                u.solver.add(T.not_(_same_run(u, run[:-1])))
        u.solver.set("rlimit", max(1, budget - spent))
        res = u.solver.check()
        spent = _rlimit(u.solver) - base
        if res == z3.sat:
            model = u.solver.model()
            moves = u.moves(model, k) + [Move(action.name, _values(m, model, step.args))]
            u.solver.pop()
            return Found("found", tuple(moves), k, seconds=time.perf_counter() - t0, spent=spent)
        if res == z3.unknown:
            why = u.solver.reason_unknown()
            u.solver.pop()
            if spent >= budget or "resource" in why:
                why = f"the search's budget of {budget // 1_000_000} million z3 steps ran out at {k} moves"
            else:
                why = f"the solver gave up at {k} moves ({why})"
            return Found("unknown", (), k, why, time.perf_counter() - t0, spent)
        u.solver.pop()
    return Found("none", (), depth, seconds=time.perf_counter() - t0, spent=spent)


def _rlimit(solver: z3.Solver) -> int:
    """The resource units z3 has spent so far in this process."""
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


def _same_run(u: Unrolling, run: list[Move]) -> Any:
    """The unrolling takes the moves of ``run`` in its order, on the same seats and deeds (the amounts may
    differ)."""
    parts = []
    for layer, move in zip(u.layers, run):
        same = [i for i, (name, args) in enumerate(layer.cases)
                if name == move.action and all(getattr(args, f) == move.args.get(f) for f in ("a", "b", "sq", "sq2"))]
        parts.append(T.or_([layer.chosen[i] for i in same]))
    return T.and_(parts) if parts else T.TRUE


__all__ = ["Move", "Found", "Unrolling", "search", "goal_step", "SALARY", "NEW_ROUND", "DEFAULT_DEPTH"]
