"""The z3 backend of the expression language: the same AST as ``verify.expr.evaluate``, as z3 terms.

Names are bound to Python values (rule parameters, the finite lists of
players, properties and groups) or to z3 terms (the symbolic fields of the
state). Quantifiers range over those finite lists and are unrolled; anything
whose operands are all Python values is computed in Python, so rule values
are compiled into the formula rather than left as variables (two rulesets
with the same values produce the same formula, which the query cache uses).
"""

from __future__ import annotations

from typing import Any

import z3

from . import terms as T
from ..errors import ExprError
from ..expr import (
    Aggregate, BinOp, BoolOp, Call, Compare, Const, IfExp, Name, Neg, Not, TupleLit, _lookup, _CMP_PY, _BIN_PY)


def _is_z3(x: Any) -> bool:
    return isinstance(x, z3.ExprRef)


def _is_bool(x: Any) -> bool:
    """A z3 Boolean (z3 gives every Boolean-sorted term this class; asking its sort costs two C calls)."""
    return isinstance(x, z3.BoolRef)


def _bool(x: Any) -> Any:
    if _is_z3(x):
        if _is_bool(x):
            return x
        return T.ne(x, 0)
    return bool(x)


def _and(vals: list) -> Any:
    terms = []
    for v in vals:
        v = _bool(v)
        if v is False:
            return False
        if v is True:
            continue
        terms.append(v)
    if not terms:
        return True
    return terms[0] if len(terms) == 1 else T.and_(terms)


def _or(vals: list) -> Any:
    terms = []
    for v in vals:
        v = _bool(v)
        if v is True:
            return True
        if v is False:
            continue
        terms.append(v)
    if not terms:
        return False
    return terms[0] if len(terms) == 1 else T.or_(terms)


def _not(v: Any) -> Any:
    v = _bool(v)
    return (not v) if isinstance(v, bool) else T.not_(v)


def _ite(c: Any, a: Any, b: Any) -> Any:
    c = _bool(c)
    if isinstance(c, bool):
        return a if c else b
    if isinstance(a, bool) and isinstance(b, bool):
        return c if a and not b else (T.not_(c) if b and not a else a)
    if isinstance(a, bool) or isinstance(b, bool):
        a, b = T.as_term(a), T.as_term(b)
    return T.ite(c, a, b)


def _num(x: Any) -> Any:
    """Booleans count as 0/1 in sums and comparisons with numbers (as in Python)."""
    if _is_bool(x):
        return T.ite(x, 1, 0)
    return x


def _cmp(op: str, a: Any, b: Any) -> Any:
    if not _is_z3(a) and not _is_z3(b):
        return _CMP_PY[op](a, b)
    if op in ("in", "not in"):
        if not isinstance(b, (tuple, list)):
            raise ExprError("'in' needs a literal tuple or list on its right")
        r = _or([_cmp("==", a, x) for x in b])
        return r if op == "in" else _not(r)
    if a is None or b is None:  # a symbolic value is never None
        return op == "!="
    if isinstance(a, str) or isinstance(b, str):
        return op == "!="
    if _is_z3(a) and _is_z3(b) and _is_bool(a) != _is_bool(b):
        a, b = _num(a), _num(b)
    elif _is_bool(a) and isinstance(b, (int, float)) and not isinstance(b, bool):
        a = _num(a)
    elif _is_bool(b) and isinstance(a, (int, float)) and not isinstance(a, bool):
        b = _num(b)
    if _is_bool(a) and isinstance(b, bool):
        b = T.bool_val(b)
    if _is_bool(b) and isinstance(a, bool):
        a = T.bool_val(a)
    return _COMPARE[op](a, b)


_COMPARE = {"==": T.eq, "!=": T.ne, "<": T.lt, "<=": T.le, ">": T.gt, ">=": T.ge}


def _arith(op: str, a: Any, b: Any) -> Any:
    a, b = _num(a), _num(b)
    if not _is_z3(a) and not _is_z3(b):
        return _BIN_PY[op](a, b)
    if op == "+":
        return T.add(a, b)
    if op == "-":
        return T.sub(a, b)
    if op == "*":
        return T.mul(a, b)
    if op in ("//", "/"):
        if op == "/" and not (isinstance(b, int) and not _is_z3(a)):
            raise ExprError("'/' on symbolic values is not supported; use '//'")
        return a / b   # z3 integer division (floor for positive divisors)
    if op == "%":
        return a % b
    raise ExprError(f"operator {op} is not supported")


