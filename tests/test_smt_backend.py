"""The z3 backend of the expression language says what the Python backend says, on the same states."""

from __future__ import annotations

import copy
import random

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.config import EngineConfig
from verify.expr import parse
from verify.invariants import check_state, load_invariants
from verify.smt.model import Model
from verify.smt.oracle import sym_from_state
from verify.smt.state import view
from verify.smt.to_z3 import as_bool, formula
from verify.spec import load_ruleset


@pytest.fixture(scope="module")
def setup():
    r = load_ruleset("official")
    cfg = EngineConfig.from_ruleset(r)
    return cfg, Model.from_config(cfg)


def _state(cfg, rnd: random.Random) -> dict:
    """Any state (often breaking invariants: both backends must say so alike)."""
    props = []
    for d in cfg.board.deeds:
        street = d.kind == "street"
        hotel = street and rnd.random() < 0.15
        props.append({"square": d.square, "owner": rnd.choice([None, 0, 1, 2]), "mortgaged": rnd.random() < 0.2,
                      "houses": rnd.choice([0, 0, 1, 2, 3, 4, 5]) if street and not hotel else 0,
                      "hotel": hotel})
    players = [{"seat": i, "cash": rnd.choice([-5, 0, 100, 1500]), "in_jail": False,
                "jail_cards": rnd.choice([[], [], ["chance"], ["chest"], ["chance", "chest"]]),
                "bankrupt": rnd.random() < 0.15} for i in range(3)]
    return {"players": players, "properties": props,
            "bank": {"houses": rnd.randint(-2, 32), "hotels": rnd.randint(0, 12), "cash": 0},
            "pot": rnd.choice([0, 0, -1, 50]), "jackpot": 0}


def _z3_truth(m, inv, state) -> bool:
    value = z3.simplify(as_bool(formula(inv.expr, view(m, sym_from_state(m, state)))))
    assert z3.is_true(value) or z3.is_false(value), value
    return z3.is_true(value)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10 ** 9))
def test_every_state_invariant_agrees_between_backends(setup, seed):
    cfg, m = setup
    state = _state(cfg, random.Random(seed))
    broken = {v.invariant for v in check_state(cfg, state, None)}
    for inv in load_invariants():
        if inv.kind == "state":
            assert _z3_truth(m, inv, state) == (inv.id not in broken), inv.id


def test_quantifiers_unroll_and_fold_rule_values(setup):
    cfg, m = setup
    s = sym_from_state(m, _state(cfg, random.Random(3)))
    env = view(m, s)
    # a rule value compares in Python: no z3 term is left
    assert formula(parse("building.house_supply == 'unlimited'"), env) is False
    # a quantifier over the 22 streets is a z3 conjunction of 22 facts
    f = formula(parse("all(s.houses >= 0 for s in streets)"), env)
    assert isinstance(f, z3.BoolRef)
    fresh = view(m, copy.copy(s))
    assert z3.is_true(z3.simplify(as_bool(formula(parse("count(p.kind == 'station' for p in properties) == 4"),
                                                  fresh))))
