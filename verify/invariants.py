"""The game invariants (``specs/invariants.yaml``) evaluated on real states.

Invariants are declared once in the safe expression language (loaded and
checked against the catalogue by ``verify.spec.invariants``) and compiled
twice: here to Python predicates over the canonical game state (used by the
engine's ``--check-invariants``, ``verify replay`` and the conformance oracle),
and in ``verify.smt`` to z3 formulas over the symbolic state (``verify check``).

Both range over the same *view* of a state (``verify.state_view``), whose fields
``verify.spec.invariants`` lists; the rule parameters an invariant reads come from
the compiled config (``param_value``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import AbstractSet as Set, Any, Callable, Iterable

from . import frames, incremental, invariant_code
from .incremental import BANK_FREE_KINDS
from .config.parameters import read_param
from .expr import UNDECIDED, Aggregate, BoolOp, compile_expr, evaluate, names, parse
from .spec.invariants import Invariant, by_id, invariant_ids, load_invariants
from .state_view import (BANK_SLICES, NOBODY, PLAYER_SLICES, PROPERTY_SLICES, SLICE_OF_FIELD, Record, ViewCache,
                         ViewEnv, board_facts, share, state_slices, view_env)


@dataclass(frozen=True)
class Violation:
    """One invariant that does not hold, with where (event) it was found."""

    invariant: str
    title: str
    kind: str
    message: str

    def __str__(self) -> str:
        return f"invariant {self.invariant} broken: {self.title}" + (f" ({self.message})" if self.message else "")


# ---- rule parameters read from an EngineConfig ----------------------------------

def param_value(config: Any, pid: str) -> Any:
    """The value of rule parameter ``pid`` (catalogue id) in ``config``.

    ``config`` is an EngineConfig (read through the one declaration of where each parameter goes,
    ``verify.config.parameters``: a symbol such as ``unlimited`` comes back from its ``None``, and a
    parameter the config does not carry is an error), a resolved Ruleset, or a plain ``{id: value}``
    mapping.
    """
    if isinstance(config, dict):
        return config[pid]
    if hasattr(config, "catalogue") and hasattr(config, "value"):
        return config.value(pid)
    return read_param(config, pid)


# ---- the view of a state (verify/state_view.py) ------------------------------------

def slices_read(inv: Invariant) -> tuple[str, ...]:
    """The state slices (``verify.state_view``) an invariant's expression reads (parameters are fixed
    per config): for the players and the properties, the columns of the fields it names (all of them
    when it uses a whole record). A purely syntactic, conservative reading, made once per invariant (a
    Monitor is made per scenario of a conformance run)."""
    hit = _SLICES_READ.get(id(inv))
    if hit is not None and hit[0] is inv:
        return hit[1]
    out = _slices_read(inv)
    _SLICES_READ[id(inv)] = (inv, out)
    return out


_SLICES_READ: dict[int, tuple[Invariant, tuple[str, ...]]] = {}


def _slices_read(inv: Invariant) -> tuple[str, ...]:
    paths = names(inv.expr, with_loop_variables=True)
    loop_vars = _loop_variables(inv.expr)
    out: set[str] = set()
    for path in paths:
        root = path[0]
        if root in ("players",):
            out.add("seats")
        elif root in ("properties", "streets", "groups"):
            out.add("listed")
        elif root in ("pot", "jackpot"):
            out.add(root)
        elif root == "bank":         # bank.houses is the bank's stock, not the deeds' houses
            out.update((f"bank_{path[1]}",) if len(path) == 2 else BANK_SLICES)
            continue
        if len(path) > 1 and path[-1] in SLICE_OF_FIELD:
            out.add(SLICE_OF_FIELD[path[-1]])
        elif root in loop_vars and (len(path) == 1 or path[-1] == "before"):
            out.update(PLAYER_SLICES + PROPERTY_SLICES)    # a whole record: every column
    return tuple(sorted(out))


def _loop_variables(expr: Any) -> set[str]:
    found: set[str] = set()

    def walk(e: Any) -> None:
        if isinstance(e, Aggregate):
            found.update(var for var, _ in e.loops)
        for child in getattr(e, "__dict__", {}).values():
            for x in (child if isinstance(child, tuple) else (child,)):
                if isinstance(x, tuple):
                    for y in x:
                        walk(y)
                elif hasattr(x, "__dataclass_fields__"):
                    walk(x)
    walk(expr)
    return found


def _params(config: Any, invariants: Iterable[Invariant]) -> dict[str, Any]:
    return {pid: param_value(config, pid) for inv in invariants for pid in inv.reads}


# ---- the Python predicates --------------------------------------------------------

def _promised(promised_ids: Iterable[str] | None, kind: str) -> list[Invariant]:
    return [i for i in by_id(None if promised_ids is None else list(promised_ids)) if i.kind == kind]


def check_state(config: Any, state: dict, promised_ids: Iterable[str] | None) -> list[Violation]:
    """The promised state invariants that ``state`` breaks (all state invariants when None)."""
    invs = _promised(promised_ids, "state")
    return _check_state(config, state_slices(state), invs) if invs else []


def _check_state(config: Any, sl: dict[str, Any], invs: list[Invariant], params: dict[str, Any] | None = None,
                 cache: ViewCache | None = None, compiled: dict[str, Callable] | None = None,
                 env: ViewEnv | None = None) -> list[Violation]:
    """The state invariants ``invs`` break on slices ``sl`` (or their ``env``); ``compiled`` predicates
    (with the parameters as constants) or else the parameters in the environment."""
    params = _params(config, invs) if params is None else params
    if env is None:
        env = view_env(cache or ViewCache(board_facts(config)), sl, None if compiled else params)
    return [Violation(inv.id, inv.title, "state", _explain(inv, env, params)) for inv in invs
            if not (compiled[inv.id](env, None) if compiled else evaluate(inv.expr, env))]




def _action(action: dict | None, before: dict[str, Any], after: dict[str, Any]) -> Record:
    """The ``action`` of a step: kind, acting player, creditor, team, and whether it was a bankruptcy.

    A bankruptcy is recognised from the states themselves (a player who was not
    bankrupt is bankrupt after), so engines need not agree on action names.
    """
    return _action_record(action or {}, before, after)


def _action_record(action: dict, before: dict[str, Any], after: dict[str, Any]) -> Record:
    kind = str(action.get("kind") or action.get("type") or action.get("action") or "")
    player = action.get("player", action.get("seat"))
    seats, was, now = before["seats"], before["bankrupt"], after["bankrupt"]
    newly = [] if was == now else [seat for seat, a, b in zip(seats, was, now) if b and not a]
    if newly:
        player = newly[0]
    creditor = action.get("creditor")
    if isinstance(creditor, str):
        creditor = None
    seat = NOBODY if player is None else int(player)
    team = before["teams"][seats.index(seat)] if seat in seats else seat
    key = (kind, seat, NOBODY if creditor is None else int(creditor), team, bool(newly))
    record = _ACTIONS.get(key)
    if record is None:                 # (a handful of distinct actions: each record is made once)
        if len(_ACTIONS) >= 4096:
            _ACTIONS.clear()
        record = _ACTIONS[key] = Record(kind=key[0], player=key[1], creditor=key[2], team=key[3],
                                        bankruptcy=key[4])
    return record


_ACTIONS: dict[tuple, Record] = {}


def check_step(config: Any, before: dict, after: dict, action: dict | None,
               promised_ids: Iterable[str] | None) -> list[Violation]:
    """The promised step invariants that the step ``before -> after`` by ``action`` breaks."""
    invs = _promised(promised_ids, "step")
    return _check_step(config, state_slices(before), state_slices(after), action, invs) if invs else []


def _check_step(config: Any, before: dict[str, Any], after: dict[str, Any], action: dict | None,
                invs: list[Invariant], params: dict[str, Any] | None = None,
                cache: ViewCache | None = None, compiled: dict[str, Callable] | None = None,
                old: ViewEnv | None = None, new: ViewEnv | None = None) -> list[Violation]:
    """The step invariants ``invs`` the step ``before -> after`` breaks (slices; ``old`` and ``new``, the
    views of them when the caller has them already: ``new`` is linked to ``old`` for the step only)."""
    cache = cache or ViewCache(board_facts(config))
    params = _params(config, invs) if params is None else params
    old = old or view_env(cache, before, None if compiled else params)
    new = new or view_env(cache, after, None if compiled else params)
    new.link(old)
    act = _action(action, before, after)
    if before["bank_cash"] is None or after["bank_cash"] is None:
        # The state does not record the bank's money: the bank is the counterparty of
        # whatever the others gain, except in actions the bank takes no part in.
        total = lambda env: sum(p.cash for p in env["players"]) + env["pot"] + env["jackpot"]  # noqa: E731
        old["bank"] = Record(houses=before["bank_houses"], hotels=before["bank_hotels"], cash=0)
        new["bank"] = Record(houses=after["bank_houses"], hotels=after["bank_hotels"],
                             cash=0 if act.kind in BANK_FREE_KINDS else total(old) - total(new))
    new["action"] = act
    try:
        return [Violation(inv.id, inv.title, "step", _explain(inv, new, params)) for inv in invs
                if not (compiled[inv.id](new, old) if compiled else evaluate(inv.expr, new, old))]
    finally:
        del new["action"]      # the view is the state again (the next step's state before)
        new.before = None


class Monitor:
    """The promised invariants checked along a run of states (a game, a trace, an adapter's run).

    ``monitor(before, after, action)`` gives exactly the violations of
    ``check_state(after) + check_step(before, after, action)``, but a state
    invariant that held on the last state seen is evaluated again only when a
    slice it reads (``slices_read``) differs from that state's; a step that only
    moves a token skips every building and ownership invariant. Equality of slices
    is by value, so a caller may reuse or mutate its state dicts freely.
    ``check_slices`` takes the slices themselves (``verify.state_view``): the
    engine gives them from its own state, without a JSON round trip.

    An invariant is evaluated by its function over the slices (``verify.invariant_code``, generated
    from its tree for this config); where that function finds it broken, or where there is none (an
    expression it does not translate, a state whose deeds are not all listed), the reference
    (``_check_state``/``_check_step``) gives the verdict and the violation, explanation included.
    """

    def __init__(self, config: Any, promised_ids: Iterable[str] | None, code: Any = incremental):
        """``code``: the module that runs the checks, ``verify.incremental`` or its compiled build (which
        the engine's checked runs pass when the engine plays compiled)."""
        self.config = config
        self.state_invariants = _promised(promised_ids, "state")
        self.step_invariants = _promised(promised_ids, "step")
        invs = self.state_invariants + self.step_invariants
        self._params = _params(config, invs)
        self._compiled = {inv.id: _compiled(config, inv, self._params) for inv in invs}
        self._cache = ViewCache(board_facts(config))
        facts = board_facts(config)
        # the deeds, the streets and the colour group of each square (what a local conjunct runs over)
        streets = frozenset(sq for sq, kind in zip(facts.squares, facts.kinds) if kind == "street")
        group_at = {facts.squares[i]: j for j, (_, idx) in enumerate(facts.group_members) for i in idx}
        states = [code.StateCheck(k, frozenset(slices_read(inv)), _generated(config, inv, self._params),
                                                _generated(config, inv, self._params, True))
                  for k, inv in enumerate(self.state_invariants)]
        steps = [_generated(config, inv, self._params) for inv in self.step_invariants]
        self._run = code.Incremental(states, steps, frozenset(facts.squares), streets, group_at,
                                     self._reference_state, self._reference_step, _action,
                                     [_frame(inv, self._params) for inv in self.step_invariants],
                                     [any(path[0] == "action" for path in names(inv.expr))
                                      for inv in self.step_invariants])

    def _reference_state(self, k: int, after: dict[str, Any]) -> list[Violation]:
        return _check_state(self.config, after, [self.state_invariants[k]], self._params, self._cache,
                            self._compiled)

    def _reference_step(self, k: int, before: dict[str, Any], after: dict[str, Any],
                        action: dict | None) -> list[Violation]:
        invs = self.step_invariants if k < 0 else [self.step_invariants[k]]
        return _check_step(self.config, before, after, action, invs, self._params, self._cache, self._compiled)

    @property
    def evaluated(self) -> int:
        """State-invariant evaluations done (``skipped``: saved) along the run."""
        return self._run.evaluated

    @property
    def skipped(self) -> int:
        return self._run.skipped

    def reset(self) -> "Monitor":
        """Forget the states seen (a new run of states starts), keeping what was compiled for the config."""
        self._run.reset()
        return self

    def __call__(self, before: dict | None, after: dict, action: dict | None) -> list[Violation]:
        return self.check_slices(None if before is None else state_slices(before), state_slices(after), action)

    def check_slices(self, before: dict[str, Any] | None, after: dict[str, Any], action: dict | None,
                     changed: Set[str] | None = None) -> list[Violation]:
        """Like calling the monitor, on slices (which become the monitor's: equal ones are shared).
        ``changed``, when the caller knows it, names the slices that differ from the last ones it gave
        (the others being the very same objects)."""
        last = self._run.last
        if last is not None:
            if changed is None:
                changed = share(after, last)        # the slices that differ from the last state
            if before is not None and before is not last:
                share(before, last)
            if type(changed) is not frozenset:
                changed = frozenset(changed)
        return self._run.check(before, after, action, changed)


def clauses(inv: Invariant) -> list[str]:
    """The clauses of an invariant, as source text: the operands of its top-level ``and`` (inside a guard
    ``not X or (...)`` or ``implies(X, ...)``: the guarded part's), else the whole expression."""
    text = " ".join(inv.text.split())
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:          # the loader parsed it already; this cannot happen for a loaded invariant
        return [text]
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        node = node.values[-1]
    elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "implies" and len(node.args) == 2:
        node = node.args[1]
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]
    return [ast.get_source_segment(text, p) or text for p in parts]


def broken_clause(config: Any, inv_id: str, after: dict, before: dict | None = None,
                  action: dict | None = None) -> str:
    """The first clause (``clauses``) of invariant ``inv_id`` that fails on ``after`` (for a step invariant:
    on the step ``before -> after`` by ``action``); "" when none fails alone."""
    [inv] = by_id([inv_id])
    for text in clauses(inv):
        part = replace(inv, text=text, expr=parse(text))
        if inv.kind == "state":
            bad = _check_state(config, state_slices(after), [part])
        elif before is not None:
            bad = _check_step(config, state_slices(before), state_slices(after), action, [part])
        else:
            bad = []
        if bad:
            return text
    return ""


_COMPILED: dict[tuple[int, int], tuple[Any, Invariant, Callable]] = {}
_GENERATED: dict[tuple[int, int, bool], tuple[Any, Invariant, Any]] = {}


def _generated(config: Any, inv: Invariant, params: dict[str, Any], parts: bool = False) -> Any:
    """The function of ``inv`` over the slices for ``config`` (``verify.invariant_code``; None when it is
    not translated), or with ``parts`` its conjuncts', made once per config."""
    key = (id(config), id(inv), parts)
    hit = _GENERATED.get(key)
    if hit is not None and hit[0] is config and hit[1] is inv:
        return hit[2]
    if len(_GENERATED) >= 1024:
        _GENERATED.clear()
    make = invariant_code.parts if parts else invariant_code.predicate
    fn = make(inv, {pid: params[pid] for pid in inv.reads}, board_facts(config))
    _GENERATED[key] = (config, inv, fn)
    return fn


def _frame(inv: Invariant, params: dict[str, Any]) -> frozenset[str] | None:
    """The frame of step invariant ``inv`` (``verify.frames``), None while a parameter it reads is undecided
    (the reference then says so on every step)."""
    if any(params[pid] is UNDECIDED for pid in inv.reads):
        return None
    hit = _FRAMES.get(id(inv))
    if hit is None or hit[0] is not inv:
        hit = _FRAMES[id(inv)] = (inv, frames.frame(inv.expr, inv.reads))
    return hit[1]


_FRAMES: dict[int, tuple[Invariant, frozenset[str] | None]] = {}


def _compiled(config: Any, inv: Invariant, params: dict[str, Any]) -> Callable:
    """The predicate of ``inv`` for ``config`` (kept per config, so its memo outlives a game): the rule
    parameters read once, at compile time, its quantifiers over groups and deeds remembering each
    item's verdict (one board per config)."""
    hit = _COMPILED.get((id(config), id(inv)))
    if hit is not None and hit[0] is config and hit[1] is inv:
        return hit[2]
    if len(_COMPILED) >= 1024:
        _COMPILED.clear()
    fn = compile_expr(inv.expr, {pid: params[pid] for pid in inv.reads}, memo=True)
    _COMPILED[(id(config), id(inv))] = (config, inv, fn)
    return fn


def _explain(inv: Invariant, env: dict, params: dict[str, Any]) -> str:
    """A short hint at what broke (the first failing conjunct of a top-level `all`/`and`)."""
    env = env.copy()
    env.update(params)
    e = inv.expr
    parts = e.operands if isinstance(e, BoolOp) and e.op == "and" else (e,)
    for part in parts:
        if isinstance(part, Aggregate) and part.func == "all" and len(part.loops) == 1:
            var, it = part.loops[0]
            try:
                for item in evaluate(it, env):
                    local = dict(env)
                    local[var] = item
                    if all(evaluate(c, local) for c in part.conds) and not evaluate(part.elt, local):
                        return f"fails for {var} = {item!r}"
            except Exception:  # an explanation must never hide the violation itself
                return ""
    return ""


__all__ = ["Invariant", "Violation", "Monitor", "load_invariants", "invariant_ids", "by_id", "check_state",
           "check_step", "state_slices", "slices_read", "param_value", "board_facts", "clauses", "broken_clause",
           "NOBODY"]
