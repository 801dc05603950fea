"""The fast term constructors build exactly z3's own terms, and a step's solvers answer what one alone cannot.

``verify.smt.terms`` calls z3's C API past its Python layer: a constructor that swapped two operands,
picked the wrong operator or lost a coercion would still build a term, only another one. Each is held
here to the z3 operator it stands for (``eq`` on z3 terms is identity: z3 hash-conses them).
"""

from __future__ import annotations

import z3
from hypothesis import given, settings, strategies as st

from verify.smt import terms as T
from verify.smt.proofs import _LazySolver, new_solver

X, Y = z3.Ints("terms.x terms.y")
P, Q = z3.Bools("terms.p terms.q")
R = z3.Real("terms.r")

ints = st.integers(min_value=-10**6, max_value=10**6)
numbers = st.one_of(ints, st.sampled_from([X, Y, X + 1, R]))
bools = st.sampled_from([P, Q, z3.Not(P), z3.BoolVal(True)])


def same(a, b) -> bool:
    return isinstance(a, z3.ExprRef) and a.eq(b) and type(a) is type(b) or \
        (not isinstance(a, z3.ExprRef) and a == b)


@given(numbers, numbers)
@settings(max_examples=200, deadline=None)
def test_arithmetic_and_comparisons_are_z3s_operators(a, b):
    pairs = [(T.add, lambda: a + b), (T.sub, lambda: a - b), (T.mul, lambda: a * b),
             (T.le, lambda: a <= b), (T.lt, lambda: a < b), (T.ge, lambda: a >= b), (T.gt, lambda: a > b),
             (T.eq, lambda: a == b), (T.ne, lambda: a != b)]
    for fast, slow in pairs:
        assert same(fast(a, b), slow()), (fast.__name__, a, b, fast(a, b), slow())


@given(bools, st.one_of(st.tuples(numbers, numbers), st.tuples(bools, bools)))
@settings(max_examples=200, deadline=None)
def test_if_then_else_is_z3s_if(c, branches):
    a, b = branches
    assert same(T.ite(c, a, b), z3.If(c, a, b))


@given(st.lists(bools, min_size=1, max_size=5))
def test_connectives_are_z3s(xs):
    assert same(T.and_(xs), z3.And(xs))
    assert same(T.or_(xs), z3.Or(xs))
    assert same(T.not_(xs[0]), z3.Not(xs[0]))
    assert same(T.eq(xs[0], xs[-1]), xs[0] == xs[-1])


@given(st.lists(numbers, min_size=1, max_size=5))
def test_sums_are_z3s(xs):
    terms = [x if isinstance(x, z3.ExprRef) else z3.IntVal(x) for x in xs]
    assert same(T.sum_(terms), z3.Sum(terms))


def test_numerals_are_kept_and_equal_to_z3s():
    assert T.int_val(7) is T.int_val(7)
    assert same(T.int_val(7), z3.IntVal(7))
    assert same(T.bool_val(False), z3.BoolVal(False))
    assert same(T.as_term(True), z3.BoolVal(True)) and T.as_term(X) is X and T.as_term(3) == 3


def test_a_query_outside_linear_arithmetic_is_answered_by_the_general_solver():
    """The linear solver gives up on a product of two unknowns; the step's second solver answers it, and
    the step's later queries go to that solver directly. A linear step never builds the second one."""
    made = []

    def make(_step, logic):
        made.append(logic)
        return new_solver(logic, 10_000)

    lazy = _LazySolver(make, None)
    lit = z3.Bool("terms.nonlinear")
    solver, status = lazy.ask(z3.Implies(lit, z3.And(X * Y == 391, X > 1, Y > 1, X < Y)), [lit])
    assert status == "sat", status          # 17 * 23
    assert made == ["QF_LIA", None]
    assert solver.model().eval(X).as_long() == 17
    general = solver
    solver.pop()
    solver, status = lazy.ask(z3.Implies(lit, X + Y == 3), [lit])
    assert status == "sat" and solver is general and made == ["QF_LIA", None]
    solver.pop()

    made.clear()
    linear = _LazySolver(make, None)
    for goal in (X + Y == 3, X - Y == 7):
        solver, status = linear.ask(z3.Implies(lit, goal), [lit])
        assert status == "sat"
        solver.pop()
    assert made == ["QF_LIA"]
