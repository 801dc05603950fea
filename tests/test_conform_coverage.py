"""Coverage-guided generation (verify/conform/coverage.py) and the step's random fields kept only where used."""

from __future__ import annotations

from verify.conform.coverage import Coverage, situation, verdict
from verify.conform.oracle import ACCEPT, expect, used_only
from verify.conform.scenarios import Context, scenario
from verify.conform.session import load_target
from verify.engine.engines import rules_for
from verify.engine.step import new_game


def _ctx():
    cfg, promised = load_target("official")
    return Context(cfg, promised)


def test_the_least_offered_situation_is_taken_first_drawn_on_a_tie():
    cov = Coverage()
    a = (("roll", "legal", "street"), ("roll", "legal", "street", "pre_roll"))
    b = (("mortgage", "legal", "bare"), ("mortgage", "legal", "bare", "pre_roll"))
    assert cov.least([a, b], cov.count) == a
    cov.add(a)
    assert cov.least([a, b], cov.count) == b and cov.side("roll", "legal") == 1


def test_a_situation_names_the_guard_side_and_the_group_mates():
    cfg, _ = load_target("official")
    rules = rules_for(cfg)
    state = new_game(cfg, 2, 1)
    for p in state["properties"]:
        if p["square"] in (6, 8, 9):
            p["owner"] = 0
        if p["square"] in (8, 9):
            p["houses"] = 1
    state["bank"]["houses"] -= 2
    g = rules.from_json(state)
    bare, built = situation(rules, g, {"type": "mortgage", "seat": 0, "square": 6})[0], \
        situation(rules, g, {"type": "mortgage", "seat": 0, "square": 8})[0]
    assert bare[:2] == built[:2] == ("mortgage", "sell the group's buildings first")
    assert bare != built            # the street itself bare, its group-mates built: another situation
    assert verdict(rules, g, {"type": "pay_fine", "seat": 0}) == "not in jail"


def test_a_card_throw_is_kept_only_where_the_step_throws():
    a = {"type": "roll", "seat": 0, "dice": [1, 2], "card_dice": [3, 4], "reshuffle": {"chance": ["x"]}}
    assert used_only(a, []) == {"type": "roll", "seat": 0, "dice": [1, 2]}
    assert used_only(a, [{"event": "card_throw"}]) == {k: v for k, v in a.items() if k != "reshuffle"}
    assert used_only(a, [{"event": "reshuffled", "deck": "chance"}, {"event": "card_throw"}]) == a
    assert used_only(a, ("illegal", "no", a, None)) == {"type": "roll", "seat": 0, "dice": [1, 2]}


def test_generated_steps_carry_only_the_random_fields_their_step_uses():
    """Every generated step's optional random fields are used by its step; and the generation meets steps
    where a card's throw would have been filled (the nearest-utility card on top) but was not used."""
    import random

    from verify.engine.step import fill_random
    ctx = _ctx()
    dropped = 0
    for seed in range(80):
        sc = scenario(seed, ctx)
        state = sc.state
        for action, outcome in zip(sc.actions, sc.expected):
            again = expect(ctx.config, state, action)
            assert used_only(action, again) == action
            bare = {k: v for k, v in action.items() if k not in ("card_dice", "reshuffle")}
            if "card_dice" in fill_random(ctx.config, state, bare, random.Random(0)) and "card_dice" not in action:
                dropped += 1
            if outcome[0] == ACCEPT:
                state = outcome[1]
    assert dropped > 0
