"""The safe expression language: what it accepts, what it refuses, how it evaluates."""

import pytest

from verify.errors import ExprError
from verify.expr import UNDECIDED, Undecided, evaluate, names, parse


@pytest.mark.parametrize("text", [
    "__import__('os').system('true')", "x.__class__", "lambda: 1", "[x for x in y]",
    "open('f')", "x[0]", "f(**k)", "(yield)", "x := 1", "{1: 2}", "eval('1')",
])
def test_refuses_anything_off_the_whitelist(text):
    with pytest.raises(ExprError):
        parse(text)


def test_dotted_parameter_names_and_attributes():
    e = parse("building.hotel_threshold <= building.max_houses and p.cash >= 0")
    assert names(e) == {("building", "hotel_threshold"), ("building", "max_houses"), ("p", "cash")}
    env = {"building.hotel_threshold": 4, "building.max_houses": 4, "p": {"cash": 3}}
    assert evaluate(e, env) is True
    env["building.hotel_threshold"] = 5
    assert evaluate(e, env) is False


def test_aggregates_nest_and_restore_bindings():
    env = {"groups": [{"streets": [1, 2, 3]}, {"streets": [5, 6]}], "s": "outer"}
    assert evaluate(parse("sum(s for g in groups for s in g.streets)"), env) == 17
    assert evaluate(parse("count(s > 2 for g in groups for s in g.streets)"), env) == 3
    assert evaluate(parse("max(s for g in groups for s in g.streets if s < 6)"), env) == 5
    assert evaluate(parse("min(s for g in groups for s in g.streets if s > 99)"), env) == 0
    assert evaluate(parse("all(abs(a - b) <= 2 for g in groups for a in g.streets for b in g.streets)"), env)
    assert env["s"] == "outer" and "g" not in env and "a" not in env


def test_old_reads_the_state_before():
    e = parse("sum(p for p in cash) == old(sum(p for p in cash))")
    assert evaluate(e, {"cash": [1, 2]}, {"cash": [2, 1]})
    assert not evaluate(e, {"cash": [1, 2]}, {"cash": [2, 2]})
    with pytest.raises(ExprError):
        evaluate(e, {"cash": [1]})


def test_undecided_names_are_reported_not_guessed():
    with pytest.raises(Undecided):
        evaluate(parse("a <= b"), {"a": 1, "b": UNDECIDED})
    assert evaluate(parse("a == 1 or b"), {"a": 1, "b": UNDECIDED})  # short-circuits


def test_chained_comparison_and_conditional():
    env = {"x": 3, "h": True}
    assert evaluate(parse("1 <= x < 4"), env) and not evaluate(parse("1 <= x < 3"), env)
    assert evaluate(parse("5 if h else x"), env) == 5
    assert evaluate(parse("implies(x > 2, h)"), env)


def _aggregate_texts():
    from hypothesis import strategies as st
    elt = st.sampled_from(["a > k", "a == b", "a + b >= k", "a - b <= 1", "not a", "a", "a * b < k + 3"])
    cond = st.sampled_from(["", " if a != k", " if b > a", " if a > 0 and b < 3"])
    func = st.sampled_from(["all", "any", "sum"])
    one = st.builds(lambda f, e, c: f"{f}({e.replace('b', 'a')} for a in xs{c.replace('b', 'a')})", func, elt, cond)
    two = st.builds(lambda f, e, c: f"{f}({e} for g in gs for a in g for b in g{c})", func, elt, cond)
    nested = st.builds(lambda f, e: f"{f}(all({e} for b in g) for g in gs for a in g)", st.sampled_from(["all", "any"]), elt)
    return st.one_of(one, two, nested)


