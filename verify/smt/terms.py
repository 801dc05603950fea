"""z3 terms built straight through z3's C API: the same terms as z3's Python operators, several times faster.

``verify check`` spends about half of its CPU building terms, not solving them: every invariant is
unrolled over 28 deeds and every action's effect over every player. z3's Python layer checks and
coerces the sorts of every operand in Python before each call (``z3.And`` of three terms costs about
37 microseconds, ``z3.If`` 26); the C function it ends in costs about 3. The constructors here call
that C function directly when the operands are of the common kinds (z3 Booleans, z3 numbers and
Python integers) and hand anything else to z3's own operators. Either way the term is the one z3's
Python layer builds, operand order included (z3 hash-conses terms, so the query cache sees the same
query): ``tests/test_smt_terms.py`` holds every constructor to the operator it replaces.
"""

from __future__ import annotations

from typing import Any

import z3
from z3 import z3core as _c

_CTX = z3.main_ctx()
_REF = _CTX.ref()
_BoolRef, _ArithRef, _Ast = z3.BoolRef, z3.ArithRef, z3.Ast
_INTS: dict[int, z3.IntNumRef] = {}
TRUE, FALSE = z3.BoolVal(True), z3.BoolVal(False)


def int_val(v: int) -> z3.IntNumRef:
    """The z3 integer ``v`` (kept: the same small numbers recur in every formula)."""
    t = _INTS.get(v)
    if t is None:
        t = _INTS[v] = z3.IntVal(v)
    return t


def bool_val(v: bool) -> z3.BoolRef:
    return TRUE if v else FALSE


def as_term(x: Any) -> Any:
    """``x`` as z3 takes it beside other terms: a Python bool becomes z3's constant, anything else stays."""
    return bool_val(x) if isinstance(x, bool) else x


def _is_int(t: z3.ArithRef) -> bool:
    """``t`` is an integer term (beside a real one, z3 makes a Python integer a real number)."""
    return _c.Z3_get_sort_kind(_REF, _c.Z3_get_sort(_REF, t.ast)) == z3.Z3_INT_SORT


def _pair(a: Any, b: Any):
    """The ASTs of two numbers of which at least one is a z3 term, as z3's operators would coerce them;
    None when they are something else."""
    if isinstance(a, _ArithRef):
        if isinstance(b, _ArithRef):
            return a.ast, b.ast
        if type(b) is int and _is_int(a):
            return a.ast, int_val(b).ast
    elif type(a) is int and isinstance(b, _ArithRef) and _is_int(b):
        return int_val(a).ast, b.ast
    return None


def _array(terms) -> tuple[int, Any]:
    n = len(terms)
    arr = (_Ast * n)()
    for i, t in enumerate(terms):
        arr[i] = t.ast
    return n, arr


def and_(terms: list) -> z3.BoolRef:
    """``z3.And(terms)`` of z3 Booleans."""
    if all(isinstance(t, _BoolRef) for t in terms):
        return _BoolRef(_c.Z3_mk_and(_REF, *_array(terms)), _CTX)
    return z3.And(terms)


def or_(terms: list) -> z3.BoolRef:
    """``z3.Or(terms)`` of z3 Booleans."""
    if all(isinstance(t, _BoolRef) for t in terms):
        return _BoolRef(_c.Z3_mk_or(_REF, *_array(terms)), _CTX)
    return z3.Or(terms)


def not_(t: Any) -> z3.BoolRef:
    if isinstance(t, _BoolRef):
        return _BoolRef(_c.Z3_mk_not(_REF, t.ast), _CTX)
    return z3.Not(t)


def ite(c: Any, a: Any, b: Any) -> Any:
    """``z3.If(c, a, b)`` for a z3 condition and two Booleans or two numbers (integers allowed)."""
    if isinstance(c, _BoolRef):
        if isinstance(a, _BoolRef) and isinstance(b, _BoolRef):
            return _BoolRef(_c.Z3_mk_ite(_REF, c.ast, a.ast, b.ast), _CTX)
        ab = _pair(a, b)
        if ab is not None:
            return _ArithRef(_c.Z3_mk_ite(_REF, c.ast, *ab), _CTX)
    return z3.If(c, a, b)


