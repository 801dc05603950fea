"""The frame of a step invariant: the slices of the state a step must change for it to be able to break.

A checked run decides every promised step invariant after every action, and most actions leave most of
the state as it was: a roll that lands on a free square moves no money, and only a bankruptcy makes a
player bankrupt. Money conservation (``total == old(total)``) cannot fail on a step that leaves every
slice its total reads as it was, and a bankruptcy rule guarded by ``not action.bankruptcy`` cannot fail
on a step that makes nobody bankrupt. ``frame`` proves such facts on the invariant's validated tree, so
that ``verify.incremental`` evaluates a step invariant only on the steps that change a slice of its frame.

The proof: with the slices of a set ``U`` unchanged by the step, ``old(e)`` is ``e`` and ``x.before.f``
is ``x.f`` wherever ``e`` and ``f`` read slices of ``U`` only (``normalise``); a comparison ``==``, ``<=``
or ``>=`` of two operands that are then the same tree holds, its ``!=``, ``<`` or ``>`` fails; a
``not``, ``and``, ``or`` or ``implies`` holds or fails as its operands say, an ``all`` holds when its
element does; ``action.bankruptcy`` is false when the players' ``bankrupt`` column is unchanged (the
action record says a step is a bankruptcy when a player who was not bankrupt is after it:
``verify.invariants._action_record``).
Anything else proves nothing. Two equal trees evaluated on equal slices give equal values when the
values are the engine's own (integers, booleans and strings: no NaN) and the tree cannot raise (no
division, no ``min``/``max`` of nothing): ``safe``. The frame is the smallest such ``U`` found by
dropping one slice after another while the invariant still holds; None when even an unchanged state
proves nothing.
"""

from __future__ import annotations

from typing import Any, Iterable

from .expr import Aggregate, BinOp, BoolOp, Call, Compare, Const, IfExp, Name, Neg, Not, TupleLit
from .state_view import BANK_SLICES, PLAYER_SLICES, PROPERTY_SLICES, SLICE_OF_FIELD

#: every slice a step can change
ALL_SLICES = frozenset(PLAYER_SLICES + PROPERTY_SLICES + BANK_SLICES + ("pot", "jackpot"))
#: what the bank's cash reads: its column, or where the state has none, the money of everyone else
#: (the reference makes the bank the counterparty of what the others gain)
BANK_CASH = frozenset({"bank_cash", "cash", "pot", "jackpot", "seats"})
_HOLDS = ("==", "<=", ">=")
_FAILS = ("!=", "<", ">")
_SAFE_OPS = ("+", "-", "*")
_SAFE_AGGREGATES = ("sum", "count", "all", "any")
_SAFE_CALLS = ("len", "abs", "old")


def slices_of(e: Any, loop_vars: frozenset[str], constants: frozenset[str] = frozenset()) -> frozenset[str] | None:
    """The slices ``e`` reads (``loop_vars``: the names bound by its loops; ``constants``: the rule
    parameters' names); None when it reads something else that a step may change (the action)."""
    out: set[str] = set()
    for path in _names(e):
        root = path[0]
        if root in loop_vars:        # (a loop variable first, as the reference reads a name)
            for field in path[1:]:
                if field == "before":
                    out.update(("seats", "listed"))
                elif field in SLICE_OF_FIELD:
                    out.add(SLICE_OF_FIELD[field])
                else:
                    return None
            if len(path) == 1:       # a whole record: every column
                out.update(PLAYER_SLICES + PROPERTY_SLICES)
        elif ".".join(path) in constants:
            continue
        elif root == "players" and len(path) == 1:
            out.add("seats")
        elif root in ("properties", "streets", "groups") and len(path) == 1:
            out.add("listed")
        elif root in ("pot", "jackpot") and len(path) == 1:
            out.add(root)
        elif root == "bank" and len(path) == 2:
            out.update(BANK_CASH if path[1] == "cash" else {f"bank_{path[1]}"})
        else:
            return None              # the action, or a name the proof does not know
    return frozenset(out)


def _names(e: Any) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []

    def walk(x: Any) -> None:
        if isinstance(x, Name):
            out.append(x.path)
        for child in _children(x):
            walk(child)
    walk(e)
    return out


def _children(e: Any) -> list:
    if isinstance(e, Aggregate):
        return [it for _, it in e.loops] + [e.elt, *e.conds]
    if isinstance(e, (Compare, BoolOp)):
        return list(e.operands)
    if isinstance(e, Call):
        return list(e.args)
    if isinstance(e, TupleLit):
        return list(e.items)
    if isinstance(e, (Not, Neg)):
        return [e.operand]
    if isinstance(e, BinOp):
        return [e.left, e.right]
    if isinstance(e, IfExp):
        return [e.test, e.then, e.orelse]
    return []


def safe(e: Any) -> bool:
    """Whether evaluating ``e`` on the engine's own values cannot raise."""
    if isinstance(e, BinOp) and e.op not in _SAFE_OPS:
        return False
    if isinstance(e, Aggregate) and e.func not in _SAFE_AGGREGATES:
        return False
    if isinstance(e, Call) and e.func not in _SAFE_CALLS:
        return False
    if not isinstance(e, (Const, Name, BinOp, Aggregate, Call, Compare, BoolOp, Not, Neg, IfExp, TupleLit)):
        return False
    return all(safe(x) for x in _children(e))


