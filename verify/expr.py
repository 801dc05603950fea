"""The spec language for constraints and invariants: parsed, never executed.

Constraints (over rule parameters) and invariants (over game states) are
written once in a small Python-like language and compiled twice: to plain
Python closures (for the engine's runtime checks and the linter) and to z3
terms (``verify.smt``). Text is parsed with :mod:`ast` and only a whitelist of
node kinds is accepted, so nothing in a spec can run code.

Grammar, informally::

    expr  := literal | name | name.attr | expr OP expr | not expr
           | expr if expr else expr | FUNC(expr, ...)
           | AGG(expr for v in expr [for v in expr ...] [if expr])
    AGG   := all | any | sum | min | max | count
    FUNC  := abs | min | max | len | old | implies

``name.attr`` chains resolve to dotted parameter ids (``building.max_houses``)
when such a name is bound, otherwise to an attribute of a bound object.
``old(e)`` evaluates ``e`` in the state before an action (step properties).
"""

from __future__ import annotations

import ast
import operator
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import Any, Callable

from .errors import ExprError, Location

AGGREGATES = {"all", "any", "sum", "min", "max", "count"}
FUNCTIONS = {"abs", "min", "max", "len", "old", "implies"}
_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
        ast.In: "in", ast.NotIn: "not in"}
_BIN = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%"}


# ---- the syntax tree (shared by every backend) --------------------------------

@dataclass(frozen=True)
class Const:
    value: Any


@dataclass(frozen=True)
class Name:
    """A bound name or a dotted path (``players``, ``building.max_houses``, ``p.cash``)."""
    path: tuple[str, ...]


@dataclass(frozen=True)
class Compare:
    ops: tuple[str, ...]
    operands: tuple[Any, ...]


@dataclass(frozen=True)
class BoolOp:
    op: str  # "and" | "or"
    operands: tuple[Any, ...]


@dataclass(frozen=True)
class Not:
    operand: Any


@dataclass(frozen=True)
class Neg:
    operand: Any


@dataclass(frozen=True)
class BinOp:
    op: str
    left: Any
    right: Any


@dataclass(frozen=True)
class IfExp:
    test: Any
    then: Any
    orelse: Any


@dataclass(frozen=True)
class Call:
    func: str
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Aggregate:
    """``func(elt for var in iterable ... if cond)``; loops nest left to right."""
    func: str
    elt: Any
    loops: tuple[tuple[str, Any], ...]
    conds: tuple[Any, ...]


@dataclass(frozen=True)
class TupleLit:
    items: tuple[Any, ...]


def parse(text: str, where: Location | None = None) -> Any:
    """Parse ``text`` into the expression tree, rejecting anything off the whitelist."""
    if not isinstance(text, str) or not text.strip():
        raise ExprError("an expression must be a non-empty string", where)
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"cannot parse expression {text!r}: {exc.msg}", where) from None
    return _convert(tree.body, text, where)