def _compare(mk, flipped, op, a: Any, b: Any) -> z3.BoolRef:
    """``a op b`` for numbers: z3's Python operators call the reflected method of the z3 operand when
    the left one is a Python integer (``3 <= x`` is ``x >= 3``), and so does this."""
    ab = _pair(a, b)
    if ab is None:
        return op(a, b)
    if type(a) is int:
        return _BoolRef(flipped(_REF, ab[1], ab[0]), _CTX)
    return _BoolRef(mk(_REF, *ab), _CTX)


def le(a: Any, b: Any) -> z3.BoolRef:
    return _compare(_c.Z3_mk_le, _c.Z3_mk_ge, lambda x, y: x <= y, a, b)


def lt(a: Any, b: Any) -> z3.BoolRef:
    return _compare(_c.Z3_mk_lt, _c.Z3_mk_gt, lambda x, y: x < y, a, b)


def ge(a: Any, b: Any) -> z3.BoolRef:
    return _compare(_c.Z3_mk_ge, _c.Z3_mk_le, lambda x, y: x >= y, a, b)


def gt(a: Any, b: Any) -> z3.BoolRef:
    return _compare(_c.Z3_mk_gt, _c.Z3_mk_lt, lambda x, y: x > y, a, b)


def eq(a: Any, b: Any) -> z3.BoolRef:
    """``a == b`` of two Booleans, or of numbers (a Python integer on either side)."""
    if isinstance(a, _BoolRef) and isinstance(b, _BoolRef):
        return _BoolRef(_c.Z3_mk_eq(_REF, a.ast, b.ast), _CTX)
    ab = _pair(a, b)
    if ab is None:
        return a == b
    return _BoolRef(_c.Z3_mk_eq(_REF, ab[1], ab[0]) if type(a) is int else _c.Z3_mk_eq(_REF, *ab), _CTX)


def ne(a: Any, b: Any) -> z3.BoolRef:
    """``a != b`` (z3 writes it as a two-term distinct)."""
    if isinstance(a, _BoolRef) and isinstance(b, _BoolRef):
        ab = a.ast, b.ast
    else:
        ab = _pair(a, b)
        if ab is None:
            return a != b
        if type(a) is int:
            ab = ab[1], ab[0]
    return _BoolRef(_c.Z3_mk_distinct(_REF, 2, (_Ast * 2)(*ab)), _CTX)


def _arith(mk, op, a: Any, b: Any) -> z3.ArithRef:
    """``a op b`` for + - *: z3's reflected operators keep the operands' order."""
    ab = _pair(a, b)
    if ab is None:
        return op(a, b)
    return _ArithRef(mk(_REF, 2, (_Ast * 2)(*ab)), _CTX)


def add(a: Any, b: Any) -> Any:
    return _arith(_c.Z3_mk_add, lambda x, y: x + y, a, b)


def sub(a: Any, b: Any) -> Any:
    return _arith(_c.Z3_mk_sub, lambda x, y: x - y, a, b)


def mul(a: Any, b: Any) -> Any:
    return _arith(_c.Z3_mk_mul, lambda x, y: x * y, a, b)


def sum_(terms: list) -> Any:
    """``z3.Sum(terms)`` of z3 numbers."""
    if terms and all(isinstance(t, _ArithRef) for t in terms):
        return _ArithRef(_c.Z3_mk_add(_REF, *_array(terms)), _CTX)
    return z3.Sum(terms)


__all__ = ["TRUE", "FALSE", "int_val", "bool_val", "as_term", "and_", "or_", "not_", "ite", "le", "lt", "ge", "gt",
           "eq", "ne", "add", "sub", "mul", "sum_"]