def test_aggregates_evaluate_as_python_does():
    """all/any/sum over nested loops, with conditions and early exits: the same value as Python's."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    ints = st.lists(st.integers(-3, 5), max_size=4)

    @settings(max_examples=300, deadline=None)
    @given(text=_aggregate_texts(), xs=ints, gs=st.lists(ints, max_size=3), k=st.integers(-2, 4))
    def check(text, xs, gs, k):
        env = {"xs": xs, "gs": gs, "k": k}
        scope = {"__builtins__": {"all": all, "any": any, "sum": sum}, **env}
        expected = eval(text, scope)  # the test's oracle, on texts the test generated
        assert evaluate(parse(text), env) == expected
        assert set(env) == {"xs", "gs", "k"}        # loop variables do not leak

    check()


def test_a_field_tested_against_a_constant_over_records_and_dicts():
    """all/any(v.f OP constant for v in ...), run as one loop in C: the same verdicts on records and on
    dicts (a plain state), a missing field is an error, not a verdict."""
    from types import SimpleNamespace as R
    for kind in (R, dict):
        xs = [kind(cash=5, n=1), kind(cash=-1, n=2), kind(cash=0, n=3)]
        assert not evaluate(parse("all(p.cash >= 0 for p in xs)"), {"xs": xs})
        assert evaluate(parse("all(p.cash >= k for p in xs)"), {"xs": xs, "k": -1})
        assert evaluate(parse("any(p.cash < 0 for p in xs)"), {"xs": xs})
        assert not evaluate(parse("any(p.n in ys for p in xs)"), {"xs": xs, "ys": [7]})
        assert evaluate(parse("all(p.cash >= 0 for p in xs)"), {"xs": []})
        with pytest.raises(ExprError, match="no field 'gold'"):
            evaluate(parse("all(p.gold >= 0 for p in xs)"), {"xs": xs})


class _Item:
    """A record with a memo key, as the engine's view hands out."""

    def __init__(self, name, level, owner):
        self.name, self.level, self.owner = name, level, owner
        self.memo_key = (name, level, owner)


class _Env(dict):
    """An environment that keeps values for old(...) of the next step (as verify.state_view.ViewEnv)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.memo = {}


def test_compiled_with_constants_and_memo_agrees_with_evaluate():
    """compile_expr (constants inlined, quantifiers memoised per item and by identity) gives evaluate's
    answers on a run of views that share their unchanged items, whatever changes."""
    import random
    from verify.expr import compile_expr
    e = parse("all(-1 <= a.level - b.level <= limit.max and (a.owner == b.owner or a.level + b.level < limit.max)"
              " for g in groups for a in g.items for b in g.items)"
              " and any(a.level >= 0 and a.owner != 9 for a in items)")
    rng = random.Random(7)
    consts = {"limit.max": 2}
    fn = compile_expr(e, consts, memo=True)
    items = [_Item(i, 0, 0) for i in range(9)]
    seen = set()
    for _ in range(300):
        k = rng.randrange(9)
        items = list(items)
        items[k] = _Item(k, rng.randrange(4), rng.randrange(2))      # one item changes, the others stay
        groups = [{"items": items[i:i + 3]} for i in range(0, 9, 3)]
        env = {"groups": groups, "items": items}
        want = evaluate(e, dict(env, **consts))
        assert fn(env, None) == want
        seen.add(want)
    assert seen == {True, False}


def test_old_reads_the_value_left_by_the_step_before():
    """sum(...) == old(sum(...)): the old side may come from the previous step's environment, never wrongly."""
    from verify.expr import compile_expr
    e = parse("sum(p.cash for p in players) + pot == old(sum(p.cash for p in players) + pot)")
    fn = compile_expr(e, {}, memo=True)
    cash = [[10, 5], [10, 5], [12, 3], [12, 4], [12, 4]]
    envs = [_Env(players=[type("P", (), {"cash": c})() for c in cs], pot=1) for cs in cash]
    got = [fn(new, old) for old, new in zip(envs, envs[1:])]
    assert got == [True, True, False, True]
    assert got == [evaluate(e, new, old) for old, new in zip(envs, envs[1:])]
    assert envs[1].memo                      # the new side left its value for the next step's old(...)
