"""Witness search: z3 separates rulings that differ in play and finds none for equivalent ones."""

from __future__ import annotations

import pytest

from verify.compare import witness as wit
from verify.compare.outcomes import BY_ID, BY_PARAM
from verify.compare.proofs import prove

BASE = {"mortgage.value": 0.5, "mortgage.interest_rate": 0.1, "mortgage.interest_base": "mortgage_value",
        "jail.after_last_try": "pay_fine_and_move", "jail.max_tries": 3, "jail.fine": 50,
        "trade.allowed": True, "trade.max_value_gap": 0.5, "trade.max_value_ratio": "none",
        "bankruptcy.threshold": "cannot_raise", "bankruptcy.surrender": False, "go.salary": 200, "go.salary_on_pass": True,
        "go.salary_on_landing": True, "go.exact_landing_bonus": 0, "go.salary_stop_minute": "never"}


def ctx(name, scale=1, **over):
    values = dict(BASE, **{k.replace("__", "."): v for k, v in over.items()})
    return wit.Context(name, scale, values.__getitem__)


def test_unmortgage_cost_prefers_a_price_of_200():
    w = wit.find(BY_ID["unmortgage_cost"], [ctx("a"), ctx("b", mortgage__interest_base="price")])
    assert w.situation == {"price": 200}
    assert [o.classic for o in w.outcomes] == [110, 120]


def test_scaled_side_shows_its_own_money():
    w = wit.find(BY_ID["unmortgage_cost"], [ctx("a"), ctx("b", 10, mortgage__interest_base="price")])
    assert w.outcomes[1].outcome == 10 * w.outcomes[1].classic


def test_jail_after_last_try():
    w = wit.find(BY_ID["jail_last_try"], [ctx("a"), ctx("b", jail__after_last_try="released_and_move")])
    assert w.situation["failed"] == 3
    assert [o.classic for o in w.outcomes] == [50, 0]


def test_equivalent_trade_checks_have_no_witness():
    fam = BY_ID["trade_accepted"]
    assert wit.find(fam, [ctx("a"), ctx("b", trade__max_value_ratio=2)]) is None
    w = wit.find(fam, [ctx("a"), ctx("b", trade__max_value_gap="none")])
    a, b = w.situation["side_a"], w.situation["side_b"]
    assert abs(a - b) > 0.5 * max(a, b)           # the found trade is really lopsided
    assert [o.classic for o in w.outcomes] == [False, True]


def test_bankruptcy_threshold_witness_lies_between_the_rules():
    w = wit.find(BY_ID["bankrupt"], [ctx("a"), ctx("b", bankruptcy__threshold="debt_exceeds_worth")])
    s = w.situation
    assert s["cash"] + s["raisable"] < s["debt"] <= s["worth"]


def test_exact_go_bonus():
    w = wit.find(BY_ID["go_salary"], [ctx("a"), ctx("b", go__exact_landing_bonus=100)])
    assert w.situation["exact"] is True
    assert [o.classic for o in w.outcomes] == [200, 300]


def test_every_family_reads_catalogued_parameters():
    from verify.spec.catalogue import load_catalogue
    cat = load_catalogue()
    for pid in BY_PARAM:
        assert pid in cat, pid


@pytest.mark.parametrize("gap,ratio,proved", [(0.5, 2, True), (0.5, 3, True), (0.5, 1, False), (0.6, 2, False)])
def test_gap_implies_ratio(gap, ratio, proved):
    got = prove("gap_implies_ratio", {"trade.max_value_gap": gap, "trade.max_value_ratio": ratio}.__getitem__, {})
    assert (got is not None) is proved