def _convert(node: ast.AST, text: str, where) -> Any:
    c = lambda n: _convert(n, text, where)  # noqa: E731
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float, str, bool, type(None))):
        return Const(node.value)
    if isinstance(node, ast.Name):
        return Name((node.id,))
    if isinstance(node, ast.Attribute):
        base = c(node.value)
        if not isinstance(base, Name) or node.attr.startswith("_"):
            raise ExprError(f"only dotted names are allowed, not {ast.unparse(node)!r}", where)
        return Name(base.path + (node.attr,))
    if isinstance(node, ast.Compare):
        ops = []
        for op in node.ops:
            if type(op) not in _CMP:
                raise ExprError(f"comparison {type(op).__name__} is not allowed", where)
            ops.append(_CMP[type(op)])
        return Compare(tuple(ops), (c(node.left), *map(c, node.comparators)))
    if isinstance(node, ast.BoolOp):
        return BoolOp("and" if isinstance(node.op, ast.And) else "or", tuple(map(c, node.values)))
    if isinstance(node, ast.UnaryOp):
        if isinstance(node.op, ast.Not):
            return Not(c(node.operand))
        if isinstance(node.op, ast.USub):
            return Neg(c(node.operand))
        if isinstance(node.op, ast.UAdd):
            return c(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
        return BinOp(_BIN[type(node.op)], c(node.left), c(node.right))
    if isinstance(node, ast.IfExp):
        return IfExp(c(node.test), c(node.body), c(node.orelse))
    if isinstance(node, (ast.Tuple, ast.List)):
        return TupleLit(tuple(map(c, node.elts)))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        fname = node.func.id
        if len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp):
            if fname not in AGGREGATES:
                raise ExprError(f"{fname}(... for ...) is not an aggregate; use one of "
                                f"{sorted(AGGREGATES)}", where)
            gen = node.args[0]
            loops, conds = [], []
            for comp in gen.generators:
                if not isinstance(comp.target, ast.Name) or comp.is_async:
                    raise ExprError("a quantifier binds exactly one name", where)
                loops.append((comp.target.id, c(comp.iter)))
                conds.extend(map(c, comp.ifs))
            return Aggregate(fname, c(gen.elt), tuple(loops), tuple(conds))
        if fname in FUNCTIONS:
            return Call(fname, tuple(map(c, node.args)))
        raise ExprError(f"function {fname!r} is not allowed; allowed: "
                        f"{sorted(FUNCTIONS | AGGREGATES)}", where)
    raise ExprError(f"{type(node).__name__} is not allowed in {text!r}", where)


def names(expr: Any, with_loop_variables: bool = False) -> set[tuple[str, ...]]:
    """Every free dotted name the expression mentions (and the loop variables' paths, such as
    ``p.cash``, when ``with_loop_variables``)."""
    out: set = set()

    def walk(e, bound):
        if isinstance(e, Name):
            if with_loop_variables or e.path[0] not in bound:
                out.add(e.path)
        elif isinstance(e, Aggregate):
            b = set(bound)
            for var, it in e.loops:
                walk(it, b)
                b.add(var)
            walk(e.elt, b)
            for cond in e.conds:
                walk(cond, b)
        elif isinstance(e, (Compare, BoolOp, Call, TupleLit)):
            for x in getattr(e, "operands", None) or getattr(e, "args", None) or getattr(e, "items", ()):
                walk(x, bound)
        elif isinstance(e, (Not, Neg)):
            walk(e.operand, bound)
        elif isinstance(e, BinOp):
            walk(e.left, bound)
            walk(e.right, bound)
        elif isinstance(e, IfExp):
            walk(e.test, bound), walk(e.then, bound), walk(e.orelse, bound)

    walk(expr, set())
    return out


# ---- the Python backend ---------------------------------------------------------

class LazyEnv(dict):
    """An environment whose costly entries are built when first read: a subclass names them (``lazy``)
    and builds them (``build``); the engine's view of a state builds its records so."""

    __slots__ = ()
    lazy: frozenset[str] = frozenset()

    def build(self, key: str) -> Any:  # pragma: no cover - every subclass builds its own
        raise KeyError(key)

    def column(self, key: str, field: str) -> Any:
        """The ``field`` of every record of the lazy entry ``key``, in order, when it can be read without
        building the records (a column of the state they are built from), else None."""
        return None

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.lazy

    def __missing__(self, key: str) -> Any:
        if key not in self.lazy:
            raise KeyError(key)
        value = self[key] = self.build(key)
        return value

    def copy(self) -> dict[str, Any]:
        """A plain dict with every entry built."""
        for key in self.lazy:
            self[key]
        return dict(self)


class Undecided(Exception):
    """Raised while evaluating when a name is bound to the marker ``UNDECIDED``."""


UNDECIDED = object()


def _lookup(path: tuple[str, ...], env: dict) -> Any:
    """The value of a dotted name in ``env`` (the z3 backend's reading; see ``_compile_name``)."""
    return _compile_name(path)(env, None)


