"""Engine and SMT model agree on the rules added for the audit's NO-PARAMETER rows (issue 11, item 4).

Where the SMT layer models the action (lifting a mortgage, the owner's own auction of a mortgaged
deed, the repairs card and the Free Parking pot, the card that destroys a building, the income tax),
the engine plays it from a constructed state and the SMT transition, evaluated on the same state,
must allow it and give the same owners, buildings, mortgages, cash, bank and pot; for each
parameter both readings are played. (The shortage trigger, claim deadlines, the GO salary, the game
clock, the speed die's faces and bids above cash are outside the SMT model: verify/smt/README.md.)
"""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from verify.config import EngineConfig
from verify.engine.step import apply, new_game
from verify.smt.transitions import BY_NAME, Args
from verify.smt.model import Model
from verify.smt.oracle import _val, judge, snapshot, state_snapshot, sym_from_state
from verify.spec import load_ruleset


def world(rid: str, **changes):
    """(config, SMT model, an opening state with no deeds dealt) for a ruleset, with area__field changes."""
    r = load_ruleset(rid)
    cfg = EngineConfig.from_ruleset(r)
    for key, value in changes.items():
        area, field = key.split("__")
        cfg = replace(cfg, **{area: replace(getattr(cfg, area), **{field: value})})
    state = new_game(cfg, players=3, seed=7)
    for p in state["properties"]:
        p["owner"] = None
    for p in state["players"]:
        p["cash"] = cfg.setup.starting_cash
    state["current"], state["phase"] = 0, "pre_roll"
    return cfg, Model.from_config(cfg), state


def prop(state, square) -> dict:
    return next(p for p in state["properties"] if p["square"] == square)


def index(m: Model, square: int) -> int:
    return next(i for i, d in enumerate(m.deeds) if d.square == square)


def smt_step(m: Model, state: dict, action: str, **args) -> tuple[bool, dict | None]:
    """The SMT transition on a concrete state: (allowed, the modelled fields after)."""
    full = dict(a=0, b=1, sq=0, sq2=0, amt=0, dice=0, f1=False, f2=False, f3=False, f4=False, f5=False, f6=False)
    full.update(args)
    guard, after = BY_NAME[action].build(m, sym_from_state(m, state), Args(**full))
    ok = bool(_val(guard))
    return ok, (snapshot(after) if ok else None)


# ------------------------------------------------------------------ A: lifting a received mortgage at once
@pytest.mark.parametrize("reading, cost", [("principal_only", 200), ("interest_again", 220)])
def test_lifting_a_just_received_mortgage_is_judged_alike(reading, cost):
    cfg, m, s = world("official", mortgage__transfer_lift_at_once=reading)
    prop(s, 39).update(owner=1, mortgaged=True)
    s, _ = apply(cfg, s, {"type": "trade", "seat": 0, "with": 1, "give": {"cash": 100}, "take": {"squares": [39]}})
    assert s["players"][0]["cash"] == 1500 - 100 - 20
    assert s["turn"].get("received") == ([[39, 0]] if reading == "principal_only" else None)
    action = {"type": "unmortgage", "seat": 0, "square": 39}
    smt_ok, smt_after = judge(m, s, action)
    eng_after, _ = apply(cfg, s, action)
    assert smt_ok and smt_after == state_snapshot(m, eng_after)
    assert s["players"][0]["cash"] - eng_after["players"][0]["cash"] == cost


def test_a_mortgage_received_before_the_last_roll_costs_the_interest_again_on_both_sides():
    cfg, m, s = world("official")
    prop(s, 39).update(owner=0, mortgaged=True, interest_paid=True)   # received earlier, window closed
    action = {"type": "unmortgage", "seat": 0, "square": 39}
    smt_ok, smt_after = judge(m, s, action)
    eng_after, _ = apply(cfg, s, action)
    assert smt_ok and smt_after == state_snapshot(m, eng_after)
    assert s["players"][0]["cash"] - eng_after["players"][0]["cash"] == 220


# ------------------------------------------------------------------ I: the owner's own auction of a mortgaged deed
@pytest.mark.parametrize("changes", [{}, {"mortgage__immediate_auction_opening": "mortgage_value",
                                          "mortgage__immediate_auction_owner_bids": False,
                                          "mortgage__immediate_auction_proceeds": "owner_after_loan"}])