class _Proof:
    def __init__(self, unchanged: frozenset[str], loop_vars: frozenset[str], constants: frozenset[str]):
        self.unchanged = unchanged
        self.loop_vars = loop_vars
        self.constants = constants      # the parameters' names (the same on both sides of a step)

    def reads_unchanged(self, e: Any) -> bool:
        read = slices_of(e, self.loop_vars, self.constants)
        return read is not None and read <= self.unchanged

    def normalise(self, e: Any) -> Any:
        """``e`` with ``old(x)`` as ``x`` and ``v.before.f`` as ``v.f`` where what they read is unchanged."""
        if isinstance(e, Call) and e.func == "old" and len(e.args) == 1 and self.reads_unchanged(e.args[0]):
            return self.normalise(e.args[0])
        if isinstance(e, Name) and len(e.path) == 3 and e.path[1] == "before" and e.path[0] in self.loop_vars:
            if {"seats", "listed", SLICE_OF_FIELD.get(e.path[2], "")} <= self.unchanged:
                return Name((e.path[0], e.path[2]))
            return e
        if isinstance(e, Aggregate):
            return Aggregate(e.func, self.normalise(e.elt), tuple((v, self.normalise(it)) for v, it in e.loops),
                             tuple(self.normalise(c) for c in e.conds))
        if isinstance(e, Compare):
            return Compare(e.ops, tuple(self.normalise(x) for x in e.operands))
        if isinstance(e, BoolOp):
            return BoolOp(e.op, tuple(self.normalise(x) for x in e.operands))
        if isinstance(e, Call):
            return Call(e.func, tuple(self.normalise(x) for x in e.args))
        if isinstance(e, TupleLit):
            return TupleLit(tuple(self.normalise(x) for x in e.items))
        if isinstance(e, (Not, Neg)):
            return type(e)(self.normalise(e.operand))
        if isinstance(e, BinOp):
            return BinOp(e.op, self.normalise(e.left), self.normalise(e.right))
        if isinstance(e, IfExp):
            return IfExp(self.normalise(e.test), self.normalise(e.then), self.normalise(e.orelse))
        return e

    def same(self, e: Compare, ops: tuple[str, ...]) -> bool:
        """Whether every operand of comparison ``e`` is the same tree and every operator one of ``ops``."""
        if not all(op in ops for op in e.ops) or not all(safe(x) for x in e.operands):
            return False
        first, *rest = (self.normalise(x) for x in e.operands)
        return all(x == first for x in rest)

    def holds(self, e: Any) -> bool:
        """``e`` is true on every step that leaves the unchanged slices as they were."""
        if isinstance(e, Const):
            return e.value is True
        if isinstance(e, BoolOp):
            return (any if e.op == "or" else all)(self.holds(x) for x in e.operands)
        if isinstance(e, Not):
            return self.fails(e.operand)
        if isinstance(e, Call) and e.func == "implies" and len(e.args) == 2:
            return self.fails(e.args[0]) or self.holds(e.args[1])
        if isinstance(e, Compare):
            return self.same(e, _HOLDS)
        if isinstance(e, Aggregate) and e.func == "all":
            # true for every item whatever the items are, when nothing of it can raise
            return all(safe(x) for x in [*e.conds, *(it for _, it in e.loops)]) and self.holds(e.elt)
        return False

    def fails(self, e: Any) -> bool:
        """``e`` is false on every such step."""
        if isinstance(e, Const):
            return e.value is False
        if isinstance(e, BoolOp):
            return (any if e.op == "and" else all)(self.fails(x) for x in e.operands)
        if isinstance(e, Not):
            return self.holds(e.operand)
        if isinstance(e, Name) and e.path == ("action", "bankruptcy"):
            return "bankrupt" in self.unchanged
        if isinstance(e, Compare):
            return self.same(e, _FAILS)
        return False


def frame(expr: Any, parameters: Iterable[str] = ()) -> frozenset[str] | None:
    """The slices a step must change for step invariant ``expr`` to be able to fail (a smallest set found
    by dropping slices one by one), or None when no step is proved harmless. ``parameters``: the names of
    the rule parameters it reads (constants of the config)."""
    loop_vars = frozenset(var for x in _all_nodes(expr) if isinstance(x, Aggregate) for var, _ in x.loops)
    constants = frozenset(parameters)
    unchanged = ALL_SLICES
    if not _Proof(unchanged, loop_vars, constants).holds(expr):
        return None
    for name in sorted(ALL_SLICES):
        fewer = unchanged - {name}
        if _Proof(fewer, loop_vars, constants).holds(expr):
            unchanged = fewer
    return unchanged


def _all_nodes(e: Any) -> list:
    out = [e]
    for child in _children(e):
        out += _all_nodes(child)
    return out


__all__ = ["frame", "safe", "slices_of", "ALL_SLICES", "BANK_CASH"]