# Python's own operators (the ``operator`` functions are the operators, called from C)
_BIN_PY: dict[str, Callable] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul,
    "/": operator.truediv, "//": operator.floordiv, "%": operator.mod,
}
_CMP_PY: dict[str, Callable] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def evaluate(expr: Any, env: dict, old_env: dict | None = None) -> Any:
    """Evaluate ``expr`` with names from ``env`` (``old(...)`` reads ``old_env``).

    The tree is compiled once into nested Python closures (cached per tree), so
    runtime invariant checks after every engine action stay cheap. Loop variables
    are bound in ``env`` for the duration of an aggregate and restored after.
    """
    fn = _COMPILED.get(id(expr))
    if fn is None or fn[0] is not expr:
        if len(_COMPILED) >= _COMPILED_MAX:    # trees parsed once per file load: a bound, not an LRU
            _COMPILED.clear()
        fn = (expr, _compile(expr))
        _COMPILED[id(expr)] = fn
    return fn[1](env, old_env)


_COMPILED: dict[int, tuple[Any, Callable]] = {}
_COMPILED_MAX = 4096
_MISSING = object()


def _unbind(env: dict, var: str, saved: Any) -> None:
    """Give a comprehension's variable back the value it had before the loop (or none)."""
    if saved is _MISSING:
        env.pop(var, None)
    else:
        env[var] = saved


def compile_expr(expr: Any, constants: dict[str, Any] | None = None,
                 memo: bool = False) -> Callable[[dict, dict | None], Any]:
    """``expr`` as a closure ``f(env, old_env)`` (what ``evaluate`` runs), with the free names found in
    ``constants`` (by their whole dotted path, e.g. rule parameters fixed for a game) read once, here:
    ``f(env, old)`` equals ``evaluate(expr, env | constants, old | constants)``.

    With ``memo``, an ``all``/``any`` whose body reads nothing but its first loop variable's fields
    (and constants) remembers each item's verdict by the item's ``memo_key`` (a value that determines
    every field of the item; items without one are evaluated each time): evaluated again on a state in
    which one colour group changed, ``all(... for g in groups ...)`` evaluates the body for that group
    alone. The keys must determine the fields for as long as the closure lives (one board). And a
    subexpression that also appears inside ``old(...)`` (``sum(...) == old(sum(...))``) leaves its value
    in the environment's ``memo`` dict, when it has one, for ``old(...)`` to find when the same
    environment is the state before the next step."""
    return _compile(expr, frozenset(), constants or {}, _Memo(expr) if memo else None)


class _Memo:
    """What a memoising compilation shares: a token per subexpression that ``old(...)`` also reads."""

    def __init__(self, expr: Any):
        self.olds = {x.args[0]: object() for x in _nodes(expr) if isinstance(x, Call) and x.func == "old"}


def _remember(f: Callable, token: object) -> Callable:
    """``f``, its value kept in ``env.memo`` (for ``old(...)`` of a later step on the same environment,
    and for ``f`` itself on it again)."""
    def remembered(env, old):
        memo = getattr(env, "memo", None)
        if memo is None:
            return f(env, old)
        value = memo.get(token, _MISSING)
        if value is _MISSING:
            value = memo[token] = f(env, old)
        return value
    return remembered


