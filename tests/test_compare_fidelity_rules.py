"""The comparison reads the parameters added for the audit's NO-PARAMETER rows: each has a probe, and the
engine plays the readings apart in the witness, with the numbers."""

from __future__ import annotations

import pytest

from verify.compare import compare
from verify.compare.from_rulesets import _Ctx, load_registry
from verify.compare.probes import BY_ID, BY_PARAM
from verify.compare.search import _play_all
from verify.compare.situations import Table
from verify.compare.witness import witness
from verify.config import EngineConfig

NEW = ("mortgage.transfer_lift_at_once", "building.shortage_trigger", "auction.bid_above_cash",
       "mortgage.immediate_auction_opening", "mortgage.immediate_auction_owner_bids",
       "mortgage.immediate_auction_proceeds", "free_parking.pot_card_payments", "cards.building_destroy_target",
       "go.exact_landing_bonus_after_salary_stop", "go.salary_once_per_turn", "clock.seconds_per_turn",
       "speed_die.pip_faces", "speed_die.mr_monopoly_faces", "speed_die.bus_faces", "tax.worth_hotel")


@pytest.fixture(scope="module")
def ctx():
    return _Ctx(load_registry())


def played(ctx, probe: str, rid: str, other: dict):
    r = ctx.reg.resolve(rid)
    w, differs = witness(BY_ID[probe], [ctx.party(r), ctx.party(r, other, "other reading")])
    assert differs is True, (probe, w.detail if w else None)
    return w, [o.classic for o in w.outcomes]


def played_cfg(ctx, rid: str):
    return EngineConfig.from_ruleset(ctx.reg.resolve(rid))


def test_every_new_parameter_has_a_probe():
    assert all(pid in BY_PARAM for pid in NEW)


@pytest.mark.parametrize("bankruptcy, ours, theirs", [(False, 220, 240), (True, 240, 260)])
def test_received_mortgage_lifted_at_once_boardwalk_figures(ctx, bankruptcy, ours, theirs):
    """Boardwalk (price 400, mortgage value 200): the audit's figures, played by the engine."""
    probe = BY_ID["received_mortgage_lifted_at_once"]
    r = ctx.reg.resolve("official")
    parties = [ctx.party(r), ctx.party(r, {"mortgage.transfer_lift_at_once": "interest_again"}, "other")]
    plays, outs, _ = _play_all(probe, parties, {"deed": "dearest", "bankruptcy": bankruptcy})
    assert list(outs) == [ours, theirs]


@pytest.mark.parametrize("probe, rid, other, expect", [
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
def test_the_engine_plays_the_readings_apart(ctx, probe, rid, other, expect):
    _, got = played(ctx, probe, rid, other)
    assert got == expect


def test_witnesses_with_a_situation(ctx):
    w, got = played(ctx, "own_auction_owner_gets", "platform-showdown",
                    {"mortgage.immediate_auction_proceeds": "owner_after_loan"})
    t = Table(played_cfg(ctx, "platform-showdown"))
    loan = t.classic(t.street(w.situation["deed"]).mortgage)
    assert got == [0, w.situation["bid"] - loan]          # the bank takes back its loan, the owner the rest
    w, got = played(ctx, "go_salary", "platform-classic", {"go.exact_landing_bonus_after_salary_stop": False})
    assert w.situation["exact"] is True and w.situation["minute"] >= 46 and got == [100, 0]   # classic money
    w, got = played(ctx, "rent_claim", "official", {"rent.claim_deadline": "before_second_next_roll"})
    assert sorted(got) == [False, True]
    w, got = played(ctx, "income_tax_hotel_worth", "official-pre2008",
                    {"tax.worth_hotel": "price_and_converted_houses"})
    assert got[1] > got[0]
    w, got = played(ctx, "speed_die_faces", "official-speed-die",
                    {"speed_die.pip_faces": 2, "speed_die.mr_monopoly_faces": 3})
    assert w.situation["face"] == 3 and got == ["pips", "Mr. Monopoly"]


def test_bundled_comparison_shows_the_shortage_trigger_difference():
    """classic-pl names only the last building wanted by several: read as no auction before it, an absence
    (inferred), not a stated contradiction."""
    found = {f.id: f for f in compare(["official", "classic-pl"]).findings}
    f = found["inferred:building.shortage_trigger"]
    assert f.witness is not None and f.witness.plays
    by_side = {o.ruleset: o.classic for o in f.witness.outcomes}
    assert by_side == {"official": True, "classic-pl": False}
