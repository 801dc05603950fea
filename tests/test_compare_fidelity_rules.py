"""The comparison reads the parameters added for the audit's NO-PARAMETER rows (issue 11, item 4):
each has an outcome family, and z3 finds the situation where the readings part, with the numbers."""

from __future__ import annotations

import pytest
import z3

from verify.compare import compare
from verify.compare.outcomes import BY_ID, BY_PARAM
from verify.compare.witness import Context, find
from verify.spec import load_ruleset

NEW = ("mortgage.transfer_lift_at_once", "building.shortage_trigger", "auction.bid_above_cash",
       "mortgage.immediate_auction_opening", "mortgage.immediate_auction_owner_bids",
       "mortgage.immediate_auction_proceeds", "free_parking.pot_card_payments", "cards.building_destroy_target",
       "go.exact_landing_bonus_after_salary_stop", "go.salary_once_per_turn", "clock.seconds_per_turn",
       "speed_die.pip_faces", "speed_die.mr_monopoly_faces", "speed_die.bus_faces", "tax.worth_hotel")


def sides(rid: str, other: dict, family: str) -> list[Context]:
    """A ruleset's values against the same with ``other`` changed (money in classic amounts)."""
    r = load_ruleset(rid)
    get = r.value
    return [Context(rid, 1, get), Context("other reading", 1, lambda pid: other.get(pid, get(pid)))]


def outcomes(w) -> list:
    return [o.classic for o in w.outcomes]


def test_every_new_parameter_has_an_outcome_family():
    assert all(pid in BY_PARAM for pid in NEW)


def test_received_mortgage_lifted_at_once_boardwalk_figures():
    fam = BY_ID["received_mortgage_lifted_at_once"]
    r = load_ruleset("official")
    for bankruptcy, ours, theirs in ((False, 220, 240), (True, 240, 260)):
        env = {"price": z3.IntVal(400), "bankruptcy": z3.BoolVal(bankruptcy)}
        got = [z3.simplify(fam.outcome(get, env)).as_fraction() for get in (
            r.value, lambda pid: "interest_again" if pid == "mortgage.transfer_lift_at_once" else r.value(pid))]
        assert got == [ours, theirs]
    w = find(fam, sides("official", {"mortgage.transfer_lift_at_once": "interest_again"}, fam.id))
    assert w is not None and outcomes(w)[1] - outcomes(w)[0] == w.situation["price"] // 2 // 10


@pytest.mark.parametrize("family, rid, other, expect", [
    ("shortage_auction", "official", {"building.shortage_trigger": "more_players_than_stock"}, [True, False]),
    ("shortage_auction", "official", {"building.shortage_trigger": "last_one_wanted_by_several"}, [True, False]),
    ("auction_bid_above_cash", "platform-classic", {"auction.bid_above_cash": False}, [True, False]),
    ("own_auction_owner_bids", "platform-showdown", {"mortgage.immediate_auction_owner_bids": False},
     [True, False]),
    ("free_parking_card_payment", "official+house-free-parking-pot", {"free_parking.pot_card_payments": False},
     [True, False]),
    ("destroyed_building_owner", "platform-showdown", {"cards.building_destroy_target": "opponent"}, [1, 2]),
    ("go_second_pass", "official", {"go.salary_once_per_turn": False}, [200, 400]),
    ("clock_turns_per_hour", "platform-classic", {"clock.seconds_per_turn": 45}, [120, 80]),
])
def test_the_readings_part_in_a_witness(family, rid, other, expect):
    fam = BY_ID[family]
    w = find(fam, sides(rid, other, family))
    assert w is not None and outcomes(w) == expect


def test_witnesses_with_a_situation():
    fam = BY_ID["own_auction_owner_gets"]
    w = find(fam, sides("platform-showdown", {"mortgage.immediate_auction_proceeds": "owner_after_loan"}, fam.id))
    assert outcomes(w) == [0, w.situation["bid"] - w.situation["price"] // 2]
    fam = BY_ID["go_salary"]
    w = find(fam, sides("platform-classic", {"go.exact_landing_bonus_after_salary_stop": False}, fam.id))
    assert w.situation["exact"] is True and w.situation["minute"] >= 46 and outcomes(w) == [1000, 0]   # platform money
    fam = BY_ID["rent_claim"]
    w = find(fam, sides("official", {"rent.claim_deadline": "before_second_next_roll"}, fam.id))
    assert outcomes(w) in ([True, False], [False, True])
    fam = BY_ID["income_tax_hotel_worth"]
    w = find(fam, sides("official-pre2008", {"tax.worth_hotel": "price_and_converted_houses"}, fam.id))
    assert outcomes(w) == [w.situation["house_cost"], 5 * w.situation["house_cost"]]
    fam = BY_ID["speed_die_faces"]
    w = find(fam, sides("official-speed-die", {"speed_die.pip_faces": 2, "speed_die.mr_monopoly_faces": 3}, fam.id))
    assert outcomes(w) in ([3, 2], [2, 3])


def test_bundled_comparison_shows_the_shortage_trigger_contradiction():
    found = {f.id: f for f in compare(["official", "classic-pl"]).findings}
    f = found["contradiction:building.shortage_trigger"]
    assert f.witness is not None and f.witness.method == "z3"
    by_side = {o.ruleset: o.classic for o in f.witness.outcomes}
    assert by_side == {"official": True, "classic-pl": False}