@pytest.mark.parametrize("winner, amount", [(1, 4500), (0, 4000), (None, 0)])
def test_own_auction_of_a_mortgaged_deed_is_judged_alike(changes, winner, amount):
    cfg, m, s = world("platform-showdown", **changes)
    prop(s, 39).update(owner=0, mortgaged=True)
    s, _ = apply(cfg, s, {"type": "auction_mortgaged", "seat": 0, "square": 39})
    low = s["pending"]["min"]
    assert low == (4000 if not changes else 2000)
    owner_bids = 0 in s["pending"]["bidders"]
    smt_ok, smt_after = smt_step(m, _before(s), "auction_mortgaged", a=0, b=winner if winner is not None else 1,
                                 sq=index(m, 39), amt=amount, f1=winner is None)
    if winner == 0 and not owner_bids:
        assert not smt_ok            # the owner may not bid under the equity-sale reading
        return
    while s["phase"] == "auction":
        seat = s["pending"]["turn"]
        if seat == winner and s["pending"]["leader"] != winner:
            s, _ = apply(cfg, s, {"type": "bid", "seat": seat, "amount": max(amount, low)})
        else:
            s, _ = apply(cfg, s, {"type": "pass", "seat": seat})
    assert smt_ok and smt_after == state_snapshot(m, s)


def _before(s: dict) -> dict:
    """The state before the auction began (the engine already took the deed off its owner)."""
    before = copy.deepcopy(s)
    prop(before, 39).update(owner=0, mortgaged=True)
    before["phase"], before["pending"] = "pre_roll", None
    return before


# ------------------------------------------------------------------ O: the repairs card and the pot
@pytest.mark.parametrize("cards", [True, False])
def test_repairs_card_pays_into_the_pot_or_the_bank_alike(cards):
    cfg, m, s = world("official+house-free-parking-pot", taxes__pot_card_payments=cards)
    prop(s, 37).update(owner=0, houses=2)
    prop(s, 39).update(owner=0, houses=2)
    s["bank"]["houses"] = 28
    s["decks"]["chance"].remove("chance-repairs")
    s["decks"]["chance"].insert(0, "chance-repairs")
    eng_after, _ = apply(cfg, s, {"type": "roll", "seat": 0, "dice": [3, 4]})       # Chance: 4 x 25
    card = [c.id for c in cfg.cards.chance + cfg.cards.chest if c.effect == "repairs"].index("chance-repairs")
    smt_ok, smt_after = smt_step(m, s, "card_repairs", sq=0, amt=card, dice=100)
    assert smt_ok and smt_after == state_snapshot(m, eng_after)
    assert eng_after["pot"] == (100 if cards else 0)


# ------------------------------------------------------------------ V: whose building the card destroys
@pytest.mark.parametrize("target", ["drawer", "opponent"])
def test_the_destroying_card_is_judged_alike(target):
    from verify.engine.engines import rules_for
    cfg, m, s = world("platform-showdown", cards__building_destroy_target=target)
    for sq in (37, 39):
        prop(s, sq).update(owner=0, houses=3)
    for sq in (1, 3):
        prop(s, sq).update(owner=1, houses=3)
    s["bank"]["houses"] = None
    rules = rules_for(cfg)
    g = rules.from_json(s)            # (the engine's own state class: readable or compiled)
    rules.rules.cards.destroy_building(rules.t, g, 0)
    eng_after = rules.to_json(g)
    hit = next(p["square"] for p in eng_after["properties"] if p["houses"] == 2)
    assert (hit in (37, 39)) == (target == "drawer")
    smt_ok, smt_after = smt_step(m, s, "card_destroy_building", sq=index(m, hit))
    assert smt_ok and smt_after == state_snapshot(m, eng_after)
    other = 1 if target == "drawer" else 37         # the other side's street is not the card's to hit
    assert not smt_step(m, s, "card_destroy_building", sq=index(m, other))[0]


# ------------------------------------------------------------------ AB: a hotel's worth for the income tax
@pytest.mark.parametrize("worth, tax, other", [("price_only", 325, 405), ("price_and_converted_houses", 405, 325)])
def test_the_income_tax_on_worth_is_judged_alike(worth, tax, other):
    cfg, m, s = world("official-pre2008", taxes__worth_hotel=worth)
    prop(s, 37).update(owner=0, houses=4)
    prop(s, 39).update(owner=0, hotel=True)
    s["bank"]["houses"], s["bank"]["hotels"] = 28, 11
    s, _ = apply(cfg, s, {"type": "roll", "seat": 0, "dice": [1, 3]})              # Income Tax (4)
    eng_after, _ = apply(cfg, s, {"type": "pay_tax", "seat": 0, "option": "percent"})
    assert s["players"][0]["cash"] - eng_after["players"][0]["cash"] == tax
    smt_ok, smt_after = smt_step(m, s, "tax", amt=tax)
    assert smt_ok and smt_after == state_snapshot(m, eng_after)
    assert not smt_step(m, s, "tax", amt=other)[0]