def _minmax(vals: list, is_max: bool) -> Any:
    if not vals:
        return 0
    vals = [_num(v) for v in vals]
    best = vals[0]
    for v in vals[1:]:
        if not _is_z3(best) and not _is_z3(v):
            best = max(best, v) if is_max else min(best, v)
        else:
            best = T.ite(T.gt(v, best), v, best) if is_max else T.ite(T.lt(v, best), v, best)
    return best


def _sum(vals: list) -> Any:
    total: Any = 0
    terms = []
    for v in vals:
        v = _num(v)
        if _is_z3(v):
            terms.append(v)
        else:
            total += v
    if not terms:
        return total
    s = terms[0] if len(terms) == 1 else T.sum_(terms)
    return T.add(s, total) if total else s


def formula(e: Any, env: dict, old_env: dict | None = None) -> Any:
    """``e`` as a z3 term (or a Python value when nothing in it is symbolic)."""
    if isinstance(e, Const):
        return e.value
    if isinstance(e, Name):
        return _lookup(e.path, env)
    if isinstance(e, Compare):
        vals = [formula(x, env, old_env) for x in e.operands]
        return _and([_cmp(op, vals[i], vals[i + 1]) for i, op in enumerate(e.ops)])
    if isinstance(e, BoolOp):
        # short-circuit on Python values so that `param == 'unlimited' or ...` never reads a None
        out = []
        for x in e.operands:
            v = _bool(formula(x, env, old_env))
            if e.op == "and" and v is False:
                return False
            if e.op == "or" and v is True:
                return True
            out.append(v)
        return _and(out) if e.op == "and" else _or(out)
    if isinstance(e, Not):
        return _not(formula(e.operand, env, old_env))
    if isinstance(e, Neg):
        v = _num(formula(e.operand, env, old_env))
        return -v
    if isinstance(e, BinOp):
        return _arith(e.op, formula(e.left, env, old_env), formula(e.right, env, old_env))
    if isinstance(e, IfExp):
        c = _bool(formula(e.test, env, old_env))
        if isinstance(c, bool):
            return formula(e.then if c else e.orelse, env, old_env)
        return _ite(c, formula(e.then, env, old_env), formula(e.orelse, env, old_env))
    if isinstance(e, TupleLit):
        return tuple(formula(x, env, old_env) for x in e.items)
    if isinstance(e, Call):
        if e.func == "old":
            if old_env is None:
                raise ExprError("old(...) is only allowed in step properties")
            return formula(e.args[0], old_env, None)
        args = [formula(x, env, old_env) for x in e.args]
        if e.func == "implies":
            return _or([_not(args[0]), args[1]])
        if e.func == "abs":
            v = _num(args[0])
            return abs(v) if not _is_z3(v) else T.ite(T.lt(v, 0), -v, v)
        if e.func in ("min", "max"):
            vals = list(args[0]) if len(args) == 1 else args
            return _minmax(vals, e.func == "max")
        if e.func == "len":
            return len(args[0])
        raise ExprError(f"function {e.func} is not supported")
    if isinstance(e, Aggregate):
        vals: list = []
        _gen(e, 0, dict(env), old_env, vals)
        if e.func == "all":
            return _and([_or([_not(c), v]) for c, v in vals])
        if e.func == "any":
            return _or([_and([c, v]) for c, v in vals])
        if e.func == "sum":
            return _sum([_ite(c, _num(v), 0) for c, v in vals])
        if e.func == "count":
            return _sum([_ite(_and([c, v]), 1, 0) for c, v in vals])
        # min/max over a filtered symbolic set: only unconditional items are supported
        if any(c is not True for c, _ in vals):
            raise ExprError(f"{e.func}(... if ...) over symbolic conditions is not supported")
        return _minmax([v for _, v in vals], e.func == "max")
    raise ExprError(f"cannot compile {e!r} to z3")


def _gen(agg: Aggregate, depth: int, env: dict, old_env, out: list) -> None:
    if depth == len(agg.loops):
        cond = _and([formula(c, env, old_env) for c in agg.conds])
        if cond is False:
            return
        out.append((cond, formula(agg.elt, env, old_env)))
        return
    var, iterable = agg.loops[depth]
    for item in formula(iterable, env, old_env):
        env[var] = item
        _gen(agg, depth + 1, env, old_env, out)


def as_bool(x: Any) -> z3.BoolRef:
    """A formula result as a z3 Boolean (Python True/False become constants)."""
    x = _bool(x)
    return T.bool_val(x) if isinstance(x, bool) else x