def _constant(e: Any, bound: frozenset, consts: dict[str, Any]) -> Any:
    """The value of a subtree that reads no state (literals, constants, arithmetic on them), else _MISSING."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Name):
        if e.path[0] in bound:
            return _MISSING
        value = consts.get(".".join(e.path), _MISSING)
        return _MISSING if value is UNDECIDED else value
    if isinstance(e, (Neg, Not)):
        v = _constant(e.operand, bound, consts)
        if v is _MISSING:
            return _MISSING
        return (not v) if isinstance(e, Not) else -v
    if isinstance(e, BinOp):
        a, b = _constant(e.left, bound, consts), _constant(e.right, bound, consts)
        if a is _MISSING or b is _MISSING:
            return _MISSING
        try:
            return _BIN_PY[e.op](a, b)
        except Exception:           # e.g. a division by zero: left for evaluation time to report
            return _MISSING
    return _MISSING


def _compile(e: Any, bound: frozenset = frozenset(), consts: dict[str, Any] | None = None,
             memo: _Memo | None = None) -> Callable[[dict, Any], Any]:
    """Compile a tree; ``bound`` holds the loop variables in scope (looked up directly), ``consts`` the
    names fixed at compile time and ``memo`` what memoises (``compile_expr``)."""
    consts = {} if consts is None else consts
    f = _compile_node(e, bound, consts, memo)
    if memo is not None and not bound and memo.olds and e in memo.olds:
        return _remember(f, memo.olds[e])
    return f


def _compile_node(e: Any, bound: frozenset, consts: dict[str, Any], memo: _Memo | None) -> Callable:
    c = lambda x: _compile(x, bound, consts, memo)  # noqa: E731
    value = _constant(e, bound, consts)
    if value is not _MISSING:
        return lambda env, old: value
    if isinstance(e, Name):
        return _compile_bound(e.path) if e.path[0] in bound else _compile_name(e.path)
    if isinstance(e, Compare):
        parts = [c(x) for x in e.operands]
        ops = [_CMP_PY[op] for op in e.ops]
        if len(ops) == 1:
            a, b, op = parts[0], parts[1], ops[0]
            value = _constant(e.operands[1], bound, consts)
            if value is not _MISSING:
                return lambda env, old: op(a(env, old), value)
            return lambda env, old: op(a(env, old), b(env, old))
        if len(ops) == 2:
            a, b, z = parts
            op1, op2 = ops

            def chain2(env, old):
                left = a(env, old)
                middle = b(env, old)
                return bool(op1(left, middle)) and bool(op2(middle, z(env, old)))
            return chain2

        def chain(env, old):
            left = parts[0](env, old)
            for op, part in zip(ops, parts[1:]):
                right = part(env, old)
                if not op(left, right):
                    return False
                left = right
            return True
        return chain
    if isinstance(e, BoolOp):
        parts = [c(x) for x in e.operands]
        if len(parts) == 2:
            a, b = parts
            if e.op == "and":
                return lambda env, old: bool(a(env, old)) and bool(b(env, old))
            return lambda env, old: bool(a(env, old)) or bool(b(env, old))
        if e.op == "and":
            return lambda env, old: all(p(env, old) for p in parts)
        return lambda env, old: any(p(env, old) for p in parts)
    if isinstance(e, Not):
        inner = c(e.operand)
        return lambda env, old: not inner(env, old)
    if isinstance(e, Neg):
        inner = c(e.operand)
        return lambda env, old: -inner(env, old)
    if isinstance(e, BinOp):
        a, b, op = c(e.left), c(e.right), _BIN_PY[e.op]
        return lambda env, old: op(a(env, old), b(env, old))
    if isinstance(e, IfExp):
        t, a, b = c(e.test), c(e.then), c(e.orelse)
        return lambda env, old: a(env, old) if t(env, old) else b(env, old)
    if isinstance(e, TupleLit):
        items = [c(x) for x in e.items]
        return lambda env, old: tuple(i(env, old) for i in items)
    if isinstance(e, Call):
        if e.func == "old":
            # the old state binds no loop variable of ours; its value may be left from the step before
            inner = _compile_node(e.args[0], frozenset(), consts, memo)
            token = memo.olds.get(e.args[0]) if memo is not None else None

            def in_old(env, old):
                if old is None:
                    raise ExprError("old(...) is only allowed in step properties")
                if token is not None:
                    remembered = getattr(old, "memo", None)
                    if remembered is not None:
                        value = remembered.get(token, _MISSING)
                        if value is not _MISSING:
                            return value
                return inner(old, None)
            return in_old
        args = [c(x) for x in e.args]
        if e.func == "implies":
            a, b = args
            return lambda env, old: (not a(env, old)) or bool(b(env, old))
        fn = {"abs": abs, "min": min, "max": max, "len": len}[e.func]
        if len(args) == 1:
            a0 = args[0]
            return lambda env, old: fn(a0(env, old))
        return lambda env, old: fn(*[x(env, old) for x in args])
    if isinstance(e, Aggregate):
        if memo is not None and e.func in ("all", "any") and _item_local(e, consts):
            return _memoised(e, bound, consts)
        return _compile_aggregate(e, bound, consts, memo)
    raise ExprError(f"cannot evaluate {e!r}")


def _compile_bound(path: tuple[str, ...]) -> Callable:
    """A loop variable and its fields: read directly, no dotted-parameter search."""
    head, rest = path[0], path[1:]
    full = ".".join(path)
    if not rest:
        return lambda env, old: env[head]
    if len(rest) == 1:               # the common ``p.cash``: one field, no loop
        attr = rest[0]
        get = operator.attrgetter(attr)

        def field1(env, old):
            value = env[head]
            if type(value) is dict:
                try:
                    return value[attr]
                except KeyError:
                    raise ExprError(f"no field {attr!r} in {full}") from None
            try:
                return get(value)
            except AttributeError:
                raise ExprError(f"no field {attr!r} in {full}") from None
        return field1

    def walk(value):
        for attr in rest:
            if type(value) is dict:
                try:
                    value = value[attr]
                except KeyError:
                    raise ExprError(f"no field {attr!r} in {full}") from None
            else:
                try:
                    value = getattr(value, attr)
                except AttributeError:
                    raise ExprError(f"no field {attr!r} in {full}") from None
        return value
    get_all = operator.attrgetter(".".join(rest))    # ``p.before.owner`` in one call, when no dict is on the way

    def field(env, old):
        value = env[head]
        if type(value) is not dict:
            try:
                return get_all(value)
            except AttributeError:
                pass
        return walk(value)
    return field


@lru_cache(maxsize=4096)
def _compile_name(path: tuple[str, ...]) -> Callable:
    """A free dotted name: the longest prefix that ``env`` binds (``building.hotel_threshold`` is one
    parameter id), then attributes or keys; ``UNDECIDED`` raises ``Undecided``."""
    full = ".".join(path)
    if any(part.startswith("_") for part in path):
        raise ExprError(f"no field in {full}")
    cuts = [(".".join(path[:c]), path[c:]) for c in range(len(path), 0, -1)]
    if len(path) == 1:                 # a root of the view (players, pot) or a parameter
        key = path[0]

        def lookup1(env, old):
            if type(env) is dict:
                value = env.get(key, _MISSING)
            elif isinstance(env, LazyEnv):
                value = env.get(key, _MISSING)
                if value is _MISSING and key in env.lazy:
                    value = env[key]
            else:
                value = env[key] if key in env else _MISSING
            if value is _MISSING:
                raise ExprError(f"unknown name {full!r}")
            if value is UNDECIDED:
                raise Undecided(full)
            return value
        return lookup1

    if len(path) == 2:                 # a field of a root (bank.cash, action.player) or a parameter id
        head, attr = path

        def lookup2(env, old):
            if type(env) is dict or isinstance(env, LazyEnv):
                value = env.get(full, _MISSING)
                if value is _MISSING and isinstance(env, LazyEnv) and full in env.lazy:
                    value = env[full]
                if value is _MISSING:
                    value = env.get(head, _MISSING)
                    if value is _MISSING:
                        if not isinstance(env, LazyEnv) or head not in env.lazy:
                            raise ExprError(f"unknown name {full!r}")
                        value = env[head]
                    if type(value) is dict:
                        value = _field_of(value, attr, full)
                    else:                # a record (bank.cash, action.player): _field_of's other case, inline
                        value = getattr(value, attr, _MISSING)
                        if value is _MISSING:
                            raise ExprError(f"no field {attr!r} in {full}")
                if value is UNDECIDED:
                    raise Undecided(full)
                return value
            return lookup(env, old)
        return lookup2

    def lookup(env, old):
        # a plain or lazy environment is read with get (in C); another kind of mapping is asked with `in`
        lazy = env.lazy if isinstance(env, LazyEnv) else None
        plain = lazy is not None or type(env) is dict
        for key, rest in cuts:
            if plain:
                value = env.get(key, _MISSING)
                if value is _MISSING:
                    if lazy is None or key not in lazy:
                        continue
                    value = env[key]
            elif key in env:
                value = env[key]
            else:
                continue
            for attr in rest:
                value = _field_of(value, attr, full)
            if value is UNDECIDED:
                raise Undecided(full)
            return value
        raise ExprError(f"unknown name {full!r}")
    return lookup


def _field_of(value: Any, attr: str, full: str) -> Any:
    """A key of a dict, else an attribute of an object (of the name ``full``)."""
    if isinstance(value, dict):
        if attr not in value:
            raise ExprError(f"no field {attr!r} in {full}")
        return value[attr]
    value = getattr(value, attr, _MISSING)
    if value is _MISSING:
        raise ExprError(f"no field {attr!r} in {full}")
    return value


def _compile_aggregate(agg: Aggregate, bound: frozenset, consts: dict[str, Any],
                       memo: _Memo | None = None) -> Callable:
    loops = []
    scope = bound
    for var, it in agg.loops:
        loops.append((var, _compile(it, scope, consts, memo)))
        scope = scope | {var}
    conds = [_compile(c, scope, consts, memo) for c in agg.conds]
    elt = _compile(agg.elt, scope, consts, memo)
    variables = [var for var, _ in loops]

    depth_max = len(loops) - 1
    if not conds:
        passes = None
    elif len(conds) == 1:
        passes = conds[0]
    else:
        def passes(env, old):
            for cond in conds:
                if not cond(env, old):
                    return False
            return True

    def produce(env, old, depth=0):
        # yields the element for every binding of the loop variables that passes the conditions
        var, iterable = loops[depth]
        for item in iterable(env, old):
            env[var] = item
            if depth < depth_max:
                yield from produce(env, old, depth + 1)
            elif passes is None or passes(env, old):
                yield elt(env, old)

    def search(env, old, wanted: bool, depth=0) -> bool:
        # all() and any() as plain loops that stop at the first deciding element (no generators)
        var, iterable = loops[depth]
        for item in iterable(env, old):
            env[var] = item
            if depth < depth_max:
                if search(env, old, wanted, depth + 1) is wanted:
                    return wanted
            elif (passes is None or passes(env, old)) and bool(elt(env, old)) is wanted:
                return wanted
        return not wanted

    def scoped(body):
        # binds the loop variables in env for the duration of the aggregate, restoring them after
        def evaluate_aggregate(env, old):
            saved = [env.get(v, _MISSING) for v in variables]
            try:
                return body(env, old)
            finally:
                for v, prev in zip(variables, saved):
                    if prev is _MISSING:
                        env.pop(v, None)
                    else:
                        env[v] = prev
        return evaluate_aggregate

    def run(reduce):
        def body(env, old):
            gen = produce(env, old)
            try:
                return reduce(gen)
            finally:
                gen.close()
        return scoped(body)

    func = agg.func
    if len(loops) == 1:
        it = agg.loops[0][1]
        root = it.path[0] if isinstance(it, Name) and len(it.path) == 1 and it.path[0] not in bound else None
        field = agg.elt.path[1] if (isinstance(agg.elt, Name) and len(agg.elt.path) == 2 and not conds
                                    and agg.elt.path[0] == variables[0] and func in _REDUCE) else None
        if field is not None:      # sum(q.cash for q in players): the loop variable is read by no one else
            return _collect_field(func, field, loops[0][1], ".".join(agg.elt.path), root)
        test = _field_test(agg, consts) if func in ("all", "any") and not conds else None
        if test is not None:       # all(p.cash >= 0 for p in players): a field against a constant
            return _test_field(func, *test, loops[0][1], root)
        return _single_loop(func, variables[0], loops[0][1], passes, elt)
    if func == "all":
        return scoped(lambda env, old: search(env, old, False))
    if func == "any":
        return scoped(lambda env, old: search(env, old, True))
    if func == "sum":
        return run(sum)
    if func == "count":
        return run(lambda values: sum(1 for v in values if v))
    pick = min if func == "min" else max
    return run(lambda values: pick(values, default=0))


_REDUCE = {"sum": sum, "count": lambda values: sum(1 for v in values if v),
           "min": lambda values: min(values, default=0), "max": lambda values: max(values, default=0)}


def _collect_field(func: str, attr: str, iterable: Callable, full: str, root: str | None = None) -> Callable:
    """``func(v.attr for v in iterable)``: the same result as binding ``v``, without binding it (and, over
    a ``root`` of a lazy environment, without building its records where it gives their ``column``)."""
    get = operator.attrgetter(attr)
    reduce = _REDUCE[func]

    def collect_field(env, old):
        if root is not None and isinstance(env, LazyEnv):
            values = env.column(root, attr)
            if values is not None:
                return reduce(values)
        items = iterable(env, old)
        try:
            values = [item[attr] if type(item) is dict else get(item) for item in items]
        except (AttributeError, KeyError):
            raise ExprError(f"no field {attr!r} in {full}") from None
        return reduce(values)
    return collect_field


def _field_test(agg: Aggregate, consts: dict[str, Any]) -> tuple | None:
    """(field, comparison, constant, the field's name) when the body of ``agg`` compares a field of its
    loop variable with a constant (``p.cash >= 0``), else None."""
    var = agg.loops[0][0]
    e = agg.elt
    if not (isinstance(e, Compare) and len(e.ops) == 1 and isinstance(e.operands[0], Name)):
        return None
    path = e.operands[0].path
    value = _constant(e.operands[1], frozenset({var}), consts)
    if len(path) != 2 or path[0] != var or value is _MISSING:
        return None
    return path[1], _CMP_PY[e.ops[0]], value, ".".join(path)


def _test_field(func: str, attr: str, op: Callable, value: Any, full: str, iterable: Callable,
                root: str | None = None) -> Callable:
    """``all(v.attr OP value for v in iterable)`` (or ``any``): the same result as binding ``v``, the loop
    run in C over records (dicts, as a plain state holds them, are read key by key), or over the ``column``
    of a ``root`` (as ``_collect_field``)."""
    get = operator.attrgetter(attr)
    reduce = all if func == "all" else any

    def test_field(env, old):
        if root is not None and isinstance(env, LazyEnv):
            values = env.column(root, attr)
            if values is not None:
                return reduce(map(op, values, repeat(value)))
        items = iterable(env, old)
        if type(items) is not list:
            items = list(items)
        try:
            return reduce(map(op, map(get, items), repeat(value)))
        except AttributeError:
            pass
        try:
            return reduce(op(item[attr] if type(item) is dict else get(item), value) for item in items)
        except (AttributeError, KeyError):
            raise ExprError(f"no field {attr!r} in {full}") from None
    return test_field


def _single_loop(func: str, var: str, iterable: Callable, passes: Callable | None, elt: Callable) -> Callable:
    """An aggregate over one loop (most of them): the same results as the general case, as plain loops."""
    if func in ("all", "any"):
        wanted = func == "any"

        def search1(env, old):
            saved = env.get(var, _MISSING)
            try:
                for item in iterable(env, old):
                    env[var] = item
                    if (passes is None or passes(env, old)) and bool(elt(env, old)) is wanted:
                        return wanted
                return not wanted
            finally:
                _unbind(env, var, saved)
        return search1
    reduce = _REDUCE[func]

    def collect1(env, old):
        saved = env.get(var, _MISSING)
        values = []
        try:
            for item in iterable(env, old):
                env[var] = item
                if passes is None or passes(env, old):
                    values.append(elt(env, old))
        finally:
            _unbind(env, var, saved)
        return reduce(values)
    return collect1


#: Bodies smaller than this (``p.cash >= 0``) cost less than looking their verdict up.
_MEMO_MIN_NODES = 8
_MEMO_MAX = 65536


def _nodes(e: Any) -> list:
    """Every node of a tree (the tree itself first)."""
    out, todo = [], [e]
    while todo:
        x = todo.pop()
        out.append(x)
        if isinstance(x, Aggregate):
            todo += [it for _, it in x.loops] + list(x.conds) + [x.elt]
        elif isinstance(x, (Compare, BoolOp)):
            todo += list(x.operands)
        elif isinstance(x, Call):
            todo += list(x.args)
        elif isinstance(x, TupleLit):
            todo += list(x.items)
        elif isinstance(x, (Not, Neg)):
            todo.append(x.operand)
        elif isinstance(x, BinOp):
            todo += [x.left, x.right]
        elif isinstance(x, IfExp):
            todo += [x.test, x.then, x.orelse]
    return out


def _item_local(agg: Aggregate, consts: dict[str, Any]) -> bool:
    """Whether the body of ``agg`` (everything but its first iterable) is a function of the first loop
    variable's fields alone: every other name is a constant or a loop variable's field, and nothing
    reads a whole item, a ``before`` or the old state."""
    rest = Aggregate(agg.func, agg.elt, agg.loops[1:], agg.conds)
    body = _nodes(rest)[1:] + [it for _, it in agg.loops[1:]]
    if len(body) < _MEMO_MIN_NODES:
        return False
    loop_vars = {var for x in [agg] + body if isinstance(x, Aggregate) for var, _ in x.loops}
    for x in body:
        if isinstance(x, Call) and x.func == "old":
            return False
        if isinstance(x, Name):
            if x.path[0] in loop_vars:
                if len(x.path) < 2 or "before" in x.path:
                    return False
            elif ".".join(x.path) not in consts:
                return False
    return True


def _memoised(agg: Aggregate, bound: frozenset, consts: dict[str, Any]) -> Callable:
    """``all``/``any`` over the first loop, each item's verdict remembered by its ``memo_key`` and, for the
    items of the last pass seen again (the same objects: a view that kept its unchanged records), by
    identity."""
    var, it = agg.loops[0]
    iterable = _compile(it, bound, consts)
    scope = bound | {var}
    wanted = agg.func == "any"
    if len(agg.loops) > 1:        # the remaining loops: the same quantifier, per item of the first
        inner = _compile_aggregate(Aggregate(agg.func, agg.elt, agg.loops[1:], agg.conds), scope, consts)

        def decides(env, old):
            return inner(env, old) is wanted
    else:
        elt = _compile(agg.elt, scope, consts)
        conds = [_compile(c, scope, consts) for c in agg.conds]

        def decides(env, old):
            for cond in conds:
                if not cond(env, old):
                    return False
            return bool(elt(env, old)) is wanted
    verdicts: dict = {}
    last = [()]     # the items of the last pass that decided nothing (so none of them decides)

    def memoised(env, old):
        items = iterable(env, old)
        last_items = last[0]
        if type(items) is list and len(items) == len(last_items):
            # only the items that are not the very items of that pass can decide
            todo = [item for item, was in zip(items, last_items) if item is not was]
        else:
            todo = items
        saved = env.get(var, _MISSING)
        try:
            for item in todo:
                key = getattr(item, "memo_key", None)
                found = None if key is None else verdicts.get(key)
                if found is None:
                    env[var] = item
                    found = decides(env, old)
                    if key is not None:
                        if len(verdicts) >= _MEMO_MAX:
                            verdicts.clear()
                        verdicts[key] = found
                if found:
                    last[0] = ()
                    return wanted
            last[0] = items if type(items) is list else ()
            return not wanted
        finally:
            _unbind(env, var, saved)
    return memoised
